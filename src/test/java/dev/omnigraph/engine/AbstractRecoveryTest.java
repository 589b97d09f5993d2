package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.QuarantinedSidecar;
import dev.omnigraph.api.recovery.Verdict;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.util.Ulid;
import dev.omnigraph.api.LoadMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Recovery's decisions and refusals, produced for real in one JVM (the child-JVM crash matrix lives
 * in the crash suites): read-only open repairs nothing, rollback-class sidecars block writes until
 * a full recovery, a compensating restore is recognised on restart, foreign effects and invariant
 * violations are refused with the sidecar kept, sidecar I/O faults behave as the seed lists, and
 * every completed recovery leaves exactly one audit row.
 */
abstract class AbstractRecoveryTest extends AbstractGraphFixture {

  private static final String BOB = person("bob", 2);

  /** Leaves an Armed sidecar whose Person commit landed (a crash between table commits and confirm). */
  protected RecoveryRequired armedWithEffect(String branch) throws Exception {
    try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
      return org.assertj.core.api.Assertions.catchThrowableOfType(RecoveryRequired.class,
          () -> load(branch, LoadMode.APPEND, BOB));
    }
  }

  protected void reopen(OpenMode mode) {
    graph.close();
    graph = Omnigraph.open(config, mode);
  }

  /** Every table pin of the branch equals its live Lance HEAD. */
  protected void assertPinsEqualHeads(String branch) {
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
          .as("HEAD of %s", d.typeName()).isEqualTo(d.publishedDatasetVersion());
    }
  }

  protected Map<String, Long> fingerprint() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      Map<String, Long> out = new TreeMap<>();
      for (String key : s.list("")) {
        out.put(key, (long) s.read(key).length);
      }
      return out;
    }
  }

  @Test
  void readOnlyOpenRepairsNothingThenReadWriteOpenRollsBackWithOneAuditRow() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput before = graph.snapshot("main");
    int commitsBefore = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    RecoveryRequired failure = armedWithEffect("main");
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));

    graph.close();
    Map<String, Long> files = fingerprint();
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(graph.pendingRecovery()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    assertThat(fingerprint()).isEqualTo(files);

    reopen(OpenMode.READ_WRITE);
    assertThat(graph.openRecovery()).singleElement().satisfies(o -> {
      assertThat(o.verdict()).isEqualTo(Verdict.INCOMPLETE_PHASE_B);
      assertThat(o.auditKind()).isEqualTo("RolledBack");
    });
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(sidecars()).isEmpty();
    assertPinsEqualHeads("main");
    // The rollback publishes the restored head (same content) under the recovery actor.
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(commitsBefore + 1);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).actorId()).isEqualTo(Recovery.RECOVERY_ACTOR);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(1);
    List<RecoveryAuditTable.Entry> audit = graph.recoveryAudit();
    assertThat(audit).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(failure.operationId());
      assertThat(e.kind()).isEqualTo("RolledBack");
      assertThat(e.forActor()).isEqualTo("act-test");
      assertThat(e.writerKind()).isEqualTo("load");
      assertThat(e.tableOutcomes()).contains("node:Person").contains("restored");
    });
    load("main", LoadMode.APPEND, BOB);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
  }

  @Test
  void aRollbackClassSidecarBlocksWritesOnItsBranchUntilRecover() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    RecoveryRequired failure = armedWithEffect("main");
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("cy", 3)))
        .isInstanceOfSatisfying(RecoveryRequired.class, e -> {
          assertThat(e.operationId()).isEqualTo(failure.operationId());
          assertThat(e.getMessage()).contains(Recovery.ROLLBACK_REQUIRED);
        });
    // The quiesced in-process recovery needs no restart.
    assertThat(graph.recover()).singleElement()
        .satisfies(o -> assertThat(o.auditKind()).isEqualTo("RolledBack"));
    load("main", LoadMode.APPEND, person("cy", 3));
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "cy");
    assertPinsEqualHeads("main");
    assertThat(graph.recoveryAudit()).hasSize(1);
  }

  @Test
  void aRollbackInterruptedAfterItsRestoreResumesWithoutRestoringAgain() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    long pinned = dataset("main", "Person").publishedDatasetVersion();
    armedWithEffect("main");
    graph.close();
    try (AutoCloseable fp = FailpointControl.enableError("recovery.after_restore")) {
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(FailpointControl.Injected.class);
    }
    String path = Omnigraph.open(config, OpenMode.READ_ONLY).snapshot("main").datasets().stream()
        .filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow().datasetPath();
    DataTables tables = new DataTables(config);
    assertThat(tables.head(TableRef.main(path))).isEqualTo(pinned + 2); // our commit, then the restore
    assertThat(tables.transactionAt(TableRef.main(path).at(pinned + 2)).orElseThrow().operation()).isEqualTo("Restore");

    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.openRecovery()).singleElement().satisfies(o -> assertThat(o.tables()).singleElement()
        .satisfies(t -> assertThat(t.tableClass()).isEqualTo(TableClass.COMPENSATED)));
    assertThat(tables.head(TableRef.main(path))).isEqualTo(pinned + 2);
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(pinned + 2);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledBack"));
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aForeignCommitOnAnOwnedTableIsRefusedAndTheSidecarKept() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput before = graph.snapshot("main");
    SnapshotOutput.Dataset people = dataset("main", "Person");
    RecoveryRequired failure = armedWithEffect("main");
    // A writer outside the supported topology commits on top of our effect.
    DataTables tables = new DataTables(config);
    long head = tables.head(TableRef.main(people.datasetPath()));
    CommitOutcome foreign = tables.commit(tables.staging().stageDeleteIds(TableRef.main(people.datasetPath()).at(head), List.of("ann")));
    assertThat(foreign.isLanded()).isTrue();
    graph.close();
    assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE))
        .isInstanceOfSatisfying(RecoveryRequired.class, e -> {
          assertThat(e.operationId()).isEqualTo(failure.operationId());
          assertThat(e.getMessage()).contains("foreign");
        });
    assertThat(tables.head(TableRef.main(people.datasetPath()))).isEqualTo(head + 1); // nothing restored
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    assertThat(graph.recoveryAudit()).isEmpty();
  }

  @Test
  void aHeadBehindItsPinIsAnInvariantViolationRefusedLoudly() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    RecoveryRequired failure = armedWithEffect("main");
    // Forge a manifest pin ahead of Lance (only possible by bypassing the write path).
    GraphManifest manifest = new GraphManifest(config, StorageAdapters.open(config));
    ManifestState state = manifest.state("main");
    TablePin pin = state.tables().get(TableKey.node("Person"));
    new ManifestBatchPublisher(config).publish(new ManifestBatchPublisher.Intent("main", Optional.empty(),
        state.effectiveHead(List.of()), List.of(), List.of(new TableVersionUpdate(pin.tableKey(), pin.identity(),
            pin.location(), pin.version() + 5, pin.nativeBranch(), pin.rowCount())),
        Ulid.next(), Optional.of("forger"), Optional.empty(), 1L));
    graph.close();
    assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE))
        .isInstanceOfSatisfying(RecoveryRequired.class, e -> {
          assertThat(e.operationId()).isEqualTo(failure.operationId());
          assertThat(e.getMessage()).contains("invariant violation");
        });
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
  }

  @Test
  void anAuditAppendFailureKeepsTheSidecarAndTheRetryRecordsExactlyOneRow() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    RecoveryRequired failure;
    try (AutoCloseable fp = FailpointControl.enableError("write.before_publish")) {
      failure = org.assertj.core.api.Assertions.catchThrowableOfType(RecoveryRequired.class,
          () -> load("main", LoadMode.APPEND, BOB));
    }
    try (AutoCloseable fp = FailpointControl.enableError("recovery.record_audit")) {
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("cy", 3))).isInstanceOf(FailpointControl.Injected.class);
    }
    // The roll-forward publish landed; the sidecar stays until the audit row is recorded.
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    assertThat(graph.recoveryAudit()).isEmpty();
    load("main", LoadMode.APPEND, person("cy", 3));
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(failure.operationId());
      assertThat(e.kind()).isEqualTo("RolledForward");
    });
    assertThat(sidecars()).isEmpty();
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob", "cy");
  }

  @Test
  void aPhaseAPutFailureAbortsWithNoEffect() {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput before = graph.snapshot("main");
    try (AutoCloseable fp = FailpointControl.enableError("recovery.sidecar_write")) {
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, BOB)).isInstanceOf(FailpointControl.Injected.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(sidecars()).isEmpty();
    assertPinsEqualHeads("main");
    load("main", LoadMode.APPEND, BOB);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
  }

  @Test
  void aPhaseDDeleteFailureReturnsSuccessAndTheNextWriteRetiresTheSidecar() throws Exception {
    dev.omnigraph.api.WriteResult r;
    try (AutoCloseable fp = FailpointControl.enableError("recovery.sidecar_delete")) {
      r = load("main", LoadMode.APPEND, BOB);
    }
    assertThat(r.commitId()).isPresent();
    assertThat(sidecars()).hasSize(1);
    load("main", LoadMode.APPEND, person("cy", 3));
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledForward"));
    assertThat(rows("main", "Person")).containsOnlyKeys("bob", "cy");
  }

  @Test
  void aListingFailureIsLoudAtWriteEntryAndAtOpen() throws Exception {
    try (AutoCloseable fp = FailpointControl.enableError("recovery.sidecar_list")) {
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, BOB)).isInstanceOf(FailpointControl.Injected.class);
      graph.close();
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(FailpointControl.Injected.class);
      graph = Omnigraph.open(config, OpenMode.READ_ONLY); // a read-only open does not list
    }
    assertThat(graph.snapshot("main").datasets()).allSatisfy(d -> assertThat(d.entityCount()).isZero());
  }

  @Test
  void corruptAndPreV9SidecarsAreRefusedLoudlyAndKept() {
    long published = graph.snapshot("main").graphManifestVersion();
    try (StorageAdapter s = StorageAdapters.open(config)) {
      s.put(SidecarStore.keyOf("01BADBADBADBADBADBADBADBAD"), "{not json".getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, BOB)).isInstanceOf(UnreadableSidecar.class);
      graph.close();
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(UnreadableSidecar.class)
          .hasMessageContaining("not JSON");
      s.delete(SidecarStore.keyOf("01BADBADBADBADBADBADBADBAD"));
      s.put(SidecarStore.keyOf("01OLDOLDOLDOLDOLDOLDOLDOLD"),
          "{\"operation_id\":\"x\",\"tables\":[]}".getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(UnreadableSidecar.class)
          .hasMessageContaining("pre-v9");
      assertThat(s.exists(SidecarStore.keyOf("01OLDOLDOLDOLDOLDOLDOLDOLD"))).isTrue();
      graph = Omnigraph.open(config, OpenMode.READ_ONLY);
      assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(published);
    }
  }

  @Test
  void emptyFutureAndCorruptSidecarsAreQuarantinedThroughTheAdapterAndWritesWorkAgain() {
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("", "empty file");
    cases.put("{\"format_version\": 10, \"writer_kind\": \"load\"}",
        "format_version 10 is newer than this build supports (9)");
    cases.put("{\"format_version\": 9, \"writer_kind\": ", "not JSON");
    int n = 0;
    try (StorageAdapter s = StorageAdapters.open(config)) {
      for (Map.Entry<String, String> c : cases.entrySet()) {
        String id = "01QUARANTINE000000000000" + (10 + n++);
        byte[] bytes = c.getKey().getBytes(StandardCharsets.UTF_8);
        s.put(SidecarStore.keyOf(id), bytes);
        assertThatThrownBy(() -> load("main", LoadMode.APPEND, BOB)).isInstanceOfSatisfying(UnreadableSidecar.class,
            e -> {
              assertThat(e.reason()).startsWith(c.getValue());
              assertThat(e.getMessage()).doesNotContain("pre-v9").contains("omnigraph recover --quarantine " + id);
            });
        assertThat(unreadable()).singleElement().satisfies(u -> assertThat(u.operationId()).isEqualTo(id));
        List<QuarantinedSidecar> seen = new java.util.ArrayList<>();
        QuarantinedSidecar q = RootContents.quarantineSidecar(config, id, seen::add);
        assertThat(seen).singleElement().satisfies(b -> assertThat(b.content()).isEqualTo(bytes));
        assertThat(q.quarantineKey()).isEqualTo(SidecarStore.QUARANTINE_PREFIX + "/" + id + ".json");
        assertThat(q.reason()).startsWith(c.getValue());
        assertThat(s.exists(SidecarStore.keyOf(id))).isFalse();
        assertThat(s.read(q.quarantineKey())).isEqualTo(bytes);
        assertThat(graph.pendingRecovery()).isEmpty();
      }
      load("main", LoadMode.APPEND, BOB);
      assertThat(rows("main", "Person")).containsOnlyKeys("bob");
      reopen(OpenMode.READ_WRITE);
      assertThat(graph.openRecovery()).isEmpty();
      assertThat(s.list(SidecarStore.QUARANTINE_PREFIX)).hasSize(3);
    }
  }

  @Test
  void quarantineRefusesAReadableSidecarAndChangesNothing() throws Exception {
    RecoveryRequired failure = armedWithEffect("main");
    graph.close();
    Map<String, Long> files = fingerprint();
    assertThatThrownBy(() -> RootContents.quarantineSidecar(config, failure.operationId(), q -> { }))
        .isInstanceOf(dev.omnigraph.api.InvalidRequest.class)
        .hasMessageContaining("is readable").hasMessageContaining("run omnigraph recover");
    assertThat(fingerprint()).isEqualTo(files);
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.openRecovery()).singleElement()
        .satisfies(o -> assertThat(o.operationId()).isEqualTo(failure.operationId()));
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aListedSidecarGoneBeforeItsReadIsAbsentNotAnError() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      assertThat(new SidecarStore(s).read(SidecarStore.keyOf("01GONEGONEGONEGONEGONEGONE"))).isEmpty();
    }
  }

  @Test
  void aFirstTouchRollbackRemovesTheOwnedRefWithoutPublishing() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    int featureCommits = graph.commits("feature", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    SnapshotOutput.Dataset people = dataset("main", "Person");
    armedWithEffect("feature");
    DataTables tables = new DataTables(config);
    assertThat(tables.branches().exists(TableRef.branch(people.datasetPath(), "feature"))).isTrue();
    reopen(OpenMode.READ_WRITE);
    assertThat(tables.branches().exists(TableRef.branch(people.datasetPath(), "feature"))).isFalse();
    assertThat(graph.commits("feature", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(featureCommits);
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo("RolledBack");
      assertThat(e.commitId()).isNull();
      assertThat(e.tableOutcomes()).contains("ref_removed");
    });
    load("feature", LoadMode.APPEND, BOB);
    assertThat(rows("feature", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
  }

  @Test
  void aSidecarOfADeletedBranchIsDiscardedAsAnOrphanAndItsRefReclaimed() throws Exception {
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    SnapshotOutput.Dataset people = dataset("main", "Person");
    armedWithEffect("feature");
    graph.branchDelete("feature", Optional.of("act-test"));
    reopen(OpenMode.READ_WRITE);
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("OrphanDiscarded"));
    assertThat(sidecars()).isEmpty();
    assertThat(new DataTables(config).branches().exists(TableRef.branch(people.datasetPath(), "feature"))).isFalse();
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    load("feature", LoadMode.APPEND, BOB);
    assertThat(rows("feature", "Person")).containsOnlyKeys("bob");
  }

  @Test
  void aFailedConfirmLeavesAnArmedIntentThatRollsBack() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    RecoveryRequired failure;
    try (AutoCloseable fp = FailpointControl.enableError("recovery.sidecar_confirm")) {
      failure = org.assertj.core.api.Assertions.catchThrowableOfType(RecoveryRequired.class,
          () -> load("main", LoadMode.APPEND, BOB));
    }
    assertThat(failure).isNotNull();
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    reopen(OpenMode.READ_WRITE);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledBack"));
    assertPinsEqualHeads("main");
  }

  @Test
  void aRecoveryInterruptedAfterItsPublishIsRecognisedAndAuditedOnce() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    armedWithEffect("main");
    graph.close();
    try (AutoCloseable fp = FailpointControl.enableError("recovery.after_publish")) {
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(FailpointControl.Injected.class);
    }
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.openRecovery()).singleElement()
        .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.ROLLBACK_PUBLISHED));
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledBack"));
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().stream().filter(c -> Recovery.RECOVERY_ACTOR.equals(c.actorId())))
        .hasSize(1);
    assertPinsEqualHeads("main");
  }

  private List<dev.omnigraph.api.UnreadableSidecar> unreadable() {
    try (RootContents contents = RootContents.open(config)) {
      return contents.unreadableSidecars();
    }
  }
}
