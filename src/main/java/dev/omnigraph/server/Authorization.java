package dev.omnigraph.server;

import dev.omnigraph.engine.policy.Policy;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.api.policy.PolicyRefused;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Collection;
import java.util.Collections;
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
 *
 * <p>Reload without restart ({@link PolicyReloader} calls {@link #reload}): a file whose bytes changed
 * is parsed again; a good one replaces its policy, a refused one keeps the policy in force. The gates
 * in force are one immutable {@link Gates} snapshot, swapped whole: a request pins one snapshot
 * ({@link RequestGates}) and decides against it from start to end.
 */
@ApplicationScoped
class Authorization {

  static final String POLICY_FILE = "omnigraph.policy.file";
  static final String GRAPH_POLICY_SUFFIX = "policy-file";

  /**
   * The gates in force: the server policy's and each graph's, built once per policy version. Never
   * changed; a reload makes a new one.
   */
  record Gates(Optional<Policy> serverPolicy, SortedMap<String, Policy> graphPolicies, PolicyGate stateless,
      PolicyGate server, SortedMap<String, PolicyGate> graphs) {

    /** Every gate observed by {@code listener}; {@code stateless} is the tokens' state, already observed. */
    static Gates of(Optional<Policy> serverPolicy, SortedMap<String, Policy> graphPolicies, PolicyGate stateless,
        dev.omnigraph.api.policy.DecisionListener listener) {
      SortedMap<String, PolicyGate> graphs = new TreeMap<>();
      graphPolicies.forEach((id, p) -> graphs.put(id, PolicyGate.enforcing(p).observedBy(listener)));
      return new Gates(serverPolicy, Collections.unmodifiableSortedMap(new TreeMap<>(graphPolicies)), stateless,
          serverPolicy.map(p -> PolicyGate.enforcing(p).observedBy(listener)).orElse(stateless),
          Collections.unmodifiableSortedMap(graphs));
    }

    /** The gate of graph {@code id}: its own policy, else the server's, else the state the tokens give. */
    PolicyGate forGraph(String id) {
      return graphs.getOrDefault(id, server);
    }

    /** The policy deciding graph {@code id}, if any. */
    Optional<Policy> policyOf(String id) {
      return Optional.ofNullable(graphPolicies.get(id)).or(() -> serverPolicy);
    }
  }

  /** One configured policy file: its configuration key (the metrics and log name it) and path. */
  record Source(String key, Optional<String> graph, Path file) {}

  /**
   * What one reload pass found for a file whose bytes changed: applied, or refused with the reason
   * (the file, line and rule id of {@link PolicyRefused}, or why it could not be read).
   */
  record Reload(Source source, Optional<String> refusal) {
    boolean applied() {
      return refusal.isEmpty();
    }
  }

  private final List<Source> sources;
  /** The SHA-256 of each source's bytes when last read (key: {@link Source#key}), so a pass parses only changes. */
  private final Map<String, String> seen = new java.util.HashMap<>();
  private volatile Gates current;
  /** Hears every decision of every gate handed out here ({@link ServiceMetrics#decided}). */
  private final dev.omnigraph.api.policy.DecisionListener listener;

  @jakarta.inject.Inject
  Authorization(Config config, BearerTokens bearerTokens, ServiceMetrics metrics) {
    this(OmnigraphConfig.of(config), bearerTokens, metrics);
  }

  private Authorization(OmnigraphConfig config, BearerTokens bearerTokens, ServiceMetrics metrics) {
    this(config.policy().file().filter(f -> !f.isBlank()).map(Path::of), policyFiles(config.graphs()),
        bearerTokens.enabled(), metrics::decided);
  }

  /**
   * @throws IllegalStateException when a policy file cannot be used or a policy is set without tokens
   */
  Authorization(Optional<Path> serverFile, Map<String, Path> graphFiles, boolean tokens) {
    this(serverFile, graphFiles, tokens, dev.omnigraph.api.policy.DecisionListener.NONE);
  }

  private Authorization(Optional<Path> serverFile, Map<String, Path> graphFiles, boolean tokens,
      dev.omnigraph.api.policy.DecisionListener listener) {
    this.listener = listener;
    if (!tokens && (serverFile.isPresent() || !graphFiles.isEmpty())) {
      String which = serverFile.map(f -> POLICY_FILE + " (" + f + ")")
          .orElseGet(() -> "omnigraph.graphs." + graphFiles.keySet().iterator().next() + "." + GRAPH_POLICY_SUFFIX);
      throw new IllegalStateException("refusing to start: " + which + " is set but no bearer token is configured;"
          + " a policy decides per actor and without tokens no request has one. Configure tokens"
          + " (omnigraph.auth.tokens.<actor>=<sha256 hex> or omnigraph.auth.tokens-file), or remove the policy to"
          + " serve Open");
    }
    List<Source> all = new ArrayList<>();
    serverFile.ifPresent(f -> all.add(new Source(POLICY_FILE, Optional.empty(), f)));
    new TreeMap<>(graphFiles).forEach((id, f) -> all.add(new Source("omnigraph.graphs." + id + "." + GRAPH_POLICY_SUFFIX,
        Optional.of(id), f)));
    this.sources = List.copyOf(all);
    Optional<Policy> server = Optional.empty();
    SortedMap<String, Policy> graphs = new TreeMap<>();
    for (Source source : sources) {
      Policy p;
      try {
        p = read(source);
      } catch (PolicyRefused e) {
        throw new IllegalStateException("refusing to start: " + e.getMessage()
            + " (fix the file and check it with: omnigraph policy validate FILE)", e);
      }
      if (source.graph().isPresent()) {
        graphs.put(source.graph().get(), p);
      } else {
        server = Optional.of(p);
      }
    }
    this.current = Gates.of(server, graphs, (tokens ? PolicyGate.DEFAULT_DENY : PolicyGate.OPEN).observedBy(listener),
        listener);
  }

  /**
   * Reads and validates {@code source} (a graph's: per-graph rules only), remembering its bytes' hash.
   *
   * @throws PolicyRefused naming the file, line and rule, or saying why it cannot be read
   */
  private Policy read(Source source) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(source.file());
    } catch (IOException e) {
      seen.put(source.key(), "unreadable: " + e);
      throw PolicyRefused.unreadable(source.file().toString(), e);
    }
    seen.put(source.key(), HexFormat.of().formatHex(BearerTokens.sha256(bytes)));
    Policy p = Policy.parse(new String(bytes, java.nio.charset.StandardCharsets.UTF_8), source.file().toString());
    return source.graph().isPresent() ? p.requireGraphScoped() : p;
  }

  /** {@code omnigraph.graphs.<id>.policy-file} of every graph that sets one. */
  private static Map<String, Path> policyFiles(Map<String, OmnigraphConfig.GraphConfig> graphs) {
    SortedMap<String, Path> out = new TreeMap<>();
    graphs.forEach((id, g) -> g.policyFile().ifPresent(f -> out.put(id, Path.of(f.strip()))));
    return out;
  }

  /** Whether any policy file is configured (then {@link PolicyReloader} watches them). */
  boolean hasPolicyFiles() {
    return !sources.isEmpty();
  }

  /**
   * One reload pass: every configured file whose bytes differ from when it was last read is parsed
   * again (a Kubernetes ConfigMap update swaps a {@code ..data} symlink, so the content, not an
   * inotify event, says what changed). Every good file's policy replaces its old one in one new
   * snapshot; a refused file, or one that cannot be read, keeps its policy in force. A file is read
   * once per change of its bytes: a broken file is reported once, not at every pass.
   *
   * @return what happened to each changed file, in configuration order (empty: nothing changed)
   */
  synchronized List<Reload> reload() {
    List<Reload> out = new ArrayList<>();
    Gates before = current;
    Optional<Policy> server = before.serverPolicy();
    SortedMap<String, Policy> graphs = new TreeMap<>(before.graphPolicies());
    for (Source source : sources) {
      String was = seen.get(source.key());
      Policy p;
      try {
        p = read(source);
      } catch (PolicyRefused e) {
        if (!seen.get(source.key()).equals(was)) {
          out.add(new Reload(source, Optional.of(e.getMessage())));
        }
        continue;
      }
      if (seen.get(source.key()).equals(was)) {
        continue;
      }
      out.add(new Reload(source, Optional.empty()));
      if (source.graph().isPresent()) {
        graphs.put(source.graph().get(), p);
      } else {
        server = Optional.of(p);
      }
    }
    if (out.stream().anyMatch(Reload::applied)) {
      current = Gates.of(server, graphs, before.stateless(), listener);
    }
    return out;
  }

  /** The gates in force now; a request pins one ({@link RequestGates}). */
  Gates current() {
    return current;
  }

  /**
   * Refuses a graph policy for a graph this server does not serve (a typo would leave the intended
   * graph under the server policy, or DefaultDeny, silently).
   *
   * @throws IllegalStateException naming the key
   */
  void requireServed(Collection<String> served) {
    for (String id : current.graphPolicies().keySet()) {
      if (!served.contains(id)) {
        throw new IllegalStateException("refusing to start: omnigraph.graphs." + id + "." + GRAPH_POLICY_SUFFIX
            + " names graph '" + id + "', which this server does not serve (serving: " + String.join(", ", served)
            + ")");
      }
    }
  }

  /** The gate of graph {@code id} in force now. */
  PolicyGate forGraph(String id) {
    return current.forGraph(id);
  }

  /** The gate of server-scoped actions ({@code graph_list}) in force now: the server policy's. */
  PolicyGate forServer() {
    return current.server();
  }

  /** The startup (and reload) line: each graph's state and policy source, never the policy's contents. */
  String describe(Collection<String> graphIds) {
    Gates g = current;
    StringBuilder out = new StringBuilder("authorization: server ").append(label(g.server(), g.serverPolicy()));
    for (String id : graphIds) {
      out.append("; graph ").append(id).append(' ').append(label(g.forGraph(id), g.policyOf(id)));
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
