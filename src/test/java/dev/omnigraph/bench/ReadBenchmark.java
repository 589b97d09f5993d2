package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.Filter;
import dev.omnigraph.api.LoadMode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Read benchmark (issue 6): a two-hop traversal over a generated graph of 100,000 Person nodes and
 * 1,000,000 Knows edges (10 random out-edges each, fixed seed), on the local file system.
 * Reports the cold query (adjacency index built from the edge table), the warm median, peak RSS of
 * the querying JVM, and the same two-hop computed with raw lance-java (two filtered scans of the
 * edge table) measured in the same run. Run with {@code ./mvnw -B -Pbench -DskipTests test}
 * (results in {@code target/bench/read.txt}); not part of CI.
 */
public final class ReadBenchmark {

  static final int NODES = 100_000;
  static final int OUT_DEGREE = 10;
  static final int WARM_RUNS = 20;
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;
  static final String QUERY = """
      query two_hop($name: String) {
        match { $p: Person { name: $name }  $p knows{2,2} $f }
        return { count($f) as n }
      }
      """;

  private ReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--child")) {
      runQueries(Path.of(args[1]));
      return;
    }
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    Files.createDirectories(out);
    Path root = Files.createTempDirectory("read-bench");
    long t0 = System.nanoTime();
    generate(root);
    double loadSeconds = (System.nanoTime() - t0) / 1e9;

    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), ReadBenchmark.class.getName(), "--child", root.toString())
        .redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          lines.add(line.substring(7));
        }
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("query child failed");
    }
    List<String> report = new ArrayList<>();
    report.add("OmniGraph read benchmark (local FS, " + Runtime.getRuntime().availableProcessors() + " cpus, java "
        + System.getProperty("java.version") + ")");
    report.add(String.format(Locale.ROOT, "graph: %,d Person nodes, %,d Knows edges; generated and loaded in %.1f s",
        NODES, NODES * OUT_DEGREE, loadSeconds));
    report.addAll(lines);
    String text = String.join("\n", report) + "\n";
    System.out.print(text);
    Files.writeString(out.resolve("read.txt"), text);
  }

  /** Writes NDJSON to a file (so the generator holds nothing) and loads it as two overwrites. */
  private static void generate(Path root) throws IOException {
    StorageConfig config = StorageConfig.local(root);
    Path nodes = Files.createTempFile("nodes", ".ndjson");
    Path edges = Files.createTempFile("edges", ".ndjson");
    Random random = new Random(42);
    try (BufferedWriter w = Files.newBufferedWriter(nodes)) {
      for (int i = 0; i < NODES; i++) {
        w.write("{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":" + (i % 90) + "}}\n");
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(edges)) {
      for (int i = 0; i < NODES; i++) {
        for (int k = 0; k < OUT_DEGREE; k++) {
          w.write("{\"edge\":\"Knows\",\"from\":\"p" + i + "\",\"to\":\"p" + random.nextInt(NODES) + "\"}\n");
        }
      }
    }
    try (Omnigraph g = Omnigraph.init(config, SCHEMA, Optional.of("bench"))) {
      try (var r = Files.newBufferedReader(nodes)) {
        g.load("main", r, LoadMode.OVERWRITE, Optional.of("bench"));
      }
      try (var r = Files.newBufferedReader(edges)) {
        g.load("main", r, LoadMode.OVERWRITE, Optional.of("bench"));
      }
    }
    Files.delete(nodes);
    Files.delete(edges);
  }

  private static void runQueries(Path root) throws Exception {
    StorageConfig config = StorageConfig.local(root);
    ObjectMapper json = new ObjectMapper();
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      long t = System.nanoTime();
      ReadOutput cold = g.query(Optional.empty(), Optional.empty(), QUERY, "two_hop",
          json.createObjectNode().put("name", "p0"));
      double coldMs = (System.nanoTime() - t) / 1e6;
      double[] warm = new double[WARM_RUNS];
      long[] counts = new long[WARM_RUNS];
      for (int i = 0; i < WARM_RUNS; i++) {
        t = System.nanoTime();
        ReadOutput r = g.query(Optional.empty(), Optional.empty(), QUERY, "two_hop",
            json.createObjectNode().put("name", "p" + (i * 4999)));
        warm[i] = (System.nanoTime() - t) / 1e6;
        counts[i] = ((Number) r.rows().get(0).get("n")).longValue();
      }
      SnapshotOutput.Dataset knows = g.snapshot("main").datasets().stream()
          .filter(d -> d.typeName().equals("Knows")).findFirst().orElseThrow();
      double[] raw = new double[WARM_RUNS];
      long[] rawCounts = new long[WARM_RUNS];
      for (int i = 0; i < WARM_RUNS; i++) {
        t = System.nanoTime();
        rawCounts[i] = rawTwoHop(config.lanceUri(knows.datasetPath()), knows.publishedDatasetVersion(),
            "p" + (i * 4999));
        raw[i] = (System.nanoTime() - t) / 1e6;
      }
      if (!Arrays.equals(counts, rawCounts)) {
        throw new IllegalStateException("answers differ: omnigraph " + Arrays.toString(counts) + ", raw "
            + Arrays.toString(rawCounts));
      }
      Arrays.sort(warm);
      Arrays.sort(raw);
      System.out.println(String.format(Locale.ROOT,
          "RESULT two-hop count from one node: cold %.1f ms (includes building the 1M-edge adjacency index), "
              + "warm median %.1f ms, p90 %.1f ms (n=%d, different start nodes)", coldMs, warm[WARM_RUNS / 2],
          warm[(int) (WARM_RUNS * 0.9)], WARM_RUNS));
      System.out.println(String.format(Locale.ROOT,
          "RESULT raw lance-java two filtered edge scans, same start nodes: median %.1f ms; warm ratio omnigraph/raw %.2fx",
          raw[WARM_RUNS / 2], warm[WARM_RUNS / 2] / raw[WARM_RUNS / 2]));
      System.out.println("RESULT cold answer for p0: n=" + cold.rows().get(0).get("n"));
    }
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        System.out.println("RESULT peak RSS of the querying JVM (VmHWM): "
            + Long.parseLong(line.replaceAll("\\D", "")) / 1024 + " MiB");
      }
    }
  }

  /** Nodes exactly two hops from {@code start} that are neither {@code start} nor one hop away. */
  private static long rawTwoHop(String uri, long version, String start) throws Exception {
    Set<String> first = new HashSet<>(dst(uri, version, Filter.eq("src", start).toSql()));
    Set<String> second = new HashSet<>(dst(uri, version, Filter.in("src", first).toSql()));
    second.removeAll(first);
    second.remove(start);
    return second.size();
  }

  private static List<String> dst(String uri, long version, String filter) throws Exception {
    List<String> out = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = Dataset.open().allocator(allocator).uri(uri)
            .readOptions(new ReadOptions.Builder().setVersion(version).build()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().columns(List.of("dst")).filter(filter)
            .batchSize(8192).build());
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        VarCharVector v = (VarCharVector) root.getVector("dst");
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(new String(v.get(i), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }
}
