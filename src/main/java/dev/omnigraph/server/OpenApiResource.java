package dev.omnigraph.server;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}: this server's OpenAPI document where the reference serves its own, so
 * the reference SDK's generator and tooling find it at the same path. The document is the static
 * {@code META-INF/openapi.json} (SmallRye serves the same file at {@code /q/openapi}, with annotation
 * scanning off): the reference's shapes are hand-kept there rather than generated from our records,
 * because the contract is the reference's component names, nullability and error details, which
 * generated schemas do not reproduce. {@code OpenApiContractTest} diffs it against the reference for
 * every route served and checks that it lists exactly the routes the resources serve.
 */
@Path("/openapi.json")
public class OpenApiResource {

  static final String DOCUMENT = "META-INF/openapi.json";

  private static final byte[] BYTES = load();

  private static byte[] load() {
    try (InputStream in = OpenApiResource.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
      if (in == null) {
        throw new IllegalStateException("missing bundled resource " + DOCUMENT);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The document, unauthenticated like {@code /q/openapi} (it is not under {@code /graphs}). */
  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public byte[] document() {
    return BYTES;
  }
}
