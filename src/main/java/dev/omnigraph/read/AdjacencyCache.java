package dev.omnigraph.read;

import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.TableAt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adjacency indexes keyed by the exact edge-table version they were built from (root, dataset path,
 * native branch, version) and the table layer's forget generation of that dataset branch
 * ({@link DataTables#cacheGeneration}). A version never changes content while its branch lives: a
 * write produces a new version and therefore a new key, and old keys simply age out. A branch deleted
 * and created again reuses its name and version numbers for other contents; the generation moves
 * then, so nothing built from the old branch is found (docs/maintenance.md, "Branch names, deleted and used again").
 * Bounded LRU by total edges held, never by time.
 */
public final class AdjacencyCache {

  /** Edges held across all entries before the least recently used are evicted. */
  static final long MAX_EDGES = 16_000_000L;

  /**
   * An edge table version of one graph root (a table location is relative to its root), under the
   * dataset branch's forget generation.
   */
  record Key(String root, TableAt at, long generation) {}

  private final LinkedHashMap<Key, Adjacency> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long edges;

  /**
   * What building the adjacency costs per edge (the src/dst scan and the CSR), measured: 100,000
   * edges built in about 100 ms here (docs/performance.md, "Hops: probe or build").
   */
  static final long BUILD_NANOS_PER_EDGE = 1_000;

  /** Versions whose probe time is tracked before they are built, least recently probed dropped first. */
  static final int MAX_PROBING = 256;

  /**
   * Per edge-table version not built yet, the nanoseconds its index probes have taken so far, and its
   * edge count. Ski rental: a version's traversals probe the src/dst index until their probes have
   * cost what building its adjacency would, then build it, so the repeated hops over one version
   * (the same read asked again) cost at most twice the better of the two, whatever the workload.
   */
  private final LinkedHashMap<Key, long[]> probing = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * Whether the traversals over exactly this version have probed the src/dst index for as long as
   * building its adjacency would take ({@code edges} edges at {@link #BUILD_NANOS_PER_EDGE}), so the
   * next traversal should build it instead of probing again.
   */
  synchronized boolean probedEnough(String root, TableAt at, long generation) {
    long[] spent = probing.get(new Key(root, at, generation));
    return spent != null && spent[0] >= spent[1] * BUILD_NANOS_PER_EDGE;
  }

  /** Records {@code nanos} of index probes over exactly this version ({@code edges} counted once per version). */
  synchronized void probed(String root, TableAt at, long generation, java.util.function.LongSupplier edges,
      long nanos) {
    long[] spent = probing.computeIfAbsent(new Key(root, at, generation),
        k -> new long[] {0, edges.getAsLong()});
    spent[0] += nanos;
    if (probing.size() > MAX_PROBING) {
      var eldest = probing.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
  }

  /** Whether the adjacency of the edge table at exactly this version is built (a warm entry). */
  synchronized boolean contains(String root, TableAt at, long generation) {
    return entries.containsKey(new Key(root, at, generation));
  }

  /** The adjacency of the edge table at exactly this version, built (one src/dst scan) on a miss. */
  Adjacency get(String root, DataTables tables, TableAt at) {
    // Read before the scan: a forget racing the build moves it on, and the stale build lands under
    // a key no later lookup asks for.
    Key key = new Key(root, at, tables.cacheGeneration(at));
    synchronized (this) {
      Adjacency hit = entries.get(key);
      if (hit != null) {
        return hit;
      }
    }
    Adjacency.Builder builder = new Adjacency.Builder();
    tables.scan(at, Filter.TRUE, List.of("src", "dst"), row -> builder.add((String) row.get("src"), (String) row.get("dst")));
    Adjacency built = builder.build();
    synchronized (this) {
      probing.remove(key);
      Adjacency raced = entries.putIfAbsent(key, built);
      if (raced != null) {
        return raced;
      }
      edges += built.edgeCount();
      var it = entries.entrySet().iterator();
      while (edges > MAX_EDGES && it.hasNext()) {
        Map.Entry<Key, Adjacency> eldest = it.next();
        if (eldest.getKey().equals(key)) {
          continue;
        }
        edges -= eldest.getValue().edgeCount();
        it.remove();
      }
      return built;
    }
  }
}
