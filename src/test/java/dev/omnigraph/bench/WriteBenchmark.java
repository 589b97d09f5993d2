package dev.omnigraph.bench;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.schema.KeyIds;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.TableSchemas;
import dev.omnigraph.testing.TestFiles;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.WriteParams;
import org.lance.operation.Append;

/**
 * Write-path benchmark (issue 4, "Benchmark"): single-row insert latency, an 8,192-row append load
 * against raw lance-java doing the same append, and the peak RSS of each. A plain {@code main}, run
 * on demand by the {@code bench} Maven profile and never by CI: the figures are reported, not gated.
 *
 * <p>Usage: {@code WriteBenchmark [outputDir]} (default {@code target/bench}). The child modes
 * {@code --child omnigraph|raw} are how the parent measures peak RSS in a clean process.
 */
public final class WriteBenchmark {

  private static final int WARMUP_LOADS = 10;
  private static final int SINGLE_ROW_LOADS = 50;
  private static final int BULK_ROWS = 8_192;
  private static final int BULK_REPETITIONS = 3;
  private static final String PERSON = "Person";

  private WriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--child")) {
      runChild(args[1]);
      return;
    }
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    String schema = peopleSchema();

    double[] single = singleRowLatencies(schema);
    double[] graphBulk = new double[BULK_REPETITIONS];
    double[] rawBulk = new double[BULK_REPETITIONS];
    // One discarded round of each first: the first raw append otherwise pays for loading Lance's
    // write classes and JNI paths that the omnigraph path has already warmed, skewing the ratio.
    omnigraphBulkMillis(schema);
    rawBulkMillis(schema);
    // Interleaved so that any drift in the machine's state (page cache, CPU frequency) hits both.
    for (int i = 0; i < BULK_REPETITIONS; i++) {
      graphBulk[i] = omnigraphBulkMillis(schema);
      rawBulk[i] = rawBulkMillis(schema);
    }
    long graphRssKb = childPeakRssKb("omnigraph");
    long rawRssKb = childPeakRssKb("raw");

    Arrays.sort(single);
    double graphMedian = median(graphBulk);
    double rawMedian = median(rawBulk);
    String table = String.join("\n",
        "OmniGraph write benchmark (local FS, " + Runtime.getRuntime().availableProcessors() + " cpus, java "
            + System.getProperty("java.version") + ")",
        String.format(Locale.ROOT, "single-row append load (n=%d, after %d warm-up): median %.1f ms, p90 %.1f ms, max %.1f ms",
            SINGLE_ROW_LOADS, WARMUP_LOADS, percentile(single, 0.5), percentile(single, 0.9), single[single.length - 1]),
        String.format(Locale.ROOT, "%,d-row append (median of %d): omnigraph %.1f ms, raw lance %.1f ms, ratio %.2fx",
            BULK_ROWS, BULK_REPETITIONS, graphMedian, rawMedian, graphMedian / rawMedian),
        String.format(Locale.ROOT, "  runs omnigraph %s ms; raw lance %s ms", fmt(graphBulk), fmt(rawBulk)),
        String.format(Locale.ROOT, "peak RSS (VmHWM, child JVM, one %,d-row append): omnigraph %d MiB, raw lance %d MiB, ratio %.2fx",
            BULK_ROWS, graphRssKb / 1024, rawRssKb / 1024, (double) graphRssKb / rawRssKb));
    System.out.println(table);

    String json = String.format(Locale.ROOT, """
        {
          "cpus": %d,
          "javaVersion": "%s",
          "singleRow": {"loads": %d, "warmup": %d, "medianMs": %.3f, "p90Ms": %.3f, "maxMs": %.3f},
          "bulkAppend": {"rows": %d, "repetitions": %d, "omnigraphMedianMs": %.3f, "rawLanceMedianMs": %.3f, "ratio": %.3f,
                         "omnigraphRunsMs": [%s], "rawLanceRunsMs": [%s]},
          "peakRss": {"omnigraphKb": %d, "rawLanceKb": %d, "ratio": %.3f}
        }
        """,
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        SINGLE_ROW_LOADS, WARMUP_LOADS, percentile(single, 0.5), percentile(single, 0.9), single[single.length - 1],
        BULK_ROWS, BULK_REPETITIONS, graphMedian, rawMedian, graphMedian / rawMedian,
        fmt(graphBulk), fmt(rawBulk),
        graphRssKb, rawRssKb, (double) graphRssKb / rawRssKb);
    Files.createDirectories(out);
    Files.writeString(out.resolve("write-benchmark.json"), json);
    System.out.println("written " + out.resolve("write-benchmark.json"));
  }

  /** (a) Sequential single-row append loads on one graph; returns per-load latencies in ms. */
  private static double[] singleRowLatencies(String schema) throws IOException {
    Path dir = Files.createTempDirectory("omnigraph-bench-single");
    try (Omnigraph graph = Omnigraph.init(StorageConfig.local(dir), schema, Optional.of("bench"))) {
      for (int i = 0; i < WARMUP_LOADS; i++) {
        load(graph, personLine("warm" + i, i));
      }
      double[] millis = new double[SINGLE_ROW_LOADS];
      for (int i = 0; i < SINGLE_ROW_LOADS; i++) {
        String line = personLine("p" + i, i);
        long start = System.nanoTime();
        load(graph, line);
        millis[i] = (System.nanoTime() - start) / 1e6;
      }
      return millis;
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /**
   * (b) One 8,192-row append load into a fresh graph. Only the load is timed: init creates the
   * tables and is not part of the write path being compared. The NDJSON text is built beforehand,
   * so the time covers parsing, validation, the key-absence probe, staging, commit and publish.
   */
  private static double omnigraphBulkMillis(String schema) throws IOException {
    Path dir = Files.createTempDirectory("omnigraph-bench-bulk");
    try (Omnigraph graph = Omnigraph.init(StorageConfig.local(dir), schema, Optional.of("bench"))) {
      StringBuilder ndjson = new StringBuilder(BULK_ROWS * 48);
      for (int i = 0; i < BULK_ROWS; i++) {
        ndjson.append(personLine(name(i), age(i))).append('\n');
      }
      String text = ndjson.toString();
      long start = System.nanoTime();
      WriteResult result = load(graph, text);
      double millis = (System.nanoTime() - start) / 1e6;
      long written = result.rowCounts().values().stream().mapToLong(Long::longValue).sum();
      if (written != BULK_ROWS) {
        throw new IllegalStateException("expected " + BULK_ROWS + " rows written, got " + result.rowCounts());
      }
      return millis;
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /**
   * (b) Raw lance-java doing the same work: an empty dataset with the Person table's Arrow schema
   * and stable row ids (as the engine creates its tables), then the same rows written as fragments
   * and committed as one {@code Append}. Creating the dataset and building the Arrow batch are not
   * timed; the fragment write and the commit are.
   */
  private static double rawBulkMillis(String schema) throws IOException {
    Path dir = Files.createTempDirectory("omnigraph-bench-raw");
    NodeType person = personType(schema);
    Schema arrow = TableSchemas.node(person);
    String uri = dir.resolve("person.lance").toString();
    try (BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
        Dataset empty = Dataset.write()
            .allocator(allocator)
            .uri(uri)
            .schema(arrow)
            .mode(WriteParams.WriteMode.CREATE)
            .enableStableRowIds(true)
            .execute();
        VectorSchemaRoot rows = personBatch(person, arrow, allocator)) {
      long start = System.nanoTime();
      List<FragmentMetadata> fragments = Fragment.write()
          .datasetUri(empty.uri())
          .allocator(allocator)
          .data(rows)
          .execute();
      try (Transaction tx = new Transaction.Builder()
              .readVersion(empty.version())
              .operation(Append.builder().fragments(fragments).build())
              .build();
          Dataset committed = new CommitBuilder(empty).execute(tx)) {
        double millis = (System.nanoTime() - start) / 1e6;
        if (committed.countRows() != BULK_ROWS) {
          throw new IllegalStateException("expected " + BULK_ROWS + " rows, got " + committed.countRows());
        }
        return millis;
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /** The same rows the omnigraph load writes: id from the key, age set, email null. */
  private static VectorSchemaRoot personBatch(NodeType person, Schema arrow, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(arrow, allocator);
    VarCharVector id = (VarCharVector) root.getVector("id");
    IntVector age = (IntVector) root.getVector("age");
    VarCharVector email = (VarCharVector) root.getVector("email");
    VarCharVector name = (VarCharVector) root.getVector("name");
    root.allocateNew();
    for (int i = 0; i < BULK_ROWS; i++) {
      String n = name(i);
      id.setSafe(i, KeyIds.nodeId(person, Map.of("name", n)).getBytes(StandardCharsets.UTF_8));
      age.setSafe(i, age(i));
      email.setNull(i);
      name.setSafe(i, n.getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(BULK_ROWS);
    return root;
  }

  /**
   * (c) Runs one bulk append in a child JVM and reads its high-water RSS. A separate process per
   * side, because VmHWM never goes down: measured in this JVM it would only show the larger of
   * everything run so far.
   */
  private static long childPeakRssKb(String mode) throws IOException, InterruptedException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java,
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        WriteBenchmark.class.getName(), "--child", mode);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    long kb = -1;
    List<String> output = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        output.add(line);
        if (line.startsWith("VmHWM-kB=")) {
          kb = Long.parseLong(line.substring("VmHWM-kB=".length()));
        }
      }
    }
    int rc = p.waitFor();
    if (rc != 0 || kb < 0) {
      throw new IllegalStateException("child " + mode + " failed (exit " + rc + "):\n" + String.join("\n", output));
    }
    return kb;
  }

  private static void runChild(String mode) throws IOException {
    String schema = peopleSchema();
    switch (mode) {
      case "omnigraph" -> omnigraphBulkMillis(schema);
      case "raw" -> rawBulkMillis(schema);
      default -> throw new IllegalArgumentException("unknown child mode " + mode);
    }
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        System.out.println("VmHWM-kB=" + line.substring("VmHWM:".length()).replace("kB", "").trim());
      }
    }
  }

  private static WriteResult load(Omnigraph graph, String ndjson) {
    return graph.load("main", new StringReader(ndjson), LoadMode.APPEND, Optional.empty());
  }

  private static String personLine(String name, int age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":" + age + "}}";
  }

  private static String name(int i) {
    return "person-" + i;
  }

  private static int age(int i) {
    return i % 100;
  }

  private static NodeType personType(String schema) {
    return SchemaParser.parse(schema).node(PERSON).orElseThrow();
  }

  private static String peopleSchema() throws IOException {
    try (InputStream in = WriteBenchmark.class.getResourceAsStream("/graphs/people.pg")) {
      if (in == null) {
        throw new IllegalStateException("graphs/people.pg not on the class path (run with the test class path)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return percentile(sorted, 0.5);
  }

  /** Nearest-rank percentile of an already sorted array. */
  private static double percentile(double[] sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static String fmt(double[] values) {
    return String.join(", ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
  }
}
