package dev.omnigraph.merge;

import dev.omnigraph.table.StoredBlob;
import java.util.Map;
import java.util.Objects;

/** Row equality as the merge judges it: same columns, each value deeply equal (vectors are arrays). */
public final class Rows {

  private Rows() {}

  public static boolean same(Map<String, Object> a, Map<String, Object> b) {
    return same(a, b, null);
  }

  /**
   * How two committed Blob cells of one entity compare. A cell's description (position, size)
   * locates its bytes only within its own data file, so equal descriptions in two snapshots do not
   * prove equal bytes (a same-size rewrite in a new file can have the very same description).
   */
  public interface BlobMatch {
    boolean same(String column, StoredBlob a, StoredBlob b);
  }

  /**
   * As {@link #same(Map, Map)}, with committed Blob cells compared by {@code blobs} (when not null),
   * only once every other column is equal: a Blob match may read bytes.
   */
  public static boolean same(Map<String, Object> a, Map<String, Object> b, BlobMatch blobs) {
    if (a == null || b == null) {
      return a == b;
    }
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    boolean anyBlob = false;
    for (Map.Entry<String, Object> e : a.entrySet()) {
      if (blobs != null && e.getValue() instanceof StoredBlob && b.get(e.getKey()) instanceof StoredBlob) {
        anyBlob = true;
      } else if (!Objects.deepEquals(e.getValue(), b.get(e.getKey()))) {
        return false;
      }
    }
    if (anyBlob) {
      for (Map.Entry<String, Object> e : a.entrySet()) {
        if (e.getValue() instanceof StoredBlob x && b.get(e.getKey()) instanceof StoredBlob y
            && !blobs.same(e.getKey(), x, y)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * A conservative estimate of a row's Arrow size, for chunk boundaries fixed before any stage:
   * strings and vectors by content, every other value at 8 bytes, plus per-column validity and
   * offsets.
   */
  public static long estimatedBytes(Map<String, Object> row) {
    long bytes = 0;
    for (Object v : row.values()) {
      bytes += estimatedBytes(v);
    }
    return bytes;
  }

  /** One value's share of {@link #estimatedBytes(Map)} (a null: its validity and offset). */
  public static long estimatedBytes(Object v) {
    long bytes = 9;
    if (v instanceof String s) {
      bytes += 4L + 3L * s.length(); // UTF-8 worst case, offset
    } else if (v instanceof float[] f) {
      bytes += 4L * f.length;
    } else if (v instanceof java.util.List<?> l) {
      bytes += 4L + 16L * l.size();
    }
    return bytes;
  }
}
