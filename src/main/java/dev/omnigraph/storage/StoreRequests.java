package dev.omnigraph.storage;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of object-store work, by operation and by what it addressed (the request accounting of
 * docs/write-path.md, "what a write costs"; the service exposes them as {@code omnigraph_store_requests_total{op,kind}}
 * and {@code omnigraph_store_bytes_total{op,kind}}).
 *
 * <p>{@code get}/{@code put}/{@code list}/{@code delete}/{@code head} are requests of the
 * {@link StorageAdapter} (sidecars, schema files, claims): one each. Lance's own I/O does not pass
 * through the adapter, so the Lance boundary counts its operations instead ({@code lance_open},
 * {@code lance_scan}, {@code lance_commit}): each costs one or more requests (a commit: a listing,
 * a transaction file and a manifest). The test S3 front counts every request exactly.
 */
public final class StoreRequests {

  /** What was done. */
  public enum Op {
    GET, PUT, LIST, DELETE, HEAD, LANCE_OPEN, LANCE_SCAN, LANCE_COMMIT;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** What it addressed. */
  public enum Kind {
    MANIFEST, TABLE, SIDECAR, SCHEMA, AUDIT, OTHER,
    /**
     * An external Blob source outside the graph root ({@code s3://} or {@code http(s)://}): a keyed
     * write's size probe (a HEAD) and its payload read (a GET), docs/schema-language.md "Blob".
     */
    EXTERNAL;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The kind of a key under the graph root. */
    public static Kind ofKey(String key) {
      if (key == null) {
        return OTHER; // the adapter refuses it with its own typed error
      }
      String k = key.startsWith("/") ? key.substring(1) : key;
      if (k.startsWith("__recovery")) {
        return SIDECAR;
      }
      if (k.startsWith("__manifest")) {
        return MANIFEST;
      }
      if (k.startsWith("nodes/") || k.startsWith("edges/")) {
        return TABLE;
      }
      if (k.startsWith("_schema") || k.startsWith("__schema") || k.startsWith("__init_claim")) {
        return SCHEMA;
      }
      if (k.startsWith("_graph_commit_recoveries")) {
        return AUDIT;
      }
      return OTHER;
    }
  }

  private static final Map<Op, Map<Kind, LongAdder[]>> COUNTS = new EnumMap<>(Op.class);

  static {
    for (Op op : Op.values()) {
      Map<Kind, LongAdder[]> byKind = new EnumMap<>(Kind.class);
      for (Kind kind : Kind.values()) {
        byKind.put(kind, new LongAdder[] {new LongAdder(), new LongAdder()});
      }
      COUNTS.put(op, byKind);
    }
  }

  private StoreRequests() {}

  /** Counts one {@code op} on {@code kind} moving {@code bytes} (0 when none or unknown). */
  public static void record(Op op, Kind kind, long bytes) {
    LongAdder[] c = COUNTS.get(op).get(kind);
    c[0].increment();
    if (bytes > 0) {
      c[1].add(bytes);
    }
  }

  /** Requests (or Lance operations) so far. */
  public static long count(Op op, Kind kind) {
    return COUNTS.get(op).get(kind)[0].sum();
  }

  /** Bytes moved so far. */
  public static long bytes(Op op, Kind kind) {
    return COUNTS.get(op).get(kind)[1].sum();
  }
}
