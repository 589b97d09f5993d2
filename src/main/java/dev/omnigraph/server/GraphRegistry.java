package dev.omnigraph.server;

import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.api.storage.StorageConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * The graphs this service serves, from configuration ({@link OmnigraphConfig}): {@code omnigraph.graphs.<id>.uri} for each
 * graph; with none of those, the single root {@code omnigraph.storage.uri} served as graph
 * {@code default}. S3 settings come from the {@code AWS_*} environment
 * ({@link StorageConfig#fromEnvironment}). With {@code omnigraph.storage.example=true} an empty
 * local root of graph {@code default} is created as the embedded example graph on first use.
 */
@ApplicationScoped
class GraphRegistry {

  static final String DEFAULT_GRAPH = "default";
  private static final Logger LOG = Logger.getLogger(GraphRegistry.class);

  private final SortedMap<String, ServedGraph> graphs = new TreeMap<>();
  /** Every read's budgets (omnigraph.read.*, docs/query-language.md); a bad value fails startup naming its key. */
  private final ReadSettings readSettings;

  /** The service's authorization: each graph's gate, and the gate of {@code GET /graphs}. */
  private final Authorization authorization;
  /**
   * The current request's pinned gates, through its client proxy: resolved against the request context
   * on each call, without the bean lookup an {@code Arc.container().instance(...)} makes per call (every
   * read asks for its gate; docs/performance.md, "Where the served route's time went").
   */
  private final RequestGates requestGates;

  /** Outside the container (tests): no request ever pins gates, decisions use the gates in force. */
  GraphRegistry(Config config, Authorization authorization) {
    this(config, authorization, null);
  }

  @jakarta.inject.Inject
  GraphRegistry(Config config, Authorization authorization, RequestGates requestGates) {
    this.authorization = authorization;
    this.requestGates = requestGates;
    OmnigraphConfig settings = OmnigraphConfig.of(config);
    boolean example = settings.storage().example();
    readSettings = ReadSettings.from(name -> config.getOptionalValue(name, String.class).orElse(null));
    dev.omnigraph.engine.GraphRoots.columnCacheBytes(
        ReadSettings.columnCacheBytes(name -> config.getOptionalValue(name, String.class).orElse(null)));
    // Compaction settings (docs/maintenance.md): the service runs the automatic pass in the background.
    OptimizeSettings optimize = OptimizeSettings.from(name -> config.getOptionalValue(name, String.class)
        .orElse(name.equals(OptimizeSettings.BACKGROUND) ? "true" : null));
    // The writer lease (docs/lease.md) and the service mode: "writer" (default) takes the lease of
    // every graph; "read-only" is a read replica that never does.
    dev.omnigraph.api.lease.LeaseSettings leases = leaseSettings(settings.lease());
    String mode = settings.mode().trim();
    if (!mode.equals("writer") && !mode.equals("read-only")) {
      throw new IllegalArgumentException("omnigraph.mode: '" + mode + "' is neither writer nor read-only");
    }
    boolean readOnly = mode.equals("read-only");
    // Sorted by id, as the log, GET /graphs and the reconciler's passes list them.
    SortedMap<String, OmnigraphConfig.GraphConfig> configured = new TreeMap<>(settings.graphs());
    configured.forEach((id, g) -> g.uri().ifPresent(uri -> graphs.put(id, new ServedGraph(id,
        StorageConfig.fromEnvironment(uri), example && id.equals(DEFAULT_GRAPH), optimize, leases, readOnly))));
    if (graphs.isEmpty()) {
      settings.storage().uri().ifPresent(uri ->
          graphs.put(DEFAULT_GRAPH, new ServedGraph(DEFAULT_GRAPH, StorageConfig.fromEnvironment(uri), example,
              optimize, leases, readOnly)));
    }
    // Stored queries (docs/http-api.md, "Stored queries"): omnigraph.graphs.<id>.queries names the
    // graph's .gq files, comma-separated. Loaded only when HTTP is enabled (serve): a CLI command never
    // serves them, and must not fail because a server's catalog is broken or names a graph that only
    // the server's configuration defines. When serving, a key for a graph that is not served, or a file
    // that does not load, fails startup instead of serving a catalog that silently lacks queries.
    if (config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true)) {
      configured.forEach((id, graph) -> graph.queries().ifPresent(files -> {
        ServedGraph g = graphs.get(id);
        if (g == null) {
          throw new IllegalStateException("omnigraph.graphs." + id + ".queries names graph '" + id
              + "', which this server does not serve (serving: " + String.join(", ", graphs.keySet()) + ")");
        }
        g.storedQueries(dev.omnigraph.engine.StoredQueries.load(java.util.Arrays.stream(files.split(","))
            .map(String::trim).filter(f -> !f.isEmpty()).map(java.nio.file.Path::of).toList()));
      }));
    }
    // External Blob URIs (docs/schema-language.md, "Blob"): refused unless the graph lists bases; a bad
    // base fails startup naming its key. The example graph served without omnigraph.graphs.* has none.
    configured.forEach((id, graph) -> graph.blob().allow().ifPresent(bases -> {
      ServedGraph g = graphs.get(id);
      if (g == null) {
        throw new IllegalStateException("omnigraph.graphs." + id + ".blob.allow names graph '" + id
            + "', which this server does not serve (serving: " + String.join(", ", graphs.keySet()) + ")");
      }
      try {
        g.blobPolicy(dev.omnigraph.api.ExternalBlobPolicy.parse(bases));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("omnigraph.graphs." + id + ".blob.allow: " + e.getMessage(), e);
      }
    }));
    // Before any handle opens: every handle a graph serves requests with carries its gate.
    authorization.requireServed(graphs.keySet());
    graphs.values().forEach(g -> {
      g.gate(authorization.forGraph(g.id()));
      g.decidingGate(() -> gates().forGraph(g.id()));
    });
    graphs.values().forEach(g -> LOG.infof("serving graph %s at %s%s", g.id(), g.uri(),
        g.storedQueries().names().isEmpty() ? "" : " with stored queries " + String.join(", ",
            g.storedQueries().names())));
  }

  /** {@code omnigraph.lease.ttl} / {@code omnigraph.lease.renew-every}; a bad value fails startup naming its key. */
  private static dev.omnigraph.api.lease.LeaseSettings leaseSettings(OmnigraphConfig.Lease lease) {
    java.time.Duration ttl = dev.omnigraph.api.lease.LeaseSettings.parse("omnigraph.lease.ttl", lease.ttl().orElse(null),
        dev.omnigraph.api.lease.LeaseSettings.DEFAULT_TTL);
    return lease.renewEvery().isEmpty() ? dev.omnigraph.api.lease.LeaseSettings.ofTtl(ttl)
        : new dev.omnigraph.api.lease.LeaseSettings(ttl, dev.omnigraph.api.lease.LeaseSettings.parse(
            "omnigraph.lease.renew-every", lease.renewEvery().get(), null));
  }

  /**
   * The graph with this id.
   *
   * @throws NotFound when no graph of that id is configured
   */
  ServedGraph get(String id) {
    ServedGraph g = graphs.get(id);
    if (g == null) {
      throw new NotFound("graph", id, "this server serves " + String.join(", ", graphs.keySet()));
    }
    return g;
  }

  /** The gate of server-scoped actions ({@code GET /graphs}: {@code graph_list}). */
  dev.omnigraph.engine.policy.PolicyGate serverGate() {
    return gates().server();
  }

  /**
   * The gates a decision uses: inside a request, the snapshot the request pinned ({@link RequestGates});
   * outside one (the reconciler, startup), the gates in force.
   */
  private Authorization.Gates gates() {
    io.quarkus.arc.ArcContainer arc = io.quarkus.arc.Arc.container();
    if (requestGates != null && arc != null && arc.requestContext().isActive()) {
      return requestGates.pinned();
    }
    return authorization.current();
  }

  /** After a policy reload: every graph's handles carry the gate now in force (requests pin their own). */
  void regate() {
    graphs.values().forEach(g -> g.gate(authorization.forGraph(g.id())));
  }

  /** The startup line naming each graph's authorization state. */
  String describeAuthorization() {
    return authorization.describe(graphs.keySet());
  }

  /** The budgets of every read this service runs. */
  ReadSettings readSettings() {
    return readSettings;
  }

  /** Every served graph, sorted by id. */
  Collection<ServedGraph> all() {
    return Collections.unmodifiableCollection(graphs.values());
  }

  @PreDestroy
  void close() {
    graphs.values().forEach(ServedGraph::close);
  }
}
