package dev.omnigraph.bench;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.ScoredRow;
import dev.omnigraph.table.TableSchemas;
import dev.omnigraph.table.TableStore;
import dev.omnigraph.table.TestIndexes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Index-backed read figures (issue 16), reported and not gated, on the local file system through the
 * table layer the query executor uses ({@code DataTables.scan} with a pushed filter,
 * {@code TableSearch.nearest}):
 *
 * <ul>
 *   <li>equality lookup of one key on a table of {@code omnigraph.bench.lookupRows} (1,000,000)
 *       rows in 10 fragments, without and with a BTree index on the key column, through the table
 *       layer and through lance-java alone, taking turns key by key: p50 of 100 random keys, the
 *       scans after 50 warm-up keys, the indexed lookups once right after open and once after 1,000
 *       warm-up keys (the BTree pages a serving process keeps cached);
 *   <li>{@code nearest} top-10 over {@code omnigraph.bench.vectorRows} (100,000) 128-d vectors
 *       drawn around 256 centres, flat (exact) vs a cosine IVF_FLAT index of
 *       {@code omnigraph.bench.partitions} (256) partitions: p50 of 50 queries and recall@10 of the
 *       index against the exact answer;
 *   <li>single-row write latency after {@code omnigraph.bench.writes} (1,000) writes, before vs
 *       after {@code optimize} ({@link OptimizeWriteLatencyBenchmark}, also runnable alone).
 * </ul>
 *
 * Run with {@code ./mvnw -B -o -Pbench -DskipTests process-test-classes exec:exec@search-benchmark}
 * (results in {@code target/bench/search.txt}).
 */
public final class SearchBenchmark {

  static final int LOOKUPS = 100;
  static final int WARMUP = 50;
  static final int WARM_CACHE = 1_000;
  static final int QUERIES = 50;
  static final int DIM = 128;
  static final int K = 10;

