package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.storage.StoreRequests;
import dev.omnigraph.testing.ConditionalWriteSerializer;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.testing.TestFiles;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.write.WriteLimits;
import dev.omnigraph.api.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Issue 11's benchmark figures, all measured in one JVM run so every ratio compares like with like:
 *
 * <ol>
 *   <li>local FS one-row write latency: an NDJSON {@code load} of one line and a one-row
 *       {@code mutate} insert into a warmed graph, against raw lance-java staging one row and
 *       committing it as an {@code Append} ({@link RawLanceTable});
 *   <li>local FS 8,192-row append into a table already holding 100,000 rows, against raw lance-java
 *       appending the same rows;
 *   <li>throughput of 8 threads sharing one handle, each writing one row at a time, on 8 different
 *       branches against all 8 on one branch;
 *   <li>on S3Mock (the test S3 server, started here as the tests start it): requests per one-row
 *       write and latency with 50 ms injected per request, at history depths 1 / 100 / 1,000, ours
 *       against the raw one-row commit, each history grown on local disk and written into a private S3Mock store.
 * </ol>
 *
 * <p>A plain {@code main} run by the {@code bench} Maven profile; the figures are reported, never
 * gated. Usage: {@code WriteCostBenchmark [outputDir]} (default {@code target/bench}); writes
 * {@code write-cost.md} there. Sizes are system properties ({@code omnigraph.bench.*}, see the
 * constants) so a part can be shrunk or skipped without editing.
 */
public final class WriteCostBenchmark {

  static final int WARMUP = Integer.getInteger("omnigraph.bench.warmup", 10);
  static final int ONE_ROW_WRITES = Integer.getInteger("omnigraph.bench.oneRowWrites", 50);
  static final int BASE_ROWS = Integer.getInteger("omnigraph.bench.baseRows", 100_000);
  static final int BULK_ROWS = Integer.getInteger("omnigraph.bench.bulkRows", 8_192);
  static final int BULK_REPETITIONS = Integer.getInteger("omnigraph.bench.bulkRepetitions", 5);
  static final int CLIENTS = Integer.getInteger("omnigraph.bench.clients", 8);
  static final int CONCURRENT_SECONDS = Integer.getInteger("omnigraph.bench.concurrentSeconds", 15);
  /** Depths of the S3 table; empty skips the S3 part. */
  static final String DEPTHS = System.getProperty("omnigraph.bench.depths", "1,100,300");
  /**
   * Per depth and write kind: this many writes without delay and as many with {@link #DELAY_MS}
   * injected, alternating; requests are counted on all of them.
   */
  static final int S3_PAIRS = Integer.getInteger("omnigraph.bench.s3Pairs", 4);
  static final long DELAY_MS = 50;
  /** Which parts run (comma-separated subset of local,bulk,concurrency,s3), for profiling one. */
  static final List<String> PARTS = Arrays.stream(
      System.getProperty("omnigraph.bench.parts", "local,bulk,concurrency,s3concurrency,s3").split(",")).map(String::trim).toList();

  static final String ACTOR = "bench";
  static final String SCHEMA = resource("/graphs/people.pg");
  static final String GQ = resource("/graphs/people.gq");
  static final NodeType PERSON = SchemaParser.parse(SCHEMA).node("Person").orElseThrow();
  static final ObjectMapper JSON = new ObjectMapper();

