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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SIGKILL soak with two concurrent writers, only under {@code -Psoak} (tag {@code soak}, excluded
 * from the default suite): each round a child JVM ({@link CrashChild} {@code soak2}) runs
 * single-row {@code add_person} mutations and 20-row append loads on two threads at once; the test
 * kills it ({@code destroyForcibly}, SIGKILL) at a random moment, reopens the graph read-write (the
 * full recovery sweep) and checks after every round:
 * <ul>
 *   <li>every acknowledged write is present (acknowledged mutations and every row of acknowledged
 *       loads);
 *   <li>no partial load: every load batch is either all 20 rows or absent;
 *   <li>each writer's visible writes are a prefix of its order: acknowledged ones plus at most the
 *       one in flight;
 *   <li>every row is whole, the pinned row count equals the scanned rows, every writer commit adds
 *       exactly 1 or 20 rows and recovery/optimize commits add none;
 *   <li>manifest pins equal the live Lance HEADs, {@code __recovery/} is empty, audit rows are one
 *       per recovered operation.
 * </ul>
 * Rounds: {@code -Domnigraph.soak.rounds=<n>} (200 in the profile). The seed is printed; rerun with
 * {@code -Domnigraph.soak.seed=<seed>}.
 */
@Tag("soak")
class CrashSoakTwoWritersLocalTest {

  static final int ROUNDS = Integer.getInteger("omnigraph.soak.rounds", 200);
  static final int MIN_DELAY_MILLIS = 100;
  static final int MAX_DELAY_MILLIS = 2_500;

