package dev.omnigraph.server;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses to start a server that anyone on the network could write to: with no bearer token
 * configured, {@code quarkus.http.host} must be a loopback address unless
 * {@code omnigraph.auth.allow-unauthenticated=true} says the exposure is intended. Checked once at
 * startup (which fails fast) and only when HTTP is enabled, so CLI commands are never affected.
 * It also logs the one line that says which auth mode the server runs in and for which token
 * actors, so "auth off" is never silent (the hashes are never logged).
 */
@ApplicationScoped
class ExposureGuard {

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ExposureGuard.class);

  @Inject BearerTokens tokens;
  @Inject GraphRegistry graphs;

  @ConfigProperty(name = "quarkus.http.host", defaultValue = "0.0.0.0") String host;
  @ConfigProperty(name = "quarkus.http.host-enabled", defaultValue = "true") boolean httpEnabled;
  @Inject OmnigraphConfig config;

  void onStart(@Observes StartupEvent event) {
    boolean allowUnauthenticated = config.auth().allowUnauthenticated();
    if (httpEnabled) {
      LOG.info(describe(tokens.actors(), host, allowUnauthenticated));
      // The runtime state of each graph (docs/authorization.md); building it refuses a broken policy.
      LOG.info(graphs.describeAuthorization());
      check(host, tokens.enabled(), allowUnauthenticated);
    }
  }

  /** The startup line: the auth mode and the token actors, never a hash. */
  static String describe(java.util.List<String> actors, String host, boolean allowUnauthenticated) {
    if (!actors.isEmpty()) {
      return "auth: bearer tokens required on /graphs; token actors: " + String.join(", ", actors);
    }
    return "auth: off, no bearer token configured (" + (allowUnauthenticated
        ? "omnigraph.auth.allow-unauthenticated=true"
        : "loopback only") + ", host " + host + ")";
  }

  /**
   * @throws IllegalStateException when {@code host} is not loopback, no token is configured and
   *     unauthenticated exposure was not allowed
   */
  static void check(String host, boolean tokensConfigured, boolean allowUnauthenticated) {
    if (tokensConfigured || allowUnauthenticated || isLoopback(host)) {
      return;
    }
    throw new IllegalStateException("refusing to serve unauthenticated on non-loopback address " + host
        + ": configure bearer tokens (omnigraph.auth.tokens.<actor>=<sha256 hex> or omnigraph.auth.tokens-file), "
        + "bind 127.0.0.1, or set omnigraph.auth.allow-unauthenticated=true");
  }

  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
