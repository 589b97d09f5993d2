package dev.omnigraph.server;

import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Bearer-token authentication for every {@code /graphs} route when tokens are configured: a missing,
 * malformed or unknown token is 401 {@code unauthorized}; a known one sets the request's actor.
 * Health, metrics and OpenAPI are not REST routes under {@code /graphs} and stay open.
 */
class AuthFilter {

  private static final String BEARER = "Bearer ";

  @Inject BearerTokens tokens;
  @Inject RequestActor actor;

  @ServerRequestFilter
  Optional<Response> authenticate(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (!tokens.enabled() || !(path.equals("/graphs") || path.startsWith("/graphs/"))) {
      return Optional.empty();
    }
    String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Optional.of(unauthorized("missing bearer token (Authorization: Bearer <token>)"));
    }
    Optional<String> resolved = tokens.actorOf(header.substring(BEARER.length()).trim());
    if (resolved.isEmpty()) {
      return Optional.of(unauthorized("invalid bearer token"));
    }
    actor.set(resolved.get());
    return Optional.empty();
  }

  private static Response unauthorized(String message) {
    return Response.status(401).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
        .type(jakarta.ws.rs.core.MediaType.APPLICATION_JSON)
        .entity(ErrorOutput.plain(message, "unauthorized")).build();
  }
}
