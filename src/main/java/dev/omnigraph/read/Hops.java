package dev.omnigraph.read;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.query.Clause;
import dev.omnigraph.table.DataTables;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How one read resolves a traversal's hops: through the edge table's src/dst BTree when the
 * expansion is selective, else through the in-memory adjacency (CSR) of the table's exact version.
 * Decided per traversal as its rows arrive, since it depends on how many distinct origins there are.
 */
final class Hops {

  private final String root;
  private final DataTables tables;
  private final ManifestState state;
  private final AdjacencyCache adjacency;
  private final ReadBudget budget;

  Hops(String root, DataTables tables, ManifestState state, AdjacencyCache adjacency, ReadBudget budget) {
    this.root = root;
    this.tables = tables;
    this.state = state;
    this.adjacency = adjacency;
    this.budget = budget;
  }

  /**
   * System property forcing how traversal hops are resolved: {@code csr} (always the in-memory
   * adjacency), {@code indexed} (src/dst BTree probes until they outgrow
   * {@link ProbedAdjacency#MAX_PROBED}), {@code auto} (the default: probes for at most
   * {@link ProbedAdjacency#MAX_ORIGINS} distinct origins when the key indexes leave at most
   * {@link ProbedAdjacency#MAX_UNINDEXED_ROWS} rows uncovered and the CSR is not built yet, until the
   * probes over that table version have cost what building its CSR would: {@link AdjacencyCache#probedEnough}). Both
   * give the same rows; the reference's {@code OMNIGRAPH_TRAVERSAL_MODE}.
   */
  static final String TRAVERSAL_MODE = "omnigraph.traversal.mode";

  /** Per edge table key, the nodes this query probed through the src/dst index. */
  private final Map<TableKey, ProbedAdjacency> probed = new HashMap<>();

  /**
   * The nodes each origin of {@code rows} reaches, resolved from the edge table's src/dst BTree when
   * the expansion is selective (few distinct origins, no CSR built yet for that table version);
   * null to use the CSR. The key indexes cover the table except fragments written since it was last
   * optimized, which the probe scans, so the rows are the CSR's.
   */
  Map<String, List<String>> probedReach(List<String[]> rows, Clause.Traverse t, int from, boolean forward) {
    String mode = System.getProperty(TRAVERSAL_MODE, "auto");
    TablePin pin = state.tables().get(t.edge().tableKey());
    if (mode.equals("csr") || pin == null) {
      return null;
    }
    boolean forced = mode.equals("indexed");
    long generation = tables.cacheGeneration(pin.at());
    if (!forced && adjacency.contains(root, pin.at(), generation)) {
      return null; // a warm CSR answers without any read
    }
    Set<String> origins = new LinkedHashSet<>();
    for (String[] r : rows) {
      origins.add(r[from]);
    }
    if (!forced && (origins.size() > ProbedAdjacency.MAX_ORIGINS || !probeable(t, pin)
        || adjacency.probedEnough(root, pin.at(), generation))) {
      return null;
    }
    ProbedAdjacency p = probed.computeIfAbsent(t.edge().tableKey(), k -> new ProbedAdjacency(tables, pin));
    long started = System.nanoTime();
    Map<String, List<String>> reached = p.reach(origins, forward, t.undirected(), t.minHops(), t.maxHops());
    adjacency.probed(root, pin.at(), generation, () -> tables.countRows(pin.at()),
        System.nanoTime() - started);
    budget.checkTime();
    return reached;
  }

  /** Per edge table key, whether its src/dst key indexes cover enough rows for probes (decided once). */
  private final Map<TableKey, Boolean> probeable = new HashMap<>();

  /**
   * Whether the key indexes a traversal's hops would probe leave at most
   * {@link ProbedAdjacency#MAX_UNINDEXED_ROWS} rows to scan (the manifest says; no data read).
   */
  private boolean probeable(Clause.Traverse t, TablePin pin) {
    return probeable.computeIfAbsent(t.edge().tableKey(), k -> {
      long outside = 0;
      for (String column : List.of("src", "dst")) {
        outside = Math.max(outside, tables.statistics().rowsOutsideKeyIndex(pin.at(), column));
      }
      return outside <= ProbedAdjacency.MAX_UNINDEXED_ROWS;
    });
  }

  Adjacency adjacencyOf(Clause.Traverse t) {
    TablePin pin = state.tables().get(t.edge().tableKey());
    if (pin == null) {
      return new Adjacency.Builder().build();
    }
    return adjacency.get(root, tables, pin.at());
  }
}
