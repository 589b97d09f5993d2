package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.manifest.ManifestTestSupport;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.ConditionalWriteSerializer;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.testing.TestFiles;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Issue 20's "Benchmark, reported": open, write and query latency at 100 / 10,000 / 100,000 commits
 * of history, on the local file system and on S3Mock, in one run.
 *
 * <p>For each depth D (system property {@code omnigraph.bench.manifestDepths}, default
 * {@code 100,10000,100000}, ascending) one local graph is grown: {@code init} with
 * {@code /graphs/people.pg} and {@value #SEED_LOADS} one-row loads through the engine, then
 * {@link ManifestTestSupport#deepenLineage} adds the commits still missing to reach D, laid out as
 * that many one-row publishes would leave the lineage. The same graph is deepened from one depth to
 * the next (the writes measured at a depth count as commits too). At each depth the root is first
 * uploaded to a fresh S3Mock prefix, then the four operations are measured locally and on S3Mock:
 *
 * <ul>
 *   <li>cold open + snapshot: forget this process's manifest state, open READ_ONLY,
 *       {@code snapshot("main")}, close; median of {@value #REPS} after {@value #WARMUP} warm-up;
 *   <li>cold query: the same with a one-row read query at the head instead of the snapshot;
 *   <li>commit page: forget, open READ_ONLY (not timed), then the first page of 50 commits
 *       ({@code commits("main", new CommitPage(50, empty))}) timed alone;
 *   <li>steady write: a READ_WRITE handle kept open, {@value #WRITE_WARMUP} warm-up one-row
 *       {@code mutate} inserts ({@code add_person}), then the median of {@value #WRITES}.
 * </ul>
 *
 * <p>On S3Mock each operation is also counted by the test S3 front: requests addressing the graph
 * root (every method, listings included) and bytes returned by GETs under {@code __manifest/}; each
 * is the median over the measured repetitions, taken independently of the latency.
 *
 * <p>A plain {@code main} (reported, never gated) run by the {@code bench} Maven profile. Usage:
 * {@code ManifestDepthBenchmark [outputDir]} (default {@code target/bench}); writes
 * {@code manifest-depth.md} there. {@code -Domnigraph.bench.manifestS3=false} skips S3Mock;
 * {@code -Domnigraph.bench.verbose=true} prints every S3 request of every repetition.
 */
public final class ManifestDepthBenchmark {

  static final String DEPTHS = System.getProperty("omnigraph.bench.manifestDepths", "100,10000,100000");
  static final boolean S3 = Boolean.parseBoolean(System.getProperty("omnigraph.bench.manifestS3", "true"));
  /** Prints every request of every S3 repetition (method, key, response bytes). */
  static final boolean VERBOSE = Boolean.getBoolean("omnigraph.bench.verbose");
  static final int SEED_LOADS = 20;
  static final int WARMUP = 1;
  static final int REPS = 5;
  static final int WRITE_WARMUP = 2;
  static final int WRITES = 10;
  static final int PAGE = 50;

  static final String ACTOR = "bench";
  static final String SCHEMA = resource("/graphs/people.pg");
  static final String GQ = resource("/graphs/people.gq");
  static final String READ = "query person($name: String) {\n  match { $p: Person { name: $name } }\n"
      + "  return { $p.name }\n}\n";
  static final ObjectMapper JSON = new ObjectMapper();

  static final List<String> OPS = List.of("cold open + snapshot", "cold query at head", "steady one-row write",
      "commit page of 50");
  static final String LOCAL = "local FS";
  static final String S3MOCK = "S3Mock";

  /** Medians of one operation at one depth on one backend; requests and KiB are NaN locally. */
  record Figure(double millis, double requests, double manifestGets, double manifestKib) {}

  /** One timed repetition. */
  record Sample(double millis, long requests, long manifestGets, long manifestBytes) {}

  interface Op {
    void run() throws Exception;
  }

  /** op -> backend -> depth -> figure */
  private final Map<String, Map<String, Map<Integer, Figure>>> figures = new LinkedHashMap<>();
  private final List<String> timings = new ArrayList<>();
  private int written; // the writes measured so far: each is a commit on main
  private int commits; // commits on main so far

  private ManifestDepthBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    Files.createDirectories(out);
    int[] depths = Arrays.stream(DEPTHS.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .mapToInt(Integer::parseInt).sorted().toArray();
    ManifestDepthBenchmark bench = new ManifestDepthBenchmark();
    long t0 = System.nanoTime();
    int status = 1;
    try {
      bench.run(depths);
      status = 0;
    } catch (Exception | Error e) {
      e.printStackTrace();
    } finally {
      String report = bench.report(depths, (System.nanoTime() - t0) / 1e9);
      Path md = out.resolve("manifest-depth.md");
      Files.writeString(md, report);
      System.out.print(report);
      System.out.println("written " + md);
      // S3Mock and the test front stop in shutdown hooks; exit (also after a failure) so that no
      // lingering non-daemon thread keeps the exec plugin waiting.
      System.exit(status);
    }
  }

  private void run(int[] depths) throws Exception {
    S3TestServer s3 = S3 ? S3TestServer.get() : null;
    Path dir = Files.createTempDirectory("bench20-depth");
    Path localDir = dir.resolve("g");
    StorageConfig local = StorageConfig.local(localDir);
    try {
      long t = System.nanoTime();
      try (Omnigraph g = Omnigraph.init(local, SCHEMA, Optional.of(ACTOR))) {
        for (int i = 0; i < SEED_LOADS; i++) {
          g.load("main", new StringReader(person("seed" + i)), LoadMode.APPEND, Optional.of(ACTOR));
        }
        // Counted, not assumed: automatic optimize may publish commits of its own.
        commits = g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
      }
      timings.add(String.format(Locale.ROOT, "seed (init + %d loads) %.1f s", SEED_LOADS, secondsSince(t)));
      for (int depth : depths) {
        if (depth < commits) {
          throw new IllegalArgumentException("depth " + depth + " is below the " + commits + " commits already made");
        }
        t = System.nanoTime();
        ManifestTestSupport.deepenLineage(local, "main", depth - commits);
        commits = depth;
        double deepen = secondsSince(t);
        try (StorageAdapter a = StorageAdapters.open(local)) {
          dev.omnigraph.engine.GraphRoots.shared().awaitSidecarRetirements(a.rootUri()); // a quiescent tree to copy
        }
        StorageConfig remote = null;
        double upload = 0;
        long files = countFiles(localDir);
        if (s3 != null) {
          t = System.nanoTime();
          remote = s3.freshBulkRoot("bench-depth-" + depth);
          s3.upload(localDir, remote);
          upload = secondsSince(t);
        }
        t = System.nanoTime();
        measure(LOCAL, depth, local, null);
        double localSeconds = secondsSince(t);
        double s3Seconds = 0;
        if (s3 != null) {
          t = System.nanoTime();
          try {
            measure(S3MOCK, depth, remote, s3);
          } finally {
            try {
              s3.deleteAll(remote); // S3Mock slows down with the objects in a bucket
            } catch (RuntimeException slow) {
              System.out.printf("[bench] cleanup of %s left behind: %s%n", remote.rootUri(), slow.getMessage());
            }
          }
          s3Seconds = secondsSince(t);
        }
        timings.add(String.format(Locale.ROOT,
            "depth %,d: deepened in %.1f s, %d files uploaded in %.1f s, measured in %.0f s local + %.0f s S3Mock",
            depth, deepen, files, upload, localSeconds, s3Seconds));
        System.out.println("[bench] " + timings.get(timings.size() - 1));
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  private void measure(String backend, int depth, StorageConfig root, S3TestServer s3) throws Exception {
    try (ConditionalWriteSerializer.RequestLog log = s3 == null ? null : s3.record(root)) {
      put(OPS.get(0), backend, depth, repeat(log, WARMUP, REPS, () -> {
        ManifestTestSupport.forgetProcessState(root);
      }, () -> {
        try (Omnigraph g = Omnigraph.open(root, OpenMode.READ_ONLY)) {
          if (g.snapshot("main").graphManifestVersion() <= 0) {
            throw new IllegalStateException("no manifest version");
          }
        }
      }));
      JsonNode name = JSON.readTree("{\"name\":\"seed7\"}");
      put(OPS.get(1), backend, depth, repeat(log, WARMUP, REPS, () -> {
        ManifestTestSupport.forgetProcessState(root);
      }, () -> {
        try (Omnigraph g = Omnigraph.open(root, OpenMode.READ_ONLY)) {
          int rows = g.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), READ, "person", name).rows().size();
          if (rows != 1) {
            throw new IllegalStateException("query returned " + rows + " rows");
          }
        }
      }));
      // The commit page: the handle is opened cold before the timer starts, so the figure is the
      // page alone (the lineage read), not the open measured above.
      Omnigraph[] held = new Omnigraph[1];
      try {
        put(OPS.get(3), backend, depth, repeat(log, WARMUP, REPS, () -> {
          if (held[0] != null) {
            held[0].close();
          }
          ManifestTestSupport.forgetProcessState(root);
          held[0] = Omnigraph.open(root, OpenMode.READ_ONLY);
        }, () -> {
          CommitListOutput page = held[0].commits("main", new CommitPage(PAGE, Optional.empty()));
          if (page.commits().size() != PAGE) {
            throw new IllegalStateException("page of " + page.commits().size() + " commits");
          }
        }));
      } finally {
        if (held[0] != null) {
          held[0].close();
        }
      }
      ManifestTestSupport.forgetProcessState(root);
      try (Omnigraph g = Omnigraph.open(root, OpenMode.READ_WRITE)) {
        put(OPS.get(2), backend, depth, repeat(log, WRITE_WARMUP, WRITES, () -> { }, () -> {
          g.mutate("main", GQ, "add_person", JSON.readTree("{\"name\":\"w" + (written++) + "\"}"),
              Optional.of(ACTOR), Optional.empty());
        }));
      }
      if (s3 == null) {
        // The local graph carries on to the next depth: count the commits made since deepening
        // (the writes, and any automatic optimize they ran) as those newer than the newest
        // deepened commit.
        try (Omnigraph g = Omnigraph.open(root, OpenMode.READ_ONLY)) {
          var listed = g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits();
          int newer = 0;
          while (newer < listed.size() && !listed.get(newer).graphCommitId().startsWith("DEEP")) {
            newer++;
          }
          // No deepened commit: the depth was reached by the seed alone and the page holds them all.
          commits = newer < listed.size() ? depth + newer : listed.size();
        }
      }
    }
  }

  /** {@code warmup} untimed then {@code n} timed runs of {@code op}, each after an untimed {@code setup}. */
  private static Figure repeat(ConditionalWriteSerializer.RequestLog log, int warmup, int n, Op setup, Op op)
      throws Exception {
    List<Sample> samples = new ArrayList<>();
    for (int i = -warmup; i < n; i++) {
      setup.run();
      if (log != null) {
        log.drain();
      }
      long t = System.nanoTime();
      op.run();
      double ms = (System.nanoTime() - t) / 1e6;
      long requests = 0;
      long gets = 0;
      long bytes = 0;
      if (log != null) {
        for (ConditionalWriteSerializer.Request r : log.drain()) {
          if (VERBOSE) {
            System.out.printf(Locale.ROOT, "[bench]   %s %s %d B%n", r.listing() ? "LIST" : r.method(), r.key(),
                r.responseBytes());
          }
          requests++;
          if (r.method().equals("GET") && !r.listing() && r.key().contains("__manifest/")) {
            gets++;
            bytes += r.responseBytes();
          }
        }
      }
      if (VERBOSE && log != null) {
        System.out.printf(Locale.ROOT, "[bench]  repetition %d: %.0f ms%n", i, ms);
      }
      if (i >= 0) {
        samples.add(new Sample(ms, requests, gets, bytes));
      }
    }
    double nan = Double.NaN;
    return new Figure(median(samples, Sample::millis),
        log == null ? nan : median(samples, s -> (double) s.requests()),
        log == null ? nan : median(samples, s -> (double) s.manifestGets()),
        log == null ? nan : median(samples, s -> s.manifestBytes() / 1024.0));
  }

  private void put(String op, String backend, int depth, Figure f) {
    figures.computeIfAbsent(op, k -> new LinkedHashMap<>()).computeIfAbsent(backend, k -> new TreeMap<>())
        .put(depth, f);
    System.out.printf(Locale.ROOT, "[bench] %s, %s, %,d commits: %s%n", op, backend, depth, f);
  }

  private String report(int[] depths, double seconds) {
    StringBuilder r = new StringBuilder();
    r.append("# History depth benchmark (issue 20)\n\n");
    r.append(String.format(Locale.ROOT, "%s, %d cpus, java %s, lance-java 7.0.0; one JVM, all figures from this run.%n%n",
        LocalDate.now(ZoneOffset.UTC), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
    r.append("Cells: median ms locally; on S3Mock median ms (requests, KiB fetched under `__manifest/`). "
        + "Columns: commits on `main`.\n\n");
    r.append("| operation | backend |");
    for (int d : depths) {
      r.append(String.format(Locale.ROOT, " %,d |", d));
    }
    r.append("\n|---|---|");
    r.append("---|".repeat(depths.length)).append('\n');
    for (String op : OPS) {
      for (String backend : List.of(LOCAL, S3MOCK)) {
        Map<Integer, Figure> row = figures.getOrDefault(op, Map.of()).get(backend);
        if (row == null) {
          continue;
        }
        r.append("| ").append(op).append(" | ").append(backend).append(" |");
        for (int d : depths) {
          Figure f = row.get(d);
          if (f == null) {
            r.append(" – |");
          } else if (Double.isNaN(f.requests())) {
            r.append(String.format(Locale.ROOT, " %,.0f |", f.millis()));
          } else {
            r.append(String.format(Locale.ROOT, " %,.0f (%.0f, %,.1f) |", f.millis(), f.requests(), f.manifestKib()));
          }
        }
        r.append('\n');
      }
    }
    r.append('\n');
    r.append(String.format(Locale.ROOT, "Cold = this process's manifest state forgotten first "
        + "(`ManifestTestSupport.forgetProcessState`), as a new process starts; open + snapshot and query include "
        + "the open and close of a READ_ONLY handle; the commit page is timed alone on a handle opened cold just "
        + "before. Reads: median of %d after %d warm-up; writes: one-row `mutate` inserts on a held READ_WRITE "
        + "handle, median of %d after %d warm-up. Requests: every request addressing the graph root (listings "
        + "included); KiB: bytes returned by GETs under `__manifest/`; both medians. History: init + %d one-row "
        + "loads, then `ManifestTestSupport.deepenLineage` to the depth; the local graph is uploaded to a fresh "
        + "S3Mock prefix before anything is measured.%n%n", REPS, WARMUP, WRITES, WRITE_WARMUP, SEED_LOADS));
    r.append("`__manifest/` GETs (median) on S3Mock:");
    for (String op : OPS) {
      Map<Integer, Figure> row = figures.getOrDefault(op, Map.of()).get(S3MOCK);
      if (row == null) {
        continue;
      }
      List<String> parts = new ArrayList<>();
      row.forEach((d, f) -> parts.add(String.format(Locale.ROOT, "%,d: %.0f", d, f.manifestGets())));
      r.append(" ").append(op).append(" (").append(String.join(", ", parts)).append(");");
    }
    r.append("\n\n");
    r.append("Fixture timings: ").append(String.join("; ", timings))
        .append(String.format(Locale.ROOT, ". Benchmark wall time: %.0f s.%n", seconds));
    return r.toString();
  }

  private static double median(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> f) {
    double[] v = samples.stream().mapToDouble(f).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":7}}";
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).count();
    }
  }

  private static String resource(String name) {
    try (InputStream in = ManifestDepthBenchmark.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
