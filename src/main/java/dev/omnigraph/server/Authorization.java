package dev.omnigraph.server;

import dev.omnigraph.policy.Policy;
import dev.omnigraph.policy.PolicyGate;
import dev.omnigraph.policy.PolicyRefused;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;

/**
 * The service's authorization, from configuration (docs/authorization.md): the server policy
 * {@code omnigraph.policy.file} (env {@code OMNIGRAPH_POLICY_FILE}) decides {@code graph_list} and every
 * graph without its own; {@code omnigraph.graphs.<id>.policy-file} is a graph's own (per-graph rules
 * only). Each graph's runtime state follows the reference: no tokens and no policy is <em>Open</em>
 * (served on loopback, or with {@code omnigraph.auth.allow-unauthenticated=true}: {@link ExposureGuard});
 * tokens without a policy is <em>DefaultDeny</em> (only {@code read}); tokens with one is
 * <em>PolicyEnabled</em>.
 *
 * <p>Fails closed at startup: a policy file that does not parse, a policy without any bearer token
 * (every request would be anonymous, so it could only ever deny), or a graph policy for a graph not
 * served refuses to start, with a message that says how to fix it.
 */
@ApplicationScoped
class Authorization {

  static final String POLICY_FILE = "omnigraph.policy.file";
  static final String GRAPH_POLICY_SUFFIX = "policy-file";

  private final boolean tokens;
  /** Hears every decision of every gate handed out here ({@link ServiceMetrics#decided}). */
  private final dev.omnigraph.policy.DecisionListener listener;
  private final Optional<Policy> serverPolicy;
  private final SortedMap<String, Policy> graphPolicies;

  @jakarta.inject.Inject
  Authorization(Config config, BearerTokens bearerTokens, ServiceMetrics metrics) {
    this(config.getOptionalValue(POLICY_FILE, String.class).filter(f -> !f.isBlank()).map(Path::of),
        pathsOf(KeyedConfig.read(config.getPropertyNames(), n -> config.getValue(n, String.class), "omnigraph.graphs",
            GRAPH_POLICY_SUFFIX, java.util.Set.of())), bearerTokens.enabled(), metrics::decided);
  }

  /**
   * @throws IllegalStateException when a policy file cannot be used or a policy is set without tokens
   */
  Authorization(Optional<Path> serverFile, Map<String, Path> graphFiles, boolean tokens) {
    this(serverFile, graphFiles, tokens, dev.omnigraph.policy.DecisionListener.NONE);
  }

  private Authorization(Optional<Path> serverFile, Map<String, Path> graphFiles, boolean tokens,
      dev.omnigraph.policy.DecisionListener listener) {
    this.tokens = tokens;
    this.listener = listener;
    if (!tokens && (serverFile.isPresent() || !graphFiles.isEmpty())) {
      String which = serverFile.map(f -> POLICY_FILE + " (" + f + ")")
          .orElseGet(() -> "omnigraph.graphs." + graphFiles.keySet().iterator().next() + "." + GRAPH_POLICY_SUFFIX);
      throw new IllegalStateException("refusing to start: " + which + " is set but no bearer token is configured;"
          + " a policy decides per actor and without tokens no request has one. Configure tokens"
          + " (omnigraph.auth.tokens.<actor>=<sha256 hex> or omnigraph.auth.tokens-file), or remove the policy to"
          + " serve Open");
    }
    this.serverPolicy = serverFile.map(Authorization::load);
    SortedMap<String, Policy> graphs = new TreeMap<>();
    graphFiles.forEach((id, file) -> {
      Policy p = load(file);
      try {
        graphs.put(id, p.requireGraphScoped());
      } catch (PolicyRefused e) {
        throw refused(e);
      }
    });
    this.graphPolicies = graphs;
  }

  private static Policy load(Path file) {
    try {
      return Policy.load(file);
    } catch (PolicyRefused e) {
      throw refused(e);
    }
  }

  private static IllegalStateException refused(PolicyRefused e) {
    return new IllegalStateException("refusing to start: " + e.getMessage()
        + " (fix the file and check it with: omnigraph policy validate FILE)", e);
  }

  private static Map<String, Path> pathsOf(SortedMap<String, String> files) {
    SortedMap<String, Path> out = new TreeMap<>();
    files.forEach((id, f) -> out.put(id, Path.of(f.strip())));
    return out;
  }

  /**
   * Refuses a graph policy for a graph this server does not serve (a typo would leave the intended
   * graph under the server policy, or DefaultDeny, silently).
   *
   * @throws IllegalStateException naming the key
   */
  void requireServed(Collection<String> served) {
    for (String id : graphPolicies.keySet()) {
      if (!served.contains(id)) {
        throw new IllegalStateException("refusing to start: omnigraph.graphs." + id + "." + GRAPH_POLICY_SUFFIX
            + " names graph '" + id + "', which this server does not serve (serving: " + String.join(", ", served)
            + ")");
      }
    }
  }

  /** The gate of graph {@code id}: its own policy, else the server's, else the state the tokens give. */
  PolicyGate forGraph(String id) {
    return Optional.ofNullable(graphPolicies.get(id)).or(() -> serverPolicy).map(PolicyGate::enforcing)
        .orElse(stateless()).observedBy(listener);
  }

  /** The gate of server-scoped actions ({@code graph_list}): the server policy's. */
  PolicyGate forServer() {
    return serverPolicy.map(PolicyGate::enforcing).orElse(stateless()).observedBy(listener);
  }

  private PolicyGate stateless() {
    return tokens ? PolicyGate.DEFAULT_DENY : PolicyGate.OPEN;
  }

  /** The startup line: each graph's state and policy source, never the policy's contents. */
  String describe(Collection<String> graphIds) {
    StringBuilder out = new StringBuilder("authorization: server ").append(label(forServer(), serverPolicy));
    for (String id : graphIds) {
      Optional<Policy> p = Optional.ofNullable(graphPolicies.get(id)).or(() -> serverPolicy);
      out.append("; graph ").append(id).append(' ').append(label(forGraph(id), p));
    }
    return out.toString();
  }

  private static String label(PolicyGate gate, Optional<Policy> policy) {
    return switch (gate.state()) {
      case OPEN -> "Open (no tokens, no policy: every request allowed)";
      case DEFAULT_DENY -> "DefaultDeny (tokens, no policy: only read)";
      case POLICY_ENABLED -> "PolicyEnabled (" + policy.orElseThrow().origin() + ", "
          + policy.orElseThrow().actors().size() + " actors, " + policy.orElseThrow().rules().size() + " rules)";
    };
  }
}