  private final StringBuilder report = new StringBuilder();
  private final BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);

  private WriteCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    Files.createDirectories(out);
    WriteCostBenchmark bench = new WriteCostBenchmark();
    bench.line("# Write cost benchmark (issue 11)");
    bench.line("");
    bench.line(String.format(Locale.ROOT, "%d cpus, java %s, lance-java 7.0.0; one JVM, all figures from this run.",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
    long t0 = System.nanoTime();
    try {
      if (PARTS.contains("local")) {
        bench.oneRowLocal();
      }
      if (PARTS.contains("bulk")) {
        bench.bulkAppendLocal();
      }
      if (PARTS.contains("concurrency")) {
        bench.concurrency();
      }
      if (PARTS.contains("s3concurrency")) {
        bench.concurrencyS3();
      }
      if (PARTS.contains("s3") && !DEPTHS.isBlank()) {
        bench.s3Depths();
      }
    } finally {
      bench.line("");
      bench.line(String.format(Locale.ROOT, "Benchmark wall time: %.0f s.", (System.nanoTime() - t0) / 1e9));
      Path md = out.resolve("write-cost.md");
      Files.writeString(md, bench.report);
      System.out.println("written " + md);
      bench.allocator.close();
    }
    // S3Mock and the front stop in shutdown hooks; exit so no lingering non-daemon thread keeps
    // the exec plugin waiting.
    System.exit(0);
  }

  // --- 1. local one-row write ---------------------------------------------------------------

  private void oneRowLocal() throws IOException {
    section("Local FS: one-row write latency");
    Path dir = Files.createTempDirectory("bench11-one-row");
    try (Omnigraph graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of(ACTOR));
        RawLanceTable raw = RawLanceTable.create(dir.resolve("raw.lance").toString(), Map.of(), PERSON, allocator)) {
      for (int i = 0; i < WARMUP; i++) {
        load(graph, "main", person("warm-l" + i));
        insert(graph, "main", "warm-m" + i);
        raw.appendOne("warm-r" + i, i);
      }
      double[] loads = new double[ONE_ROW_WRITES];
      double[] inserts = new double[ONE_ROW_WRITES];
      double[] raws = new double[ONE_ROW_WRITES];
      Map<String, Long> lanceOps = new TreeMap<>();
      // Interleaved so that drift in the machine's state (page cache, CPU frequency, the other
      // engineer's build on a shared box) hits all three alike.
      for (int i = 0; i < ONE_ROW_WRITES; i++) {
        String line = person("l" + i);
        Map<String, Long> before = lanceOps();
        long s = System.nanoTime();
        load(graph, "main", line);
        loads[i] = millisSince(s);
        lanceOps().forEach((k, v) -> lanceOps.merge(k, v - before.getOrDefault(k, 0L), Long::sum));
        JsonNode params = JSON.readTree("{\"name\":\"m" + i + "\"}");
        s = System.nanoTime();
        graph.mutate("main", GQ, "add_person", params, Optional.of(ACTOR), Optional.empty());
        inserts[i] = millisSince(s);
        s = System.nanoTime();
        raw.appendOne("r" + i, i);
        raws[i] = millisSince(s);
      }
      double rawMedian = percentile(raws, 0.5);
      line(String.format(Locale.ROOT, "n=%d each after %d warm-up writes of each; interleaved; auto-optimize on (defaults).",
          ONE_ROW_WRITES, WARMUP));
      line("");
      line("| write | median ms | p90 ms | max ms | median ratio to raw |");
      line("|---|---|---|---|---|");
      row("omnigraph `load` (1 NDJSON line, append)", loads, rawMedian);
      row("omnigraph `mutate` insert (`add_person`)", inserts, rawMedian);
      row("raw lance-java (stage 1 row + `Append` commit)", raws, rawMedian);
      line("");
      line("Target (issue 11): ≤ 3× raw. Lance operations per one-row `load` (engine counters, mean): "
          + perWrite(lanceOps, ONE_ROW_WRITES) + ".");
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  private void row(String label, double[] millis, double rawMedian) {
    line(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f× |", label, percentile(millis, 0.5),
        percentile(millis, 0.9), percentile(millis, 1.0), percentile(millis, 0.5) / rawMedian));
  }

  private static Map<String, Long> lanceOps() {
    Map<String, Long> ops = new TreeMap<>();
    for (StoreRequests.Op op : StoreRequests.Op.values()) {
      for (StoreRequests.Kind kind : StoreRequests.Kind.values()) {
        long c = StoreRequests.count(op, kind);
        if (c > 0) {
          ops.put(op.label() + " " + kind.label(), c);
        }
      }
    }
    return ops;
  }

  private static String perWrite(Map<String, Long> totals, int writes) {
    List<String> parts = new ArrayList<>();
    totals.forEach((k, v) -> {
      if (v > 0) {
        parts.add(String.format(Locale.ROOT, "%s %.1f", k, (double) v / writes));
      }
    });
    return String.join(", ", parts);
  }

  // --- 2. local bulk append into 100K ---------------------------------------------------------

  private void bulkAppendLocal() throws IOException {
    section(String.format(Locale.ROOT, "Local FS: %,d-row append into a %,d-row table", BULK_ROWS, BASE_ROWS));
    Path dir = Files.createTempDirectory("bench11-bulk");
    try (Omnigraph graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of(ACTOR));
        RawLanceTable raw = RawLanceTable.create(dir.resolve("raw.lance").toString(), Map.of(), PERSON, allocator)) {
      List<String> baseNames = names("base-", BASE_ROWS);
      long s = System.nanoTime();
      // A load is capped at WriteLimits.MAX_KEYED_ROWS (8,192) rows per table, so the base goes in
      // as a few maximal loads, then one optimize compacts it to a single fragment: the shape raw
      // Lance's one 100K-row append has.
      for (int from = 0; from < BASE_ROWS; from += WriteLimits.MAX_KEYED_ROWS) {
        List<String> chunk = baseNames.subList(from, Math.min(BASE_ROWS, from + WriteLimits.MAX_KEYED_ROWS));
        checkRows(load(graph, "main", ndjson(chunk)), chunk.size());
      }
      graph.optimize("main");
      double graphBase = millisSince(s);
      try (VectorSchemaRoot rows = raw.batch(baseNames, 7)) {
        s = System.nanoTime();
        raw.append(rows);
      }
      double rawBase = millisSince(s);
      double[] ours = new double[BULK_REPETITIONS];
      double[] raws = new double[BULK_REPETITIONS];
      // Round -1 is a discarded warm-up of each side; then interleaved repetitions. The table grows
      // by one batch per round, so the last round appends into BASE + (n) × BULK rows.
      for (int round = -1; round < BULK_REPETITIONS; round++) {
        List<String> batchNames = names("b" + (round + 1) + "-", BULK_ROWS);
        String text = ndjson(batchNames);
        s = System.nanoTime();
        checkRows(load(graph, "main", text), BULK_ROWS);
        double o = millisSince(s);
        double r;
        try (VectorSchemaRoot rows = raw.batch(batchNames, 7)) {
          s = System.nanoTime();
          raw.append(rows);
          r = millisSince(s);
        }
        if (round >= 0) {
          ours[round] = o;
          raws[round] = r;
        }
      }
      long expected = BASE_ROWS + (long) (BULK_REPETITIONS + 1) * BULK_ROWS;
      if (raw.countRows() != expected) {
        throw new IllegalStateException("raw table holds " + raw.countRows() + " rows, expected " + expected);
      }
      double om = percentile(ours, 0.5);
      double rm = percentile(raws, 0.5);
      line(String.format(Locale.ROOT,
          "Base built by maximal loads of %,d rows plus one `optimize` (omnigraph %.0f ms; a load is capped at "
              + "%,d rows per table) and by one raw append (%.0f ms); one discarded warm-up append each, then %d "
              + "interleaved repetitions (the table grows by one batch per repetition).", WriteLimits.MAX_KEYED_ROWS,
          graphBase, WriteLimits.MAX_KEYED_ROWS, rawBase,
          BULK_REPETITIONS));
      line("");
      line("| write | median ms | runs ms |");
      line("|---|---|---|");
      line(String.format(Locale.ROOT, "| omnigraph `load` APPEND | %.1f | %s |", om, fmt(ours)));
      line(String.format(Locale.ROOT, "| raw lance-java `Append` | %.1f | %s |", rm, fmt(raws)));
      line("");
      line(String.format(Locale.ROOT, "Ratio %.1f× (target ≤ 3×).", om / rm));
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  // --- 3. concurrency -------------------------------------------------------------------------

  private void concurrency() throws Exception {
    section(String.format(Locale.ROOT, "Local FS: %d concurrent clients, one handle", CLIENTS));
    line(String.format(Locale.ROOT,
        "Each client loops one-row `load`s (distinct keys) for %d s; throughput = successful writes ÷ wall time "
            + "until the last client finished. Every run starts on a fresh graph, so a failure in one cannot "
            + "poison the next. Run with automatic optimize off (the write path alone), inline (the library's "
            + "default) and in the background (what the service does). CPU ms per write is this JVM's CPU time "
            + "(all threads, user + system) over the window ÷ writes: with it, cores ÷ CPU per write bounds "
            + "what any number of branches can reach on this machine.", CONCURRENT_SECONDS));
    line("");
    line(TABLE_HEAD);
    line(TABLE_RULE);
    List<String> notes = new ArrayList<>();
    for (OptimizeMode mode : OptimizeMode.values()) {
      OptimizeSettings settings = mode.settings;
      String label = mode.label;
      Throughput disjoint = concurrentRun(settings, true);
      Throughput shared = concurrentRun(settings, false);
      line("| " + label + " " + disjoint.row(CLIENTS + " on " + CLIENTS + " different branches"));
      line("| " + label + " " + shared.row(CLIENTS + " on one branch (main)"));
      notes.add(String.format(Locale.ROOT, "Automatic optimize %s: ratio %.2f× (target ≥ 4×); CPU-bound ceiling "
              + "%d cores ÷ %.1f ms CPU per write (different branches) = %.0f writes/s, %.2f× the one-branch rate.",
          label, disjoint.perSecond() / shared.perSecond(), CORES, disjoint.cpuMillisPerWrite(),
          disjoint.cpuCeiling(), disjoint.cpuCeiling() / shared.perSecond()));
      disjoint.firstMessages().forEach((kind, m) ->
          notes.add("- first " + kind + " on different branches (optimize " + label + "): " + m));
      shared.firstMessages().forEach((kind, m) ->
          notes.add("- first " + kind + " on one branch (optimize " + label + "): " + m));
    }
    line("");
    notes.forEach(this::line);
  }

  /**
   * The same comparison on S3Mock with {@link #DELAY_MS} injected per request: there a write waits
   * on round trips rather than on the two CPUs, which is what concurrency on distinct branches buys.
   */
  private void concurrencyS3() throws Exception {
    section(String.format(Locale.ROOT, "S3Mock, %d ms per request: %d concurrent clients, one handle", DELAY_MS, CLIENTS));
    line(String.format(Locale.ROOT, "As above, on a fresh S3Mock prefix per run, with %d ms injected before every "
        + "request while timing (setup and warm-up writes run without delay).", DELAY_MS));
    line("");
    line(TABLE_HEAD);
    line(TABLE_RULE);
    List<String> notes = new ArrayList<>();
    for (OptimizeMode mode : OptimizeMode.values()) {
      OptimizeSettings settings = mode.settings;
      String label = mode.label;
      Throughput disjoint = concurrentRun(settings, true, true);
      Throughput shared = concurrentRun(settings, false, true);
      line("| " + label + " " + disjoint.row(CLIENTS + " on " + CLIENTS + " different branches"));
      line("| " + label + " " + shared.row(CLIENTS + " on one branch (main)"));
      notes.add(String.format(Locale.ROOT, "Automatic optimize %s: ratio %.2f× (target ≥ 4×); CPU-bound ceiling "
              + "%d cores ÷ %.1f ms CPU per write (different branches) = %.0f writes/s, %.2f× the one-branch rate.",
          label, disjoint.perSecond() / shared.perSecond(), CORES, disjoint.cpuMillisPerWrite(),
          disjoint.cpuCeiling(), disjoint.cpuCeiling() / shared.perSecond()));
      disjoint.firstMessages().forEach((kind, m) ->
          notes.add("- first " + kind + " on different branches (optimize " + label + "): " + m));
      shared.firstMessages().forEach((kind, m) ->
          notes.add("- first " + kind + " on one branch (optimize " + label + "): " + m));
    }
    line("");
    notes.forEach(this::line);
  }

  /** One timed run on a fresh graph: each client on its own branch, or all on main. */
  private Throughput concurrentRun(OptimizeSettings settings, boolean ownBranch) throws Exception {
    return concurrentRun(settings, ownBranch, false);
  }

  private Throughput concurrentRun(OptimizeSettings settings, boolean ownBranch, boolean onS3) throws Exception {
    Path dir = Files.createTempDirectory("bench11-concurrent");
    S3TestServer s3 = onS3 ? S3TestServer.get() : null;
    StorageConfig root = onS3 ? s3.freshRoot("bench-concurrent") : StorageConfig.local(dir.resolve("g"));
    Omnigraph.init(root, SCHEMA, Optional.of(ACTOR)).close();
    try (Omnigraph graph = Omnigraph.open(root, OpenMode.READ_WRITE, settings)) {
      List<String> branches = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        String b = ownBranch ? "client-" + c : "main";
        if (ownBranch) {
          graph.branchCreate(b, "main", Optional.of(ACTOR));
        }
        branches.add(b);
      }
      // The first writes on a branch fork its tables; warm every branch written before timing.
      for (String b : new java.util.LinkedHashSet<>(branches)) {
        load(graph, b, person("warm-" + b + "-0"));
        load(graph, b, person("warm-" + b + "-1"));
      }
      if (onS3) {
        s3.delay(DELAY_MS);
      }
      try {
        return run(graph, branches, ownBranch ? "d" : "s");
      } finally {
        if (onS3) {
          s3.delay(0);
        }
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /**
   * Automatic optimize as the rows run it: off (the write path alone), inline on the writer's thread
   * (the library's default), and on the handle's background thread (what the service runs:
   * {@code omnigraph.optimize.auto.background} defaults to true there).
   */
  private enum OptimizeMode {
    OFF("off", OptimizeSettings.disabled()),
    INLINE("on, inline (library default)", OptimizeSettings.defaults()),
    BACKGROUND("on, background (service default)", new OptimizeSettings(true,
        OptimizeSettings.DEFAULT_FRAGMENT_THRESHOLD, OptimizeSettings.DEFAULT_DELETION_THRESHOLD, true));

    final String label;
    final OptimizeSettings settings;

    OptimizeMode(String label, OptimizeSettings settings) {
      this.label = label;
      this.settings = settings;
    }
  }

  private static final String TABLE_HEAD =
      "| automatic optimize | clients | writes | writes/s | median ms | p90 ms | CPU ms per write | failures |";
  private static final String TABLE_RULE = "|---|---|---|---|---|---|---|---|";
  /** The cores this JVM may use: the ceiling of any CPU-bound throughput. */
  private static final int CORES = Runtime.getRuntime().availableProcessors();

  /**
   * @param cpuSeconds this JVM's CPU time (user + system, every thread) during the timed window;
   *     S3Mock runs in a process of its own and is not counted
   */
  private record Throughput(long writes, double seconds, double[] latencies, Map<String, Long> failures,
      Map<String, String> firstMessages, double cpuSeconds) {
    double perSecond() {
      return writes / seconds;
    }

    double cpuMillisPerWrite() {
      return cpuSeconds * 1000 / writes;
    }

    /** Writes per second if every core did nothing but this JVM's share of writes. */
    double cpuCeiling() {
      return CORES * 1000 / cpuMillisPerWrite();
    }

    String row(String label) {
      return String.format(Locale.ROOT, "| %s | %d | %.1f | %.0f | %.0f | %.1f | %s |", label, writes, perSecond(),
          percentile(latencies, 0.5), percentile(latencies, 0.9), cpuMillisPerWrite(),
          failures.isEmpty() ? "0" : failures.toString());
    }
  }

  private static double processCpuSeconds() {
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9;
  }

  private Throughput run(Omnigraph graph, List<String> branchPerClient, String tag) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(branchPerClient.size());
    CountDownLatch start = new CountDownLatch(1);
    LongAdder ok = new LongAdder();
    Map<String, Long> failures = new ConcurrentHashMap<>();
    Map<String, RuntimeException> firstFailure = new ConcurrentHashMap<>();
    List<Double> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      List<Future<?>> clients = new ArrayList<>();
      long[] deadline = new long[1];
      for (int c = 0; c < branchPerClient.size(); c++) {
        String branch = branchPerClient.get(c);
        String prefix = tag + c + "-";
        clients.add(pool.submit(() -> {
          start.await();
          for (int i = 0; System.nanoTime() < deadline[0]; i++) {
            long s = System.nanoTime();
            try {
              load(graph, branch, person(prefix + i));
              latencies.add(millisSince(s));
              ok.increment();
            } catch (RuntimeException e) {
              failures.merge(e.getClass().getSimpleName(), 1L, Long::sum);
              firstFailure.putIfAbsent(e.getClass().getSimpleName(), e);
            }
          }
          return null;
        }));
      }
      long t0 = System.nanoTime();
      double cpu0 = processCpuSeconds();
      deadline[0] = t0 + CONCURRENT_SECONDS * 1_000_000_000L;
      start.countDown();
      for (Future<?> f : clients) {
        f.get();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      double cpuSeconds = processCpuSeconds() - cpu0;
      double[] lat = latencies.stream().mapToDouble(Double::doubleValue).toArray();
      Map<String, String> messages = new TreeMap<>();
      firstFailure.forEach((kind, e) -> messages.put(kind, e.getMessage()));
      return new Throughput(ok.sum(), seconds, lat, new TreeMap<>(failures), messages, cpuSeconds);
    } finally {
      pool.shutdownNow();
    }
  }

  // --- 4. S3: requests and serial round trips by history depth ---------------------------------

  /** One depth's figures: medians over the writes measured. */
  private record DepthFigures(int depth, Map<String, double[]> requests, Map<String, double[]> millis,
      Map<String, double[]> delayedMillis, Map<String, double[]> chains, String breakdown) {
    /** Serial round trips counted from the delayed writes' request timestamps (median). */
    double chain(String kind) {
      return percentile(chains.get(kind), 0.5);
    }

    double req(String kind) {
      return percentile(requests.get(kind), 0.5);
    }

    double meanReq(String kind) {
      return Arrays.stream(requests.get(kind)).average().orElse(Double.NaN);
    }

    double ms(String kind) {
      return percentile(millis.get(kind), 0.5);
    }

    double delayed(String kind) {
      return percentile(delayedMillis.get(kind), 0.5);
    }

    /** Serial round trips: the latency the injected delay added, in units of the delay. */
    double trips(String kind) {
      return (delayed(kind) - ms(kind)) / DELAY_MS;
    }
  }

  private void s3Depths() throws Exception {
    int[] depths = Arrays.stream(DEPTHS.split(",")).mapToInt(d -> Integer.parseInt(d.trim())).sorted().toArray();
    section("S3 (S3Mock on loopback): one-row write cost by history depth");
    Path dir = Files.createTempDirectory("bench11-s3");
    List<DepthFigures> figures = new ArrayList<>();
    List<String> timings = new ArrayList<>();
    StorageConfig localRoot = StorageConfig.local(dir.resolve("g"));
    Path rawLocal = dir.resolve("raw");
    Map<String, Path> snapshots = new java.util.LinkedHashMap<>();
    try {
      try (Omnigraph grown = Omnigraph.init(localRoot, SCHEMA, Optional.of(ACTOR));
          RawLanceTable rawGrown = RawLanceTable.create(rawLocal.resolve("person.lance").toString(), Map.of(), PERSON,
              allocator)) {
        int written = 0;
        for (int depth : depths) {
          long t0 = System.nanoTime();
          // Depth = prior one-row writes, each through the engine's own write path (auto-optimize
          // included), so the S3 write meets the history a long-lived service would have left.
          for (; written < depth; written++) {
            load(grown, "main", person("h" + written));
            rawGrown.appendOne("h" + written, written);
          }
          try (dev.omnigraph.storage.StorageAdapter a = dev.omnigraph.storage.StorageAdapters.open(localRoot)) {
            dev.omnigraph.engine.GraphRoots.shared().awaitSidecarRetirements(a.rootUri()); // a quiescent tree to copy
          }
          S3TestServer.copyTree(dir.resolve("g"), dir.resolve("snap-ours-" + depth));
          S3TestServer.copyTree(rawLocal, dir.resolve("snap-raw-" + depth));
          snapshots.put("bench-ours-" + depth, dir.resolve("snap-ours-" + depth));
          snapshots.put("bench-raw-" + depth, dir.resolve("snap-raw-" + depth));
          timings.add(String.format(Locale.ROOT, "depth %d: grown in %.0f s (%d + %d objects)", depth,
              (System.nanoTime() - t0) / 1e9, countFiles(dir.resolve("g")), countFiles(rawLocal)));
        }
      }
      long t1 = System.nanoTime();
      // Each history in a bucket of its own on a private S3Mock, written straight into its store:
      // uploading a 1,000-deep history through S3Mock's API takes over ten minutes.
      try (S3TestServer s3 = S3TestServer.seeded(snapshots)) {
        timings.add(String.format(Locale.ROOT, "seeded and started in %.0f s", (System.nanoTime() - t1) / 1e9));
        for (int depth : depths) {
          long t2 = System.nanoTime();
          figures.add(measureDepth(s3, depth, s3.seededRoot("bench-ours-" + depth), s3.seededRoot("bench-raw-" + depth)));
          timings.add(String.format(Locale.ROOT, "depth %d measured in %.0f s", depth, (System.nanoTime() - t2) / 1e9));
          System.out.println("[bench] " + timings.get(timings.size() - 1));
        }
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
    line(String.format(Locale.ROOT, "Depth = one-row writes before the measured ones (grown on local disk through the "
        + "engine, auto-optimize on, then written into a private S3Mock's store, a bucket per history). Each step writes one row of "
        + "each kind (ours `load`, ours `mutate` insert, raw); %d steps without delay alternate with %d steps "
        + "with %d ms injected per request. Requests: median (mean) over all %d writes of a kind, counted by the "
        + "test S3 front (every request under the root; the mean includes the writes that ran the inline "
        + "automatic optimize). Latency: medians. Serial round trips: the median over the delayed writes of the "
        + "longest run of requests each sent after the previous was answered (test front timestamps), and in "
        + "brackets (median latency with delay − median without) ÷ %d ms. Raw: one-row stage + `Append` commit "
        + "on a held dataset.", S3_PAIRS, S3_PAIRS, DELAY_MS, 2 * S3_PAIRS, DELAY_MS));
    line("");
    line("| depth | requests ours (load / insert) | requests raw | latency ours, 50 ms injected (load / insert) "
        + "| raw | serial round trips ours (load / insert) | raw | latency without delay ours (load / insert) | raw |");
    line("|---|---|---|---|---|---|---|---|---|");
    for (DepthFigures f : figures) {
      line(String.format(Locale.ROOT, "| %d | %.0f (%.1f) / %.0f (%.1f) | %.0f | %,.0f / %,.0f ms | %,.0f ms "
              + "| %.0f (%.1f) / %.0f (%.1f) | %.0f (%.1f) | %,.0f / %,.0f ms | %,.0f ms |",
          f.depth(), f.req("load"), f.meanReq("load"), f.req("insert"), f.meanReq("insert"), f.req("raw"),
          f.delayed("load"), f.delayed("insert"), f.delayed("raw"), f.chain("load"), f.trips("load"),
          f.chain("insert"), f.trips("insert"), f.chain("raw"), f.trips("raw"), f.ms("load"), f.ms("insert"),
          f.ms("raw")));
    }
    line("");
    line("Latency without delay is S3Mock's own cost per request (a local one-row write takes ~60 ms), and it grows "
        + "with the objects in the bucket (raw included): compare depths through the round trips and requests, "
        + "not the raw latencies.");
    line("");
    line("Targets (issue 11): ≤ 24 requests per one-row insert, flat within ±10% across depths; ≤ 14 serial round "
        + "trips (14 × 50 ms plus compute) at depth 1 and 1,000.");
    line("");
    line("Requests of the last measured one-row insert (a delayed step), by method and key:");
    line("");
    for (DepthFigures f : figures) {
      line("- depth " + f.depth() + ": " + f.breakdown());
    }
    line("");
    line("Fixture timings: " + String.join("; ", timings) + ".");
  }

  private DepthFigures measureDepth(S3TestServer s3, int depth, StorageConfig ours, StorageConfig raw)
      throws IOException {
    Map<String, List<Double>> requests = new TreeMap<>();
    Map<String, List<Double>> millis = new TreeMap<>();
    Map<String, List<Double>> delayed = new TreeMap<>();
    Map<String, List<Double>> chains = new TreeMap<>();
    String tag = "s" + depth + "-";
    List<ConditionalWriteSerializer.Request> lastInsert = List.of();
    try (Omnigraph g = Omnigraph.open(ours, OpenMode.READ_WRITE);
        RawLanceTable table = RawLanceTable.open(raw.lanceUri("person.lance"), raw.lanceStorageOptions(), PERSON,
            allocator);
        ConditionalWriteSerializer.RequestLog oursLog = s3.record(ours);
        ConditionalWriteSerializer.RequestLog rawLog = s3.record(raw)) {
      // One unmeasured write of each kind warms each handle's caches, as a running service has.
      load(g, "main", person(tag + "warm-l"));
      insert(g, "main", tag + "warm-m");
      table.appendOne(tag + "warm", 0);
      oursLog.drain();
      rawLog.drain();
      // Steps alternate between no delay and the injected delay, and each step writes once of each
      // kind: S3Mock's own cost per request drifts (it grows with the objects in the bucket, and the
      // box is shared), and alternating makes the drift hit both sides of the subtraction alike.
      for (int i = 0; i < 2 * S3_PAIRS; i++) {
        boolean slow = i % 2 == 1;
        s3.delay(slow ? DELAY_MS : 0);
        Map<String, List<Double>> times = slow ? delayed : millis;
        long t = System.nanoTime();
        load(g, "main", person(tag + "l" + i));
        times.computeIfAbsent("load", k -> new ArrayList<>()).add(millisSince(t));
        record(requests, chains, "load", oursLog.drain(), slow);
        t = System.nanoTime();
        insert(g, "main", tag + "m" + i);
        times.computeIfAbsent("insert", k -> new ArrayList<>()).add(millisSince(t));
        lastInsert = oursLog.drain();
        record(requests, chains, "insert", lastInsert, slow);
        t = System.nanoTime();
        table.appendOne(tag + "r" + i, i);
        times.computeIfAbsent("raw", k -> new ArrayList<>()).add(millisSince(t));
        record(requests, chains, "raw", rawLog.drain(), slow);
      }
    } finally {
      s3.delay(0);
    }
    System.out.printf(Locale.ROOT, "[bench] depth %d requests %s%n", depth, requests);
    return new DepthFigures(depth, arrays(requests), arrays(millis), arrays(delayed), arrays(chains),
        breakdown(lastInsert));
  }

  private static void record(Map<String, List<Double>> requests, Map<String, List<Double>> chains, String kind,
      List<ConditionalWriteSerializer.Request> log, boolean delayed) {
    requests.computeIfAbsent(kind, k -> new ArrayList<>()).add((double) log.size());
    if (delayed) {
      chains.computeIfAbsent(kind, k -> new ArrayList<>())
          .add((double) ConditionalWriteSerializer.Request.serialRoundTrips(log));
    }
  }


  private static String breakdown(List<ConditionalWriteSerializer.Request> requests) {
    Map<String, Integer> byKind = new TreeMap<>();
    for (ConditionalWriteSerializer.Request r : requests) {
      String key = r.key();
      int slash = key.indexOf('/');
      String top = slash < 0 ? key : key.substring(0, slash);
      // nodes/<type>/... and edges/<type>/...: keep the table, not the file
      if ((top.equals("nodes") || top.equals("edges")) && slash >= 0) {
        int next = key.indexOf('/', slash + 1);
        top = next < 0 ? key : key.substring(0, next);
        String rest = next < 0 ? "" : key.substring(next + 1);
        top += rest.startsWith("data/") ? " data" : rest.startsWith("_versions") ? " _versions"
            : rest.startsWith("_transactions") ? " _transactions" : rest.startsWith("_indices") ? " _indices"
            : rest.startsWith("_deletions") ? " _deletions" : "";
      }
      byKind.merge((r.listing() ? "LIST" : r.method()) + " " + top, 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    byKind.forEach((k, v) -> parts.add(v + "× " + k));
    return requests.size() + " requests: " + String.join(", ", parts);
  }

  private static Map<String, double[]> arrays(Map<String, List<Double>> lists) {
    Map<String, double[]> out = new TreeMap<>();
    lists.forEach((k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
    return out;
  }

  // --- helpers --------------------------------------------------------------------------------

  private static WriteResult load(Omnigraph graph, String branch, String ndjson) {
    return graph.load(branch, new StringReader(ndjson), LoadMode.APPEND, Optional.of(ACTOR));
  }

  private static void insert(Omnigraph graph, String branch, String name) throws IOException {
    graph.mutate(branch, GQ, "add_person", JSON.readTree("{\"name\":\"" + name + "\"}"), Optional.of(ACTOR),
        Optional.empty());
  }

  private static void checkRows(WriteResult result, long rows) {
    long written = result.affectedRows().values().stream().mapToLong(Long::longValue).sum();
    if (written != rows) {
      throw new IllegalStateException("expected " + rows + " rows written, got " + result.affectedRows());
    }
  }

  private static List<String> names(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> prefix + i).toList();
  }

  private static String ndjson(List<String> names) {
    StringBuilder text = new StringBuilder(names.size() * 56);
    for (String n : names) {
      text.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(n).append("\",\"age\":7}}\n");
    }
    return text.toString();
  }

  private static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":7}}";
  }

  private void section(String title) {
    line("");
    line("## " + title);
    line("");
    System.out.flush();
  }

  private void line(String text) {
    report.append(text).append('\n');
    System.out.println(text);
  }

  private static double millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }

  /** Nearest-rank percentile ({@code p} in (0, 1]) of unsorted values. */
  static double percentile(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static String fmt(double[] values) {
    return String.join(", ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).count();
    }
  }

  private static String resource(String name) {
    try (InputStream in = WriteCostBenchmark.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " not on the class path (run with the test class path)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