  private SearchBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    Files.createDirectories(out);
    int lookupRows = Integer.getInteger("omnigraph.bench.lookupRows", 1_000_000);
    int vectorRows = Integer.getInteger("omnigraph.bench.vectorRows", 100_000);
    int partitions = Integer.getInteger("omnigraph.bench.partitions", 256);
    List<String> report = new ArrayList<>();
    report.add("OmniGraph search benchmark (local FS, " + Runtime.getRuntime().availableProcessors() + " cpus, java "
        + System.getProperty("java.version") + ")");
    report.addAll(lookup(Files.createTempDirectory("search-bench-lookup"), lookupRows));
    report.addAll(vectors(Files.createTempDirectory("search-bench-vectors"), vectorRows, partitions));
    // Issue 16's third figure in the same run: single-row write latency after 1,000 writes, before vs after optimize.
    report.add(OptimizeWriteLatencyBenchmark.run(Integer.getInteger("omnigraph.bench.writes", 1000)).stripTrailing());
    String text = String.join("\n", report) + "\n";
    System.out.print(text);
    Files.writeString(out.resolve("search.txt"), text);
  }

  // --- equality lookup ------------------------------------------------------------------------

  static List<String> lookup(Path dir, int rows) throws Exception {
    StorageConfig config = StorageConfig.local(dir);
    DataTables tables = new DataTables(config);
    String loc = "nodes/00000000000000f1-0000000000000001";
    Schema schema = new Schema(List.of(
        new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
            Map.of(TableSchemas.PRIMARY_KEY, "true")), null),
        new Field("k", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("v", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    long t0 = System.nanoTime();
    long version = new TableStore(config).createEmpty(loc, schema);
    int chunk = Math.max(1, rows / 10);
    for (int start = 0; start < rows; start += chunk) {
      List<Map<String, Object>> batch = new ArrayList<>();
      for (int i = start; i < Math.min(rows, start + chunk); i++) {
        Map<String, Object> r = new HashMap<>();
        r.put("id", "r" + i);
        r.put("k", key(i));
        r.put("v", (long) i);
        batch.add(r);
      }
      version = commit(tables, tables.staging().stageInsert(loc, Optional.empty(), version, schema, batch, false));
    }
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    long unindexed = version;
    long t1 = System.nanoTime();
    long indexed = TestIndexes.build(config, loc, Optional.empty(), "k", TestIndexes.Kind.BTREE);
    double buildSeconds = (System.nanoTime() - t1) / 1e9;
    Random random = new Random(16);
    // Ours and raw take turns key by key, so a load change on the machine hits both alike; the index
    // modes run one after the other, each in its own steady state (a full scan between two indexed
    // lookups leaves Lance's threads and the CPU caches busy and doubles the lookup). Indexed lookups
    // are reported twice: the first ones after open (BTree pages read on demand) and after 1,000
    // more (the pages a serving process keeps in Lance's index cache).
    double[][] without;
    double[][] cold;
    double[][] warm;
    try (RawLookup rawUnindexed = new RawLookup(dir.resolve(loc), unindexed);
        RawLookup rawIndexed = new RawLookup(dir.resolve(loc), indexed)) {
      List<Lookup> scans = List.of(k -> ours(tables, loc, unindexed, k), rawUnindexed::find);
      List<Lookup> lookups = List.of(k -> ours(tables, loc, indexed, k), rawIndexed::find);
      without = measure(scans, random, rows, WARMUP, LOOKUPS);
      cold = measure(lookups, random, rows, 0, LOOKUPS);
      warm = measure(lookups, random, rows, WARM_CACHE, LOOKUPS);
    }
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, "equality lookup by key, %,d rows in 10 fragments (loaded in %.1f s; BTree built"
        + " in %.1f s), p50 of %d random keys each, ours (the table layer) and raw lance-java (one held Dataset per"
        + " version, the same filter, columns and batch size) taking turns key by key:", rows, loadSeconds,
        buildSeconds, LOOKUPS));
    out.add(String.format(Locale.ROOT, "  without BTree (after %d warm-up keys): ours %.2f ms, raw %.2f ms", WARMUP,
        median(without[0]), median(without[1])));
    for (Object[] mode : new Object[][] {{"first lookups after open", cold}, {"after " + WARM_CACHE
        + " warm-up keys", warm}}) {
      double[][] with = (double[][]) mode[1];
      out.add(String.format(Locale.ROOT, "  with BTree, %s: ours %.2f ms, raw %.2f ms; speedup ours %.1fx, raw %.1fx"
          + " (target >= 20x); ours/raw %.2fx", mode[0], median(with[0]), median(with[1]),
          median(without[0]) / median(with[0]), median(without[1]) / median(with[1]),
          median(with[0]) / median(with[1])));
    }
    return out;
  }

  /** The lookup times (ms) of each way, taking turns over {@code measured} random keys after {@code warm}. */
  static double[][] measure(List<Lookup> ways, Random random, int rows, int warm, int measured) throws Exception {
    double[][] ms = new double[ways.size()][measured];
    int[] keys = random.ints(warm + measured, 0, rows).toArray();
    for (int n = 0; n < keys.length; n++) {
      for (int w = 0; w < ways.size(); w++) {
        long t = System.nanoTime();
        List<Object> found = ways.get(w).find(key(keys[n]));
        double elapsed = (System.nanoTime() - t) / 1e6;
        if (!found.equals(List.of("r" + keys[n]))) {
          throw new IllegalStateException("lookup " + w + " of " + key(keys[n]) + " found " + found);
        }
        if (n >= warm) {
          ms[w][n - warm] = elapsed;
        }
      }
    }
    return ms;
  }

  @FunctionalInterface
  interface Lookup {
    List<Object> find(String key) throws Exception;
  }

  /** The lookup as the query executor makes it: a pushed equality filter through the table layer. */
  static List<Object> ours(DataTables tables, String loc, long version, String key) {
    List<Object> found = new ArrayList<>();
    tables.scan(loc, Optional.empty(), version, Filter.eq("k", key), List.of("id", "k"), r -> found.add(r.get("id")));
    return found;
  }

  /**
   * The same lookup through lance-java alone: one {@code Dataset} of exactly {@code version} opened
   * once and held, a {@code LanceScanner} per key with the same filter, columns and batch size.
   */
  static final class RawLookup implements AutoCloseable {
    private final org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
    private final org.lance.Dataset ds;

    RawLookup(Path table, long version) {
      ds = org.lance.Dataset.open(allocator, table.toString(),
          new org.lance.ReadOptions.Builder().setVersion(version).build());
    }

    List<Object> find(String key) throws Exception {
      List<Object> found = new ArrayList<>();
      org.lance.ipc.ScanOptions options = new org.lance.ipc.ScanOptions.Builder().batchSize(8192)
          .filter("k = '" + key + "'").columns(List.of("id", "k")).build();
      try (org.lance.ipc.LanceScanner scanner = org.lance.ipc.LanceScanner.create(ds, options, allocator);
          org.apache.arrow.vector.ipc.ArrowReader reader = scanner.scanBatches()) {
        org.apache.arrow.vector.VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        while (reader.loadNextBatch()) {
          var ids = (org.apache.arrow.vector.VarCharVector) batch.getVector("id");
          for (int i = 0; i < batch.getRowCount(); i++) {
            found.add(new String(ids.get(i), java.nio.charset.StandardCharsets.UTF_8));
          }
        }
      }
      return found;
    }

    @Override
    public void close() {
      ds.close();
      allocator.close();
    }
  }

  static String key(int i) {
    return String.format(Locale.ROOT, "k%08d", i);
  }

  // --- nearest --------------------------------------------------------------------------------

  static List<String> vectors(Path dir, int rows, int partitions) {
    StorageConfig config = StorageConfig.local(dir);
    DataTables tables = new DataTables(config);
    String loc = "nodes/00000000000000f2-0000000000000001";
    Schema schema = new Schema(List.of(
        new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
            Map.of(TableSchemas.PRIMARY_KEY, "true")), null),
        // As TableSchemas spells a Vector(128)? property.
        new Field("vec", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(new Field("item",
            FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
    Random random = new Random(128);
    float[][] centres = new float[256][DIM];
    for (float[] c : centres) {
      for (int d = 0; d < DIM; d++) {
        c[d] = (float) random.nextGaussian();
      }
    }
    long t0 = System.nanoTime();
    long version = new TableStore(config).createEmpty(loc, schema);
    int chunk = Math.max(1, rows / 10);
    for (int start = 0; start < rows; start += chunk) {
      List<Map<String, Object>> batch = new ArrayList<>();
      for (int i = start; i < Math.min(rows, start + chunk); i++) {
        Map<String, Object> r = new HashMap<>();
        r.put("id", "v" + i);
        r.put("vec", around(centres[random.nextInt(centres.length)], random));
        batch.add(r);
      }
      version = commit(tables, tables.staging().stageInsert(loc, Optional.empty(), version, schema, batch, false));
    }
    double loadSeconds = (System.nanoTime() - t0) / 1e9;
    float[][] queries = new float[QUERIES][];
    for (int q = 0; q < QUERIES; q++) {
      queries[q] = around(centres[random.nextInt(centres.length)], random);
    }
    double[] flatMs = new double[QUERIES];
    List<Set<Object>> exact = new ArrayList<>();
    for (int q = 0; q < QUERIES; q++) {
      long t = System.nanoTime();
      List<ScoredRow> top = tables.search().nearest(loc, Optional.empty(), version, "vec", queries[q], K, Filter.TRUE,
          List.of("id"));
      flatMs[q] = (System.nanoTime() - t) / 1e6;
      exact.add(ids(top));
    }
    long t1 = System.nanoTime();
    version = TestIndexes.build(config, loc, Optional.empty(), "vec", TestIndexes.Kind.VECTOR, partitions);
    double buildSeconds = (System.nanoTime() - t1) / 1e9;
    double[] annMs = new double[QUERIES];
    double recall = 0;
    for (int q = 0; q < QUERIES; q++) {
      long t = System.nanoTime();
      List<ScoredRow> top = tables.search().nearest(loc, Optional.empty(), version, "vec", queries[q], K, Filter.TRUE,
          List.of("id"));
      annMs[q] = (System.nanoTime() - t) / 1e6;
      Set<Object> found = ids(top);
      found.retainAll(exact.get(q));
      recall += found.size() / (double) K;
    }
    recall /= QUERIES;
    return List.of(
        String.format(Locale.ROOT, "nearest top-%d, %,d vectors of %d dimensions (loaded in %.1f s):", K, rows, DIM,
            loadSeconds),
        String.format(Locale.ROOT, "  brute force (flat, exact): p50 %.2f ms over %d queries", median(flatMs), QUERIES),
        String.format(Locale.ROOT, "  IVF_FLAT cosine, %d partitions: p50 %.2f ms (index built in %.1f s)", partitions,
            median(annMs), buildSeconds),
        String.format(Locale.ROOT, "  recall@%d of the index: %.3f (target >= 0.9)", K, recall));
  }

  static float[] around(float[] centre, Random random) {
    float[] v = new float[DIM];
    for (int d = 0; d < DIM; d++) {
      v[d] = centre[d] + (float) (random.nextGaussian() * 0.3);
    }
    return v;
  }

  static Set<Object> ids(List<ScoredRow> rows) {
    Set<Object> out = new HashSet<>();
    rows.forEach(r -> out.add(r.row().get("id")));
    return out;
  }

  static long commit(DataTables tables, dev.omnigraph.table.StagedWrite staged) {
    CommitOutcome outcome = tables.commit(staged);
    if (outcome.kind() != CommitOutcome.Kind.LANDED) {
      throw new IllegalStateException(outcome.detail());
    }
    return outcome.version();
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
