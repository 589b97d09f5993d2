package dev.omnigraph.cost;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.manifest.ManifestTestSupport;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.ConditionalWriteSerializer;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20's cost gate: what reading the graph's state costs in {@code __manifest} (bytes fetched
 * from S3 under {@code __manifest/} and manifest rows decoded) is the same at 100 and at 10,000
 * commits, for a cold snapshot, a cold query at the head, a cold write and a steady write.
 *
 * <p>The 100-commit graph is grown through the engine's write path on local disk; the
 * 10,000-commit graph is the same graph with 9,900 commits of lineage added in the layout the
 * publisher's lineage merges leave ({@link ManifestTestSupport#deepenLineage}). Each is uploaded to
 * a fresh S3Mock prefix and measured there by the test S3 front. "Cold" means this process forgets
 * every cached manifest state and held handle first, as a new process would start.
 *
 * <p>A first page of the commit list must not cost more at depth: it reads the newest lineage only.
 *
 * <p>Decode work is gated by the rows decoded, which is exact; decode wall time is reported only:
 * on a shared two-core CI machine it varies by more than the ±20% being gated.
 *
 * <p>Fails on a manifest whose state is a fold of every row ever written (before issue 20): there
 * a cold snapshot at 10,000 commits decodes every commit row, about 100 times the rows at 100.
 */
class ManifestCostS3Test {

  static final double FLAT = 0.20;
  static final boolean VERBOSE = Boolean.getBoolean("omnigraph.cost.verbose");
  static final int SHALLOW = 100;
  static final int DEEP = 10_000;
  static final int WINDOW = 5;
  static final String SCHEMA = WriteCostS3Test.SCHEMA;
  static final String GQ = WriteCostS3Test.GQ;
  static final String READ = "query person($name: String) {\n  match { $p: Person { name: $name } }\n  return { $p.name }\n}\n";

  @TempDir
  Path local;

  /** One measured operation: bytes fetched under {@code __manifest/}, GET count there, rows decoded, ms. */
  record Cost(long bytes, long gets, long rows, double millis) {}

  @Test
  void stateReadsCostTheSameAt100And10000Commits() throws Exception {
    S3TestServer s3 = S3TestServer.get();
    StorageConfig localRoot = StorageConfig.fromEnvironment(local.resolve("g").toUri().toString(), Map.of());
    try (Omnigraph g = Omnigraph.init(localRoot, SCHEMA, Optional.of("fixture"))) {
      for (int i = 1; i < SHALLOW; i++) { // init is the first commit
        g.load("main", new StringReader(WriteCostS3Test.person("h" + i)), LoadMode.APPEND, Optional.of("fixture"));
      }
    }
    Map<Integer, Map<String, Cost>> costs = new TreeMap<>();
    costs.put(SHALLOW, measureOnS3(s3, localRoot, SHALLOW));
    ManifestTestSupport.deepenLineage(localRoot, "main", DEEP - SHALLOW);
    costs.put(DEEP, measureOnS3(s3, localRoot, DEEP));
    report(costs);
    Map<String, Cost> base = costs.get(SHALLOW);
    Map<String, Cost> deep = costs.get(DEEP);
    for (String op : base.keySet()) {
      Cost b = base.get(op);
      Cost d = deep.get(op);
      if (op.startsWith("cold commit list")) {
        // A page reads the newest lineage only: how many small fragments it crosses depends on
        // where the merges left them, so the deep history may cost less, never more.
        assertThat(d.bytes()).as("%s: __manifest bytes at %d commits vs %d at %d", op, DEEP, b.bytes(), SHALLOW)
            .isLessThanOrEqualTo((long) (b.bytes() * (1 + FLAT)));
        // Rows are decoded a batch at a time: a page decodes its rows plus at most the rest of
        // the batches it started, at any depth.
        assertThat(d.rows()).as("%s: rows decoded at %d commits", op, DEEP)
            .isLessThanOrEqualTo(2L * ManifestTestSupport.lineageBatchRows());
        assertThat(b.rows()).as("%s: rows decoded at %d commits", op, SHALLOW)
            .isLessThanOrEqualTo(2L * ManifestTestSupport.lineageBatchRows());
        continue;
      }
      assertThat((double) d.bytes()).as("%s: __manifest bytes at %d commits vs %d at %d", op, DEEP, b.bytes(), SHALLOW)
          .isBetween(b.bytes() * (1 - FLAT), b.bytes() * (1 + FLAT));
      assertThat((double) d.rows()).as("%s: manifest rows decoded at %d commits vs %d at %d", op, DEEP, b.rows(), SHALLOW)
          .isBetween(b.rows() * (1 - FLAT), b.rows() * (1 + FLAT));
    }
  }

