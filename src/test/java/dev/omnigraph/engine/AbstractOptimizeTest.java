package dev.omnigraph.engine;

import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.maintenance.Optimize;
import dev.omnigraph.api.maintenance.OptimizeReport;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.recovery.OptimizeRecovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TableSchemas;
import dev.omnigraph.table.TableStats;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.UncoveredDrift;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The Optimize writer's compaction half and the automatic pass, once per backend: a run keeps rows
 * and time travel, reduces fragments and publishes one maintenance commit; the automatic pass fires
 * past the threshold and not below; a drifted table is refused before anything is armed; inherited
 * branch tables are left alone; and an injected failure at each optimize failpoint has its typed
 * result and converges at the next write's heal.
 */
abstract class AbstractOptimizeTest extends AbstractGraphFixture {

  /** Reopens the fixture's graph with {@code settings}. */
  void reopen(OptimizeSettings settings) {
    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE, settings);
  }

  void addPerson(String name) {
    graph.mutate("main", AbstractMutationTest.GQ, "add_person", new ObjectMapper().createObjectNode().put("name", name),
        Optional.of("act-test"), Optional.empty());
  }

  TableStats stats(String branch, String type) {
    SnapshotOutput.Dataset d = dataset(branch, type);
    return new DataTables(config).compaction().stats(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch())), OptionalLong.of(d.publishedDatasetVersion()));
  }

  List<CommitOutput> commits(String branch) {
    return graph.commits(branch, CommitPage.first(CommitPage.MAX_LIMIT)).commits();
  }

  void assertPinsEqualHeads(String branch) {
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
          .as("live HEAD of %s", d.datasetPath()).isEqualTo(d.publishedDatasetVersion());
    }
  }

  /** One two-person load, five single-person writes, one delete: Person has 6 fragments, one with a deletion file. */
  void fragment() {
    load("main", LoadMode.APPEND, person("ann", 30), person("bob", 40));
    for (String n : List.of("cat", "dan", "eve", "fay", "gus")) {
      addPerson(n);
    }
    graph.mutate("main", AbstractMutationTest.GQ, "forget", new ObjectMapper().createObjectNode().put("name", "bob"),
        Optional.of("act-test"), Optional.empty());
  }

  @Test
  void anOptimizeRunKeepsRowsAndTimeTravelAndPublishesOneMaintenanceCommit() {
    reopen(OptimizeSettings.disabled());
    fragment();
    TableStats before = stats("main", "Person");
    assertThat(before.fragments()).isEqualTo(6);
    assertThat(before.fragmentsWithDeletions()).isEqualTo(1);
    Map<String, Map<String, Object>> rows = rows("main", "Person");
    List<CommitOutput> commitsBefore = commits("main");
    String headBefore = commitsBefore.get(0).graphCommitId();
    SnapshotOutput.Dataset pinBefore = dataset("main", "Person");

    OptimizeReport report = graph.optimize("main");

    assertThat(report.commitId()).isPresent();
    assertThat(report.tables()).extracting(OptimizeReport.Table::tableKey).containsExactly("node:Person");
    OptimizeReport.Table t = report.tables().get(0);
    assertThat(t.fromVersion()).isEqualTo(pinBefore.publishedDatasetVersion());
    // ReserveFragments + Rewrite, then one CreateIndex folding the compacted fragment into id_idx.
    assertThat(t.toVersion()).isEqualTo(pinBefore.publishedDatasetVersion() + 3);
    assertThat(stats("main", "Person").unindexedFragments()).as("key index covers every fragment").isZero();
    assertThat(t.fragmentsBefore()).isEqualTo(6);
    assertThat(t.fragmentsAfter()).isEqualTo(1);
    assertThat(report.compactedFragments()).isEqualTo(5);
    assertThat(stats("main", "Person").fragments()).isEqualTo(1);
    assertThat(stats("main", "Person").fragmentsWithDeletions()).isZero();
    // Same rows and row count; one maintenance commit on top of the old head.
    assertThat(rows("main", "Person")).isEqualTo(rows);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(pinBefore.entityCount());
    List<CommitOutput> after = commits("main");
    assertThat(after).hasSize(commitsBefore.size() + 1);
    assertThat(after.get(0).graphCommitId()).isEqualTo(report.commitId().get());
    assertThat(after.get(0).actorId()).isEqualTo(Optimize.ACTOR);
    assertThat(after.get(0).parentCommitId()).isEqualTo(headBefore);
    // Time travel to the pre-optimize commit reads the old pin and the same content.
    SnapshotOutput old = graph.snapshotAtCommit(headBefore);
    assertThat(old.datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow()
        .publishedDatasetVersion()).isEqualTo(pinBefore.publishedDatasetVersion());
    assertThat(graph.query(Optional.empty(), Optional.of(dev.omnigraph.api.CommitId.existing(headBefore)),
        "query all() { match { $p: Person } return { $p.name } }", "all", null).rowCount())
        .isEqualTo(rows.size());
    assertPinsEqualHeads("main");
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).isEmpty();
    // Nothing left to do: a second run is a no-op; the next write works.
    assertThat(graph.optimize("main").commitId()).isEmpty();
    addPerson("hal");
    assertThat(rows("main", "Person")).containsKey("hal").hasSize(rows.size() + 1);
    assertPinsEqualHeads("main");
  }

  @Test
  void cleanupAfterAnOptimizeKeepsTimeTravelToEveryCommit() {
    reopen(OptimizeSettings.disabled());
    fragment();
    List<CommitOutput> history = commits("main");
    graph.optimize("main");
    graph.cleanup(false);
    String query = "query all() { match { $p: Person } return { $p.name } }";
    for (CommitOutput c : history) {
      long expected = graph.snapshotAtCommit(c.graphCommitId()).datasets().stream()
          .filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow().entityCount();
      assertThat(graph.query(Optional.empty(), Optional.of(dev.omnigraph.api.CommitId.existing(c.graphCommitId())), query, "all", null).rowCount())
          .as("rows at commit %s", c.graphCommitId()).isEqualTo(expected);
    }
    assertThat(graph.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), query, "all", null).rowCount()).isEqualTo(6);
    assertPinsEqualHeads("main");
  }

  @Test
  void theAutomaticPassFiresPastTheThresholdAndNotBelow() {
    reopen(new OptimizeSettings(true, 4, 16, false, 1000));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    for (String n : List.of("a1", "a2", "a3", "a4")) {
      addPerson(n);
    }
    assertThat(stats("main", "Person").fragments()).isEqualTo(4);
    assertThat(runs).isEmpty();
    assertThat(commits("main")).noneMatch(c -> Optimize.ACTOR.equals(c.actorId()));

    addPerson("a5"); // 5 fragments > 4: due

    assertThat(runs).singleElement().satisfies(r -> {
      assertThat(r.automatic()).isTrue();
      assertThat(r.outcome()).isEqualTo("compacted");
      assertThat(r.compactedFragments()).isEqualTo(4);
      assertThat(r.branch()).isEqualTo("main");
    });
    assertThat(stats("main", "Person").fragments()).isEqualTo(1);
    List<CommitOutput> commits = commits("main");
    assertThat(commits.get(0).actorId()).isEqualTo(Optimize.ACTOR);
    assertThat(commits.get(1).actorId()).isEqualTo("act-test");
    assertThat(commits).filteredOn(c -> Optimize.ACTOR.equals(c.actorId())).hasSize(1);
    assertThat(rows("main", "Person")).containsOnlyKeys("a1", "a2", "a3", "a4", "a5");
    assertPinsEqualHeads("main");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void theCheckIsSampledEveryKthWriteToATable() {
    // k = min(9, 16 + 1) / 4 = 2: statistics are read at the 1st, 3rd, 5th, … write to Person.
    reopen(new OptimizeSettings(true, 9, 16, false, 1000));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    for (int i = 1; i <= 10; i++) {
      addPerson("s" + i);
    }
    assertThat(stats("main", "Person").fragments()).as("past the threshold, not yet sampled").isEqualTo(10);
    assertThat(runs).isEmpty();
    addPerson("s11");
    assertThat(runs).singleElement().extracting(OptimizeRun::outcome).isEqualTo("compacted");
    assertThat(stats("main", "Person").fragments()).isEqualTo(1);
    assertThat(rows("main", "Person")).hasSize(11);
  }

  /**
   * Every write adds a fragment the key index does not cover, and every key probe reads those: past
   * the unindexed-fragment threshold the automatic pass folds them into the index (and compacts).
   */
  @Test
  void theAutomaticPassKeepsKeyIndexesCurrentPastTheUnindexedThreshold() {
    reopen(new OptimizeSettings(true, 1000, 1000, false, 3));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    for (int i = 1; i <= 3; i++) {
      addPerson("u" + i);
    }
    assertThat(stats("main", "Person").unindexedFragments()).isEqualTo(3);
    assertThat(runs).isEmpty();
    addPerson("u4");
    assertThat(runs).singleElement().extracting(OptimizeRun::outcome).isEqualTo("compacted");
    assertThat(stats("main", "Person").unindexedFragments()).isZero();
    assertThat(rows("main", "Person")).hasSize(4);
    assertThat(graph.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
        .orElseThrow().publishedDatasetVersion()).isEqualTo(stats("main", "Person").version());
  }

  /**
   * Repeated automatic passes on one table, on main and on a branch: once the key index covers a
   * compacted fragment, the next compaction rewrites indexed fragments. Lance then records the
   * rewritten index in the Rewrite transaction, which lance-java 7.0.0 cannot decode (a JNI
   * constructor mismatch on {@code RewrittenIndex}), so classifying the pass failed, left its
   * sidecar and refused every later write. Compaction defers the index remap instead (the index
   * optimization right after folds the new fragments in).
   */
  @Test
  void repeatedAutomaticPassesKeepEveryLaterWriteWorking() {
    reopen(new OptimizeSettings(true, 1000, 1000, false, 3));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    graph.branchCreate("b", "main", Optional.of("t"));
    for (int i = 0; i < 16; i++) {
      addPerson("m" + i);
      load("b", LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"b" + i + "\"}}");
    }
    assertThat(runs).extracting(OptimizeRun::outcome).doesNotContain("recovery_required").contains("compacted");
    assertThat(runs.stream().filter(r -> r.branch().equals("b") && r.outcome().equals("compacted")).count())
        .isGreaterThanOrEqualTo(3);
    assertThat(runs.stream().filter(r -> r.branch().equals("main") && r.outcome().equals("compacted")).count())
        .isGreaterThanOrEqualTo(3);
    assertThat(rows("main", "Person")).hasSize(16);
    assertThat(rows("b", "Person")).hasSize(16);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void theBackgroundPassRunsAfterTheWriteReturned() throws Exception {
    reopen(new OptimizeSettings(true, 2, 16, true, 1000));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    for (String n : List.of("b1", "b2", "b3")) {
      addPerson(n);
    }
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (runs.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(runs).singleElement().satisfies(r -> {
      assertThat(r.automatic()).isTrue();
      assertThat(r.outcome()).isEqualTo("compacted");
    });
    assertThat(commits("main").get(0).actorId()).isEqualTo(Optimize.ACTOR);
    assertThat(stats("main", "Person").fragments()).isEqualTo(1);
    assertThat(rows("main", "Person")).containsOnlyKeys("b1", "b2", "b3");
    assertPinsEqualHeads("main");
  }

  @Test
  void theAutomaticPassCountsDeletionFiles() {
    reopen(new OptimizeSettings(true, 1000, 1, false, 1000));
    List<OptimizeRun> runs = new CopyOnWriteArrayList<>();
    graph.onOptimize(runs::add);
    load("main", LoadMode.APPEND, person("a", 1), person("b", 2), person("c", 3));
    load("main", LoadMode.APPEND, person("d", 1), person("e", 2), person("f", 3));
    graph.mutate("main", AbstractMutationTest.GQ, "forget", new ObjectMapper().createObjectNode().put("name", "a"),
        Optional.of("act-test"), Optional.empty());
    assertThat(runs).isEmpty();
    graph.mutate("main", AbstractMutationTest.GQ, "forget", new ObjectMapper().createObjectNode().put("name", "d"),
        Optional.of("act-test"), Optional.empty());
    assertThat(runs).singleElement().extracting(OptimizeRun::outcome).isEqualTo("compacted");
    assertThat(stats("main", "Person").fragmentsWithDeletions()).isZero();
    assertThat(rows("main", "Person")).containsOnlyKeys("b", "c", "e", "f");
  }

  @Test
  void aDriftedTableIsRefusedBeforeAnythingIsArmed() {
    reopen(OptimizeSettings.disabled());
    fragment();
    SnapshotOutput.Dataset d = dataset("main", "Person");
    DataTables tables = new DataTables(config);
    // A commit outside OmniGraph: live HEAD moves past the pin.
    CommitOutcome drift = tables.commit(tables.staging().stageInsert(TableRef.main(d.datasetPath()).at(d.publishedDatasetVersion()), personSchema(), List.of(stray()), false));
    assertThat(drift.isLanded()).isTrue();
    List<CommitOutput> before = commits("main");

    Throwable refused = catchThrowable(() -> graph.optimize("main"));

    assertThat(refused).isInstanceOfSatisfying(UncoveredDrift.class,
        e -> assertThat(e.tableKey()).isEqualTo("node:Person"));
    assertThat(sidecars()).isEmpty();
    assertThat(commits("main")).isEqualTo(before);
    assertThat(tables.head(TableRef.main(d.datasetPath()))).isEqualTo(drift.version());
    assertThat(graph.recoveryAudit()).isEmpty();
  }

  @Test
  void aBranchCompactsOnlyTablesOnItsOwnRef() {
    reopen(OptimizeSettings.disabled());
    fragment();
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    SnapshotOutput mainBefore = graph.snapshot("main");
    // Every table of the new branch is inherited from main: nothing is forked by maintenance.
    OptimizeReport inherited = graph.optimize("feature");
    assertThat(inherited.commitId()).isEmpty();
    assertThat(inherited.skipped()).anyMatch(s -> s.startsWith("node:Person: inherited"));
    assertThat(new DataTables(config).branches().exists(TableRef.branch(dataset("main", "Person").datasetPath(), "feature"))).isFalse();
    // After writes on the branch its Person table lives on its own ref and is compacted there.
    for (String n : List.of("b1", "b2", "b3")) {
      graph.mutate("feature", AbstractMutationTest.GQ, "add_person",
          new ObjectMapper().createObjectNode().put("name", n), Optional.of("act-test"), Optional.empty());
    }
    Map<String, Map<String, Object>> rows = rows("feature", "Person");
    OptimizeReport report = graph.optimize("feature");
    assertThat(report.commitId()).isPresent();
    assertThat(report.tables()).singleElement().satisfies(t -> {
      assertThat(t.tableKey()).isEqualTo("node:Person");
      assertThat(t.nativeBranch()).isEqualTo("feature");
    });
    assertThat(rows("feature", "Person")).isEqualTo(rows);
    assertThat(stats("feature", "Person").fragments()).isEqualTo(1);
    assertThat(graph.snapshot("main").datasets()).isEqualTo(mainBefore.datasets());
    assertThat(commits("feature").get(0).actorId()).isEqualTo(Optimize.ACTOR);
    assertPinsEqualHeads("feature");
    assertPinsEqualHeads("main");
  }

  @Test
  void anErrorAfterArmingLeavesNothing() throws Exception {
    reopen(OptimizeSettings.disabled());
    fragment();
    List<CommitOutput> before = commits("main");
    SnapshotOutput snapshot = graph.snapshot("main");
    Throwable thrown;
    try (AutoCloseable fp = FailpointControl.enableError("optimize.after_arm")) {
      thrown = catchThrowable(() -> graph.optimize("main"));
    }
    assertThat(thrown).isInstanceOf(FailpointControl.Injected.class);
    assertThat(sidecars()).isEmpty();
    assertThat(commits("main")).isEqualTo(before);
    assertThat(graph.snapshot("main").datasets()).isEqualTo(snapshot.datasets());
    assertPinsEqualHeads("main");
    assertThat(graph.optimize("main").commitId()).isPresent();
  }

  @Test
  void anErrorAfterACompactionIsRecoveryRequiredAndTheNextWriteRollsItForward() throws Exception {
    injectedAfterEffect("optimize.after_compact", RecoverySidecar.State.ARMED);
  }

  @Test
  void anErrorBeforeThePublishIsRecoveryRequiredAndTheNextWriteRollsItForward() throws Exception {
    injectedAfterEffect("optimize.before_publish", RecoverySidecar.State.EFFECTS_CONFIRMED);
  }

  private void injectedAfterEffect(String failpoint, RecoverySidecar.State state) throws Exception {
    reopen(OptimizeSettings.disabled());
    fragment();
    Map<String, Map<String, Object>> rows = rows("main", "Person");
    List<CommitOutput> before = commits("main");
    Throwable thrown;
    try (AutoCloseable fp = FailpointControl.enableError(failpoint)) {
      thrown = catchThrowable(() -> graph.optimize("main"));
    }
    assertThat(thrown).isInstanceOf(RecoveryRequired.class).hasRootCauseInstanceOf(FailpointControl.Injected.class);
    String op = ((RecoveryRequired) thrown).operationId();
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(op));
    RecoverySidecar s = readSidecar(op);
    assertThat(s.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.Optimize.WIRE);
    assertThat(s.actor()).isEqualTo(Optimize.ACTOR);
    assertThat(s.state()).isEqualTo(state);
    assertThat(commits("main")).isEqualTo(before);
    assertThat(rows("main", "Person")).isEqualTo(rows);

    // The next write's heal publishes the compaction (content unchanged), then the write lands.
    addPerson("ivy");
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(op);
      assertThat(e.kind()).isEqualTo("RolledForward");
      assertThat(e.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.Optimize.WIRE);
      assertThat(e.commitId()).isEqualTo(s.lineage().commitId());
    });
    List<CommitOutput> after = commits("main");
    assertThat(after).hasSize(before.size() + 2);
    assertThat(after.get(1).graphCommitId()).isEqualTo(s.lineage().commitId());
    assertThat(after.get(1).actorId()).isEqualTo(Optimize.ACTOR);
    assertThat(rows("main", "Person")).containsKey("ivy").hasSize(rows.size() + 1);
    assertThat(stats("main", "Person").fragments()).isEqualTo(2);
    assertPinsEqualHeads("main");
  }

  @Test
  void aForeignCommitAfterAnInterruptedCompactionIsRefusedAndTheSidecarKept() throws Exception {
    reopen(OptimizeSettings.disabled());
    fragment();
    List<CommitOutput> before = commits("main");
    Throwable thrown;
    try (AutoCloseable fp = FailpointControl.enableError("optimize.before_publish")) {
      thrown = catchThrowable(() -> graph.optimize("main"));
    }
    String op = ((RecoveryRequired) thrown).operationId();
    // Something other than the compaction lands on the compacted table before recovery runs.
    SnapshotOutput.Dataset d = dataset("main", "Person");
    DataTables tables = new DataTables(config);
    long head = tables.head(TableRef.main(d.datasetPath()));
    assertThat(tables.commit(tables.staging().stageInsert(TableRef.main(d.datasetPath()).at(head), personSchema(), List.of(stray()), false)).isLanded()).isTrue();

    Throwable refused = catchThrowable(() -> graph.recover());

    assertThat(refused).isInstanceOfSatisfying(RecoveryRequired.class, e -> {
      assertThat(e.operationId()).isEqualTo(op);
      assertThat(e.getMessage()).contains("other than its compaction");
    });
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(op));
    assertThat(commits("main")).isEqualTo(before);
    assertThat(graph.recoveryAudit()).isEmpty();
    // Writes on the branch stay blocked while it is pending.
    assertThat(catchThrowable(() -> addPerson("kim"))).isInstanceOf(RecoveryRequired.class);
  }

  @Test
  void anErrorAfterThePublishIsReportedAsDoneAndRetiredLater() throws Exception {
    reopen(OptimizeSettings.disabled());
    fragment();
    OptimizeReport report;
    try (AutoCloseable fp = FailpointControl.enableError("optimize.after_publish")) {
      report = graph.optimize("main");
    }
    assertThat(report.commitId()).isPresent();
    assertThat(sidecars()).hasSize(1);
    assertPinsEqualHeads("main");
    addPerson("jo");
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo("RolledForward");
      assertThat(e.commitId()).isEqualTo(report.commitId().get());
    });
  }

  private RecoverySidecar readSidecar(String op) {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return new SidecarStore(s).read(SidecarStore.keyOf(op)).orElseThrow();
    }
  }

  private static org.apache.arrow.vector.types.pojo.Schema personSchema() {
    return TableSchemas.node(dev.omnigraph.schema.SchemaParser.parse(AbstractGraphEngineTest.schemaText())
        .node("Person").orElseThrow());
  }

  private static Map<String, Object> stray() {
    Map<String, Object> row = new java.util.HashMap<>();
    row.put("id", "zed");
    row.put("name", "zed");
    row.put("age", null);
    row.put("email", null);
    return row;
  }
}
