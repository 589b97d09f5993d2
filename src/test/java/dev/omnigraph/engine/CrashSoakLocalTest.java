package dev.omnigraph.engine;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * SIGKILL soak on a local directory: a child JVM ({@link CrashChild} {@code soak}) appends one
 * person per graph commit in a loop and acknowledges each returned write; the test kills it
 * ({@code destroyForcibly}) after a random delay, reopens the graph read-write (the full recovery
 * sweep) and checks, after each of {@link #KILLS} kills:
 * <ul>
 *   <li>every acknowledged name is visible (no lost acknowledged write);
 *   <li>of this child's names, exactly a prefix of its write order is visible: the acknowledged
 *       ones plus at most the one in flight (no gap, no out-of-order survivor);
 *   <li>every visible row is whole (id, name) and the pinned row count equals the scanned rows;
 *   <li>every commit of main corresponds to exactly one visible row addition: each commit by the
 *       writer adds exactly one person over its parent, each recovery commit adds none, and the
 *       writer's commits are exactly as many as the persons;
 *   <li>manifest pins equal the live Lance HEADs, {@code __recovery/} is empty, and every audit row
 *       is one completed recovery of a distinct operation.
 * </ul>
 * The seed is printed; rerun one sequence with {@code -Domnigraph.soak.seed=<seed>}.
 */
class CrashSoakLocalTest {

  /**
   * Kills per run: 20 by default, more with {@code -Domnigraph.soak.kills=<n>} (the {@code long}
   * profile, {@code ./mvnw -B -Plong verify}, runs 100).
   */
  static final int KILLS = Integer.getInteger("omnigraph.soak.kills", 20);

  /**
   * Kills land this long after the child opened the graph: a cold child's first write takes about
   * a second, later ones a few hundred milliseconds, so this spreads kills over the first write's
   * prepare and every phase of later writes.
   */
  static final int MIN_DELAY_MILLIS = 200;
  static final int MAX_DELAY_MILLIS = 2_600;

  @Test
  void killedAtRandomMomentsTheGraphStaysExactlyTheAcknowledgedPrefix() throws Exception {
    long seed = Long.getLong("omnigraph.soak.seed", System.nanoTime());
    System.out.println("[CrashSoakLocalTest] seed " + seed + " (rerun with -Domnigraph.soak.seed=" + seed + ")");
    Random random = new Random(seed);
    StorageConfig config = StorageConfig.local(Files.createTempDirectory("soak"));
    Omnigraph.init(config, AbstractGraphEngineTest.schemaText(), Optional.of("act-test")).close();

    Set<String> acked = new TreeSet<>();
    int checkedCommits = 0; // commits of main already checked, oldest first
    Map<String, Integer> auditKinds = new TreeMap<>();
    List<String> report = new ArrayList<>();
    for (int kill = 0; kill < KILLS; kill++) {
      String prefix = String.format("k%02d-", kill);
      int delay = MIN_DELAY_MILLIS + random.nextInt(MAX_DELAY_MILLIS - MIN_DELAY_MILLIS + 1);
      CrashChildProcess.Result result;
      try (CrashChildProcess child = CrashChildProcess.start(config, Optional.empty(), "soak", "main", prefix, "0")) {
        assertThat(child.awaitLine("OPEN", 120_000)).as("child %d opened the graph:\n%s", kill, child.lines())
            .isTrue();
        Thread.sleep(delay);
        result = child.kill();
      }
      assertThat(result.output()).as("child %d output", kill).doesNotContain("FAILED");
      List<String> ackedNow = result.output().lines().filter(l -> l.startsWith("ACK "))
          .map(l -> l.substring(4)).toList();
      for (int i = 0; i < ackedNow.size(); i++) {
        assertThat(ackedNow.get(i)).isEqualTo(CrashChild.soakName(prefix, i));
      }
      acked.addAll(ackedNow);

      try (Omnigraph graph = Omnigraph.open(config, OpenMode.READ_WRITE)) {
        List<Outcome> recovered = graph.openRecovery();
        recovered.forEach(o -> auditKinds.merge(o.auditKind(), 1, Integer::sum));

        // Rows: whole, counted, every ACK visible, this child's names a prefix of its write order.
        SnapshotOutput.Dataset people = graph.snapshot("main").datasets().stream()
            .filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow();
        Map<String, String> rows = new HashMap<>();
        new DataTables(config).scan(TableAt.of(people.datasetPath(), Optional.ofNullable(people.nativeDatasetBranch()), people.publishedDatasetVersion()), Filter.TRUE, List.of("id", "name"), r -> assertThat(rows.put(String.valueOf(r.get("id")), (String) r.get("name"))).as("duplicate id %s",
                r.get("id")).isNull());
        assertThat(people.entityCount()).isEqualTo(rows.size());
        rows.forEach((id, name) -> assertThat(name).as("row %s is whole", id).isEqualTo(id));
        assertThat(rows.keySet()).containsAll(acked);
        List<String> mine = rows.keySet().stream().filter(n -> n.startsWith(prefix)).sorted().toList();
        for (int i = 0; i < mine.size(); i++) {
          assertThat(mine.get(i)).as("child %d's visible names are a prefix of its writes", kill)
              .isEqualTo(CrashChild.soakName(prefix, i));
        }
        assertThat(mine.size()).as("child %d: visible %s, acknowledged %d", kill, mine, ackedNow.size())
            .isBetween(ackedNow.size(), ackedNow.size() + 1);

        // Commits: oldest first; each writer commit adds exactly one row, a recovery commit none.
        List<CommitOutput> commits = allCommits(graph, "main");
        java.util.Collections.reverse(commits);
        long writerCommits = commits.stream().filter(c -> CrashChild.ACTOR.equals(c.actorId())).count();
        long recoveryCommits = commits.stream().filter(c -> Recovery.RECOVERY_ACTOR.equals(c.actorId())).count();
        // Automatic compaction adds maintenance commits that, like recovery commits, add no row.
        long optimizeCommits = commits.stream()
            .filter(c -> dev.omnigraph.maintenance.Optimize.ACTOR.equals(c.actorId())).count();
        assertThat(writerCommits).as("writer commits = persons").isEqualTo(rows.size());
        assertThat(1 + writerCommits + recoveryCommits + optimizeCommits)
            .as("init + writer + recovery + optimize commits").isEqualTo(commits.size());
        for (int i = Math.max(1, checkedCommits); i < commits.size(); i++) {
          CommitOutput c = commits.get(i);
          assertThat(c.parentCommitId()).isEqualTo(commits.get(i - 1).graphCommitId());
          long before = personCount(graph, commits.get(i - 1).graphCommitId());
          long after = personCount(graph, c.graphCommitId());
          assertThat(after - before).as("rows added by commit %s (actor %s)", c.graphCommitId(), c.actorId())
              .isEqualTo(CrashChild.ACTOR.equals(c.actorId()) ? 1 : 0);
        }
        checkedCommits = commits.size();

        // Pins == HEADs, nothing pending, one audit row per recovered operation.
        DataTables tables = new DataTables(config);
        for (SnapshotOutput.Dataset d : graph.snapshot("main").datasets()) {
          assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
              .as("live HEAD of %s after kill %d", d.datasetPath(), kill).isEqualTo(d.publishedDatasetVersion());
        }
        try (StorageAdapter s = StorageAdapters.open(config)) {
          assertThat(s.list("__recovery")).as("__recovery/ after kill %d", kill).isEmpty();
        }
        List<RecoveryAuditTable.Entry> audit = graph.recoveryAudit();
        assertThat(audit.stream().map(RecoveryAuditTable.Entry::operationId).distinct().count())
            .isEqualTo(audit.size());
        assertThat(audit.size()).isEqualTo(auditKinds.values().stream().mapToInt(Integer::intValue).sum());
        assertThat(audit).allSatisfy(e -> assertThat(e.kind()).isIn("Discarded", "RolledBack", "RolledForward"));
        assertThat(audit.stream().filter(e -> e.kind().equals("RolledBack")).count())
            .as("one recovery commit per rollback").isEqualTo(recoveryCommits);
        report.add(String.format("kill %2d after %4d ms: %3d acked, %d visible, recovered %s", kill, delay,
            ackedNow.size(), mine.size(), recovered.stream().map(Outcome::auditKind).toList()));
      }
    }
    report.forEach(line -> System.out.println("[CrashSoakLocalTest] " + line));
    System.out.println("[CrashSoakLocalTest] acknowledged " + acked.size() + " writes; recoveries " + auditKinds);
    assertThat(acked).as("the soak made progress").isNotEmpty();
  }

  private static long personCount(Omnigraph graph, String commitId) {
    return graph.snapshotAtCommit(commitId).datasets().stream().filter(d -> d.typeName().equals("Person"))
        .findFirst().orElseThrow().entityCount();
  }

  /**
   * Every commit of {@code branch}, newest first, through every page: a soak on a fast machine
   * makes more than one page ({@link CommitPage#MAX_LIMIT}) of commits.
   */
  static List<CommitOutput> allCommits(Omnigraph graph, String branch) {
    List<CommitOutput> out = new ArrayList<>();
    CommitPage page = CommitPage.first(CommitPage.MAX_LIMIT);
    while (true) {
      dev.omnigraph.api.CommitListOutput p = graph.commits(branch, page);
      out.addAll(p.commits());
      if (p.nextCursor() == null) {
        return out;
      }
      page = new CommitPage(CommitPage.MAX_LIMIT, Optional.of(p.nextCursor()));
    }
  }
}