  private Map<String, Cost> measureOnS3(S3TestServer s3, StorageConfig localRoot, int depth) throws Exception {
    try (dev.omnigraph.storage.StorageAdapter a = dev.omnigraph.storage.StorageAdapters.open(localRoot)) {
      dev.omnigraph.engine.GraphRoots.shared().awaitSidecarRetirements(a.rootUri()); // a quiescent tree to copy
    }
    StorageConfig remote = s3.freshBulkRoot("manifest-cost-" + depth);
    s3.upload(local.resolve("g"), remote);
    try {
      return measure(s3, remote, depth);
    } finally {
      try {
        s3.deleteAll(remote);
      } catch (RuntimeException slow) {
        System.out.printf("cleanup of %s left behind: %s%n", remote.rootUri(), slow.getMessage());
      }
    }
  }

  private Map<String, Cost> measure(S3TestServer s3, StorageConfig remote, int depth) throws Exception {
    Map<String, Cost> out = new LinkedHashMap<>();
    ObjectMapper json = new ObjectMapper();
    try (ConditionalWriteSerializer.RequestLog log = s3.record(remote)) {
      ManifestTestSupport.forgetProcessState(remote);
      log.drain();
      out.put("cold snapshot", cost(log, () -> {
        try (Omnigraph g = Omnigraph.open(remote, OpenMode.READ_ONLY)) {
          assertThat(g.snapshot("main").graphManifestVersion()).isPositive();
        }
      }));
      ManifestTestSupport.forgetProcessState(remote);
      out.put("cold query", cost(log, () -> {
        try (Omnigraph g = Omnigraph.open(remote, OpenMode.READ_ONLY)) {
          assertThat(g.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), READ, "person",
              json.readTree("{\"name\":\"h7\"}")).rows()).hasSize(1);
        }
      }));
      ManifestTestSupport.forgetProcessState(remote);
      out.put("cold commit list, first page of 50", cost(log, () -> {
        try (Omnigraph g = Omnigraph.open(remote, OpenMode.READ_ONLY)) {
          var page = g.commits("main", new dev.omnigraph.api.CommitPage(50, Optional.empty()));
          assertThat(page.commits()).hasSize(50);
          assertThat(page.nextCursor()).isNotNull();
        }
      }));
      ManifestTestSupport.forgetProcessState(remote);
      try (Omnigraph g = Omnigraph.open(remote, OpenMode.READ_WRITE)) {
        out.put("cold write", cost(log, () -> g.mutate("main", GQ, "add_person",
            json.readTree("{\"name\":\"cold\"}"), Optional.of("cost"), Optional.empty())));
        List<Cost> steady = new ArrayList<>();
        for (int i = 0; i < WINDOW; i++) {
          int n = i;
          steady.add(cost(log, () -> g.mutate("main", GQ, "add_person",
              json.readTree("{\"name\":\"s" + n + "\"}"), Optional.of("cost"), Optional.empty())));
        }
        steady.sort(java.util.Comparator.comparingLong(Cost::bytes));
        out.put("steady write (median bytes)", steady.get(WINDOW / 2));
        steady.sort(java.util.Comparator.comparingLong(Cost::rows));
        out.put("steady write (median rows)", steady.get(WINDOW / 2));
      }
    }
    System.out.printf("manifest cost at %d commits: %s%n", depth, out);
    return out;
  }

  interface Op {
    void run() throws Exception;
  }

  private static Cost cost(ConditionalWriteSerializer.RequestLog log, Op op) throws Exception {
    long rows0 = ManifestTestSupport.decodedRows();
    long t0 = System.nanoTime();
    op.run();
    double ms = (System.nanoTime() - t0) / 1e6;
    long rows = ManifestTestSupport.decodedRows() - rows0;
    long bytes = 0;
    long gets = 0;
    for (ConditionalWriteSerializer.Request r : log.drain()) {
      if (r.method().equals("GET") && !r.listing() && r.key().contains("__manifest/")) {
        bytes += r.responseBytes();
        gets++;
        if (VERBOSE) {
          System.out.printf("  GET %s %d B%n", r.key(), r.responseBytes());
        }
      }
    }
    return new Cost(bytes, gets, rows, ms);
  }

  private static void report(Map<Integer, Map<String, Cost>> costs) throws IOException {
    StringBuilder t = new StringBuilder("__manifest cost on S3Mock per operation: bytes fetched (GETs), rows decoded, wall ms\n\n"
        + "| operation | " + SHALLOW + " commits | " + DEEP + " commits |\n|---|---|---|\n");
    for (String op : costs.get(SHALLOW).keySet()) {
      Cost a = costs.get(SHALLOW).get(op);
      Cost b = costs.get(DEEP).get(op);
      t.append(String.format("| %s | %,d B (%d), %d rows, %.0f ms | %,d B (%d), %d rows, %.0f ms |%n", op,
          a.bytes(), a.gets(), a.rows(), a.millis(), b.bytes(), b.gets(), b.rows(), b.millis()));
    }
    System.out.print(t);
    Path out = Path.of("target", "cost", "manifest-cost.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, t.toString());
  }
}
