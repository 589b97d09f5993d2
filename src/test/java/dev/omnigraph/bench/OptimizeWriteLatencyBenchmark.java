package dev.omnigraph.bench;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.maintenance.OptimizeReport;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.FragmentStats;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * Single-row write latency after many writes, before vs after {@code optimize} (issue 16's third
 * benchmark figure), reported and not gated, on the local file system through the engine: a graph
 * whose {@code Doc} table carries every index kind (key BTree, an {@code @index} scalar BTree, an
 * inverted index on free text and a cosine vector index, built by EnsureIndices after the first 10
 * writes), then {@code omnigraph.bench.writes} (1,000) single-row loads with the automatic optimize
 * off, then 100 timed single-row loads (p50/p90), one explicit {@code optimize}, and 100 timed
 * single-row loads again. Each load probes the key index for its id (the insert's absence
 * certificate), so its cost grows with the fragments the index does not cover.
 *
 * <p>Run with {@code ./mvnw -B -o -Pbench -DskipTests process-test-classes
 * exec:exec@optimize-write-latency-benchmark} (results in {@code target/bench/optimize-write-latency.txt}).
 */
public final class OptimizeWriteLatencyBenchmark {

  static final int TIMED = 100;
  static final int DIM = 16;

  static final String SCHEMA = """
      node Doc {
        slug: String @key
        rank: I64? @index
        body: String? @index
        emb: Vector(16)? @index
      }
      """;

  private OptimizeWriteLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args.length > 0 ? args[0] : "target/bench");
    Files.createDirectories(out);
    String report = run(Integer.getInteger("omnigraph.bench.writes", 1000));
    System.out.print(report);
    Files.writeString(out.resolve("optimize-write-latency.txt"), report);
  }

  /** The figures of {@code writes} single-row loads before and after one optimize, as report text. */
  static String run(int writes) throws Exception {
    Path root = Files.createTempDirectory("optimize-bench");
    StorageConfig config = StorageConfig.local(root);
    Omnigraph.init(config, SCHEMA, Optional.of("bench")).close();
    Random random = new Random(16);
    StringBuilder report = new StringBuilder();
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE, OptimizeSettings.disabled())) {
      int n = 0;
      for (; n < 10; n++) {
        write(g, n, random);
      }
      g.ensureIndices("main", Optional.of("bench"));
      long started = System.nanoTime();
      for (; n < writes; n++) {
        write(g, n, random);
      }
      double fillSeconds = (System.nanoTime() - started) / 1e9;
      String shapeBefore = shape(config, g);
      double[] before = timed(g, n, random);
      n += TIMED;
      String shapeTimed = shape(config, g);
      long t = System.nanoTime();
      OptimizeReport r = g.optimize("main");
      double optimizeMs = (System.nanoTime() - t) / 1e6;
      String shapeAfter = shape(config, g);
      double[] after = timed(g, n, random);
      report.append(String.format(Locale.ROOT, "OptimizeWriteLatencyBenchmark: local FS, %d single-row loads"
          + " (%.1f s, automatic optimize off), Doc with id/rank BTree, body inverted, emb vector (Vector(%d))%n",
          writes, fillSeconds, DIM));
      report.append("  shape after the fill:    ").append(shapeBefore).append('\n');
      report.append(line("before optimize", before)).append("  (").append(shapeTimed).append(" after them)\n");
      report.append(String.format(Locale.ROOT, "  optimize: %.0f ms, commit %s, tables %s%n", optimizeMs,
          r.commitId().orElse("none"), r.tables().stream().map(x -> x.tableKey() + " v" + x.fromVersion() + "->v"
              + x.toVersion() + " " + x.fragmentsBefore() + "->" + x.fragmentsAfter() + " fragments, pending "
              + x.indexesPending()).toList()));
      report.append("  shape after optimize:    ").append(shapeAfter).append('\n');
      report.append(line("after optimize", after)).append('\n');
    }
    return report.toString();
  }

  static void write(Omnigraph g, int i, Random random) {
    StringBuilder b = new StringBuilder("{\"type\":\"Doc\",\"data\":{\"slug\":\"doc" + i + "\",\"rank\":" + (i % 50)
        + ",\"body\":\"document " + i + (i % 3 == 0 ? " about graphs" : " about cats") + "\",\"emb\":[");
    for (int k = 0; k < DIM; k++) {
      b.append(k == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.4f", random.nextFloat() - 0.5f));
    }
    g.load("main", new StringReader(b.append("]}}").toString()), LoadMode.APPEND, Optional.of("bench"));
  }

  static double[] timed(Omnigraph g, int from, Random random) {
    double[] ms = new double[TIMED];
    for (int i = 0; i < TIMED; i++) {
      long t = System.nanoTime();
      write(g, from + i, random);
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms;
  }

  static String line(String label, double[] sorted) {
    return String.format(Locale.ROOT, "  %-24s p50 %.1f ms, p90 %.1f ms (%d single-row loads)", label + ":",
        sorted[sorted.length / 2], sorted[(int) Math.ceil(sorted.length * 0.9) - 1], sorted.length);
  }

  static String shape(StorageConfig config, Omnigraph g) {
    SnapshotOutput.Dataset d = g.snapshot("main").datasets().stream().filter(x -> x.typeName().equals("Doc"))
        .findFirst().orElseThrow();
    FragmentStats s = new DataTables(config).statistics().fragmentStats(d.datasetPath(),
        Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion());
    return s.fragments() + " fragments, uncovered per index " + s.unindexedFragments();
  }
}