  @Test
  void twoWritersKilledAtRandomMomentsKeepEveryAcknowledgedWriteAndNoPartialLoad() throws Exception {
    long seed = Long.getLong("omnigraph.soak.seed", System.nanoTime());
    String tag = "[CrashSoakTwoWritersLocalTest] ";
    System.out.println(tag + "seed " + seed + " rounds " + ROUNDS);
    long started = System.nanoTime();
    Random random = new Random(seed);
    StorageConfig config = StorageConfig.local(Files.createTempDirectory("soak2"));
    Omnigraph.init(config, AbstractGraphEngineTest.schemaText(), Optional.of("act-test")).close();

    Set<String> ackedRows = new TreeSet<>();
    long ackedMutations = 0;
    long ackedLoads = 0;
    long retries = 0;
    int checkedCommits = 0;
    Map<String, Integer> auditKinds = new TreeMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      String prefix = String.format("r%03d-", round);
      int delay = MIN_DELAY_MILLIS + random.nextInt(MAX_DELAY_MILLIS - MIN_DELAY_MILLIS + 1);
      CrashChildProcess.Result result;
      try (CrashChildProcess child = CrashChildProcess.start(config, Optional.empty(), "soak2", "main", prefix)) {
        assertThat(child.awaitLine("OPEN", 120_000)).as("child %d opened the graph:\n%s", round, child.lines())
            .isTrue();
        Thread.sleep(delay);
        result = child.kill();
      }
      assertThat(result.output()).as("child %d output", round).doesNotContain("FAILED");
      List<String> mAcked = result.output().lines().filter(l -> l.startsWith("ACK m ")).map(l -> l.substring(6))
          .toList();
      List<Long> lAcked = result.output().lines().filter(l -> l.startsWith("ACK l "))
          .map(l -> Long.parseLong(l.substring(6))).toList();
      retries += result.output().lines().filter(l -> l.startsWith("RETRY ")).count();
      for (int i = 0; i < mAcked.size(); i++) {
        assertThat(mAcked.get(i)).isEqualTo(CrashChild.soak2MutationName(prefix, i));
        ackedRows.add(mAcked.get(i));
      }
      for (int i = 0; i < lAcked.size(); i++) {
        assertThat(lAcked.get(i)).isEqualTo(i);
        for (int r = 0; r < CrashChild.SOAK2_LOAD_ROWS; r++) {
          ackedRows.add(CrashChild.soak2LoadName(prefix, i, r));
        }
      }
      ackedMutations += mAcked.size();
      ackedLoads += lAcked.size();

      try (Omnigraph graph = Omnigraph.open(config, OpenMode.READ_WRITE)) {
        graph.openRecovery().forEach(o -> auditKinds.merge(o.auditKind(), 1, Integer::sum));

        SnapshotOutput.Dataset people = graph.snapshot("main").datasets().stream()
            .filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow();
        Map<String, String> rows = new HashMap<>();
        new DataTables(config).scan(TableAt.of(people.datasetPath(), Optional.ofNullable(people.nativeDatasetBranch()), people.publishedDatasetVersion()), Filter.TRUE, List.of("id", "name"), r -> assertThat(rows.put(String.valueOf(r.get("id")), (String) r.get("name"))).as("duplicate id %s",
                r.get("id")).isNull());
        assertThat(people.entityCount()).isEqualTo(rows.size());
        rows.forEach((id, name) -> assertThat(name).as("row %s is whole", id).isEqualTo(id));
        assertThat(rows.keySet()).as("acknowledged writes present after round %d", round).containsAll(ackedRows);

        // This round's mutations: a prefix, acknowledged ones plus at most one in flight.
        List<String> mine = rows.keySet().stream().filter(n -> n.startsWith(prefix + "m")).sorted().toList();
        for (int i = 0; i < mine.size(); i++) {
          assertThat(mine.get(i)).isEqualTo(CrashChild.soak2MutationName(prefix, i));
        }
        assertThat(mine.size()).isBetween(mAcked.size(), mAcked.size() + 1);
        // This round's loads: whole batches only, a prefix of the batch order.
        Map<String, Integer> batches = new TreeMap<>();
        rows.keySet().stream().filter(n -> n.startsWith(prefix + "l"))
            .forEach(n -> batches.merge(n.substring(0, n.lastIndexOf('-')), 1, Integer::sum));
        batches.forEach((b, n) -> assertThat(n).as("rows of load %s (all or nothing)", b)
            .isEqualTo(CrashChild.SOAK2_LOAD_ROWS));
        List<String> batchNames = new ArrayList<>(batches.keySet());
        for (int i = 0; i < batchNames.size(); i++) {
          assertThat(batchNames.get(i) + "-00").isEqualTo(CrashChild.soak2LoadName(prefix, i, 0));
        }
        assertThat(batchNames.size()).isBetween(lAcked.size(), lAcked.size() + 1);

        // Commits: each writer commit adds 1 or 20 rows, recovery and optimize commits none.
        List<CommitOutput> commits = CrashSoakLocalTest.allCommits(graph, "main");
        java.util.Collections.reverse(commits);
        for (int i = Math.max(1, checkedCommits); i < commits.size(); i++) {
          CommitOutput c = commits.get(i);
          assertThat(c.parentCommitId()).isEqualTo(commits.get(i - 1).graphCommitId());
          long added = personCount(graph, c.graphCommitId()) - personCount(graph, commits.get(i - 1).graphCommitId());
          if (CrashChild.ACTOR.equals(c.actorId())) {
            assertThat(added).as("rows added by writer commit %s", c.graphCommitId())
                .isIn(1L, (long) CrashChild.SOAK2_LOAD_ROWS);
          } else {
            assertThat(c.actorId()).isIn(Recovery.RECOVERY_ACTOR, dev.omnigraph.maintenance.Optimize.ACTOR);
            assertThat(added).as("rows added by %s commit %s", c.actorId(), c.graphCommitId()).isZero();
          }
        }
        checkedCommits = commits.size();

        DataTables tables = new DataTables(config);
        for (SnapshotOutput.Dataset d : graph.snapshot("main").datasets()) {
          assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
              .as("live HEAD of %s after round %d", d.datasetPath(), round).isEqualTo(d.publishedDatasetVersion());
        }
        try (StorageAdapter s = StorageAdapters.open(config)) {
          assertThat(s.list("__recovery")).as("__recovery/ after round %d", round).isEmpty();
        }
        List<RecoveryAuditTable.Entry> audit = graph.recoveryAudit();
        assertThat(audit.stream().map(RecoveryAuditTable.Entry::operationId).distinct().count())
            .isEqualTo(audit.size());
        assertThat(audit.size()).isEqualTo(auditKinds.values().stream().mapToInt(Integer::intValue).sum());
        System.out.printf("%sround %3d after %4d ms: %3d mutations + %2d loads acked, %d rows, recovered %s%n", tag,
            round, delay, mAcked.size(), lAcked.size(), rows.size(),
            graph.openRecovery().stream().map(Outcome::auditKind).toList());
      }
    }
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    System.out.printf("%s%d rounds in %d s: acknowledged %d mutations + %d loads (%d rows), %d conflict retries,"
        + " recoveries %s%n", tag, ROUNDS, seconds, ackedMutations, ackedLoads, ackedRows.size(), retries, auditKinds);
    assertThat(ackedMutations).as("the mutation writer made progress").isPositive();
    assertThat(ackedLoads).as("the load writer made progress").isPositive();
  }

  private static long personCount(Omnigraph graph, String commitId) {
    return graph.snapshotAtCommit(commitId).datasets().stream().filter(d -> d.typeName().equals("Person"))
        .findFirst().orElseThrow().entityCount();
  }
}
