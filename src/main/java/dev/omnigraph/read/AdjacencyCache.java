package dev.omnigraph.read;

import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.TableAt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Adjacency indexes keyed by the exact edge-table version they were built from (root, dataset path,
 * native branch, version). A version never changes content, so an entry is never stale: a write
 * produces a new version and therefore a new key; old keys simply age out. Bounded LRU by total
 * edges held, never by time.
 */
public final class AdjacencyCache {

  /** Edges held across all entries before the least recently used are evicted. */
  static final long MAX_EDGES = 16_000_000L;

  record Key(String root, String location, Optional<String> nativeBranch, long version) {}

  private final LinkedHashMap<Key, Adjacency> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long edges;

  /** Whether the adjacency of the edge table at exactly this version is built (a warm entry). */
  synchronized boolean contains(String root, String location, Optional<String> nativeBranch, long version) {
    return entries.containsKey(new Key(root, location, nativeBranch, version));
  }

  /** The adjacency of the edge table at exactly this version, built (one src/dst scan) on a miss. */
  Adjacency get(String root, DataTables tables, String location, Optional<String> nativeBranch, long version) {
    Key key = new Key(root, location, nativeBranch, version);
    synchronized (this) {
      Adjacency hit = entries.get(key);
      if (hit != null) {
        return hit;
      }
    }
    Adjacency.Builder builder = new Adjacency.Builder();
    tables.scan(TableAt.of(location, nativeBranch, version), Filter.TRUE, List.of("src", "dst"), row -> builder.add((String) row.get("src"), (String) row.get("dst")));
    Adjacency built = builder.build();
    synchronized (this) {
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
