package dev.omnigraph.maintenance;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.InvariantViolation;
import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.util.Ulid;
import dev.omnigraph.api.UncoveredDrift;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code repair} against real Lance, once per backend. */
abstract class AbstractRepairTest extends AbstractMaintenanceFixture {

  @Test
  void aGraphWithoutDriftReportsNothingAndApplyPublishesNothing() {
    load("main", person("ann"));
    RepairReport dry = graph.repair(false);
    assertThat(dry.clean()).isTrue();
    assertThat(dry.applied()).isFalse();
    assertThat(dry.pinsChecked()).isEqualTo(4);
    RepairReport applied = graph.repair(true);
    assertThat(applied.clean()).isTrue();
    assertThat(applied.commits()).isEmpty();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
  }

  @Test
  void uncoveredDriftIsExplainedAndApplyRestoresThePinnedContent() throws Exception {
    load("main", person("ann"));
    SnapshotOutput.Dataset pinned = dataset("main", "Person");
    TreeSet<String> before = ids(pinned);
    int commitsBefore = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();

    RecoverySidecar orphan = drift("main", person("bob"));
    assertThat(head(pinned)).isEqualTo(pinned.publishedDatasetVersion() + 1);
    assertThatThrownBy(() -> load("main", person("cy")))
        .isInstanceOfSatisfying(UncoveredDrift.class, e -> assertThat(e.tableKey()).isEqualTo("node:Person"));

    RepairReport dry = graph.repair(false);
    assertThat(dry.applied()).isFalse();
    assertThat(dry.unreferencedRefs()).isEmpty();
    assertThat(dry.invariantViolations()).isEmpty();
    assertThat(dry.commits()).isEmpty();
    assertThat(dry.drift()).singleElement().satisfies(d -> {
      assertThat(d.branch()).isEqualTo("main");
      assertThat(d.tableKey()).isEqualTo("node:Person");
      assertThat(d.location()).isEqualTo(pinned.datasetPath());
      assertThat(d.nativeBranch()).isNull();
      assertThat(d.pinnedVersion()).isEqualTo(pinned.publishedDatasetVersion());
      assertThat(d.liveHead()).isEqualTo(pinned.publishedDatasetVersion() + 1);
      assertThat(d.restoredHead()).isNull();
      assertThat(d.transactions()).singleElement().satisfies(t -> {
        assertThat(t.version()).isEqualTo(pinned.publishedDatasetVersion() + 1);
        assertThat(t.uuid()).isEqualTo(orphan.tables().get(0).uuid());
        assertThat(t.readVersion()).isEqualTo(pinned.publishedDatasetVersion());
        assertThat(t.operation()).isEqualTo("Update");
        assertThat(t.properties()).containsEntry("omnigraph.insert_absence", "v1");
        assertThat(t.error()).isNull();
      });
    });
    // A dry run writes nothing.
    assertThat(head(pinned)).isEqualTo(pinned.publishedDatasetVersion() + 1);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(commitsBefore);

    RepairReport applied = graph.repair(true);
    assertThat(applied.applied()).isTrue();
    assertThat(applied.drift()).singleElement().satisfies(d -> {
      assertThat(d.liveHead()).isEqualTo(pinned.publishedDatasetVersion() + 1);
      assertThat(d.restoredHead()).isEqualTo(pinned.publishedDatasetVersion() + 2);
    });
    assertThat(applied.commits()).singleElement().satisfies(c -> {
      assertThat(c.branch()).isEqualTo("main");
      assertThat(c.tableKeys()).containsExactly("node:Person");
      assertThat(graph.commit(c.commitId()).actorId()).isEqualTo(Maintenance.REPAIR_ACTOR);
      assertThat(graph.snapshot("main").graphManifestVersion()).isGreaterThanOrEqualTo(c.manifestVersion());
    });
    SnapshotOutput.Dataset repaired = dataset("main", "Person");
    assertThat(repaired.publishedDatasetVersion()).isEqualTo(pinned.publishedDatasetVersion() + 2);
    assertThat(head(repaired)).isEqualTo(repaired.publishedDatasetVersion());
    assertThat(ids(repaired)).isEqualTo(before);
    assertThat(repaired.entityCount()).isEqualTo(pinned.entityCount());
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(commitsBefore + 1);
    assertThat(graph.repair(false).clean()).isTrue();

    // Writes work again, on top of the pinned content.
    load("main", person("cy"));
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "cy");
  }

  @Test
  void aRepairInterruptedAfterItsRestoreConvergesWhenRunAgain() throws Exception {
    load("main", person("ann"));
    SnapshotOutput.Dataset pinned = dataset("main", "Person");
    TreeSet<String> before = ids(pinned);
    drift("main", person("bob"));
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("repair.after_restore")) {
      assertThatThrownBy(() -> graph.repair(true)).isInstanceOf(dev.omnigraph.util.FailpointControl.Injected.class);
    }
    // The restore landed but nothing was published: still drift (our drift commit, then the restore).
    assertThat(head(pinned)).isEqualTo(pinned.publishedDatasetVersion() + 2);
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(pinned.publishedDatasetVersion());
    assertThat(graph.repair(false).drift()).singleElement()
        .satisfies(d -> assertThat(d.liveHead()).isEqualTo(pinned.publishedDatasetVersion() + 2));
    graph.repair(true);
    SnapshotOutput.Dataset repaired = dataset("main", "Person");
    assertThat(head(repaired)).isEqualTo(repaired.publishedDatasetVersion());
    assertThat(ids(repaired)).isEqualTo(before);
    assertThat(graph.repair(false).clean()).isTrue();
    load("main", person("cy"));
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "cy");
  }

  @Test
  void driftOnABranchIsRepairedOnThatBranchAndInheritedPinsNeverCountAsDrift() throws Exception {
    load("main", person("ann"));
    graph.branchCreate("feature", "main", Optional.empty());
    load("feature", person("bob")); // first touch: feature's own Lance branch of Person
    load("main", person("cy")); // main moves on: feature's inherited pins of other tables lag by design
    assertThat(graph.repair(false).clean()).isTrue();

    SnapshotOutput.Dataset pinned = dataset("feature", "Person");
    assertThat(pinned.nativeDatasetBranch()).isEqualTo("feature");
    RecoverySidecar orphan = drift("feature", person("dan"));
    int mainCommits = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();

    RepairReport dry = graph.repair(false);
    assertThat(dry.drift()).singleElement().satisfies(d -> {
      assertThat(d.branch()).isEqualTo("feature");
      assertThat(d.nativeBranch()).isEqualTo("feature");
      assertThat(d.pinnedVersion()).isEqualTo(pinned.publishedDatasetVersion());
      assertThat(d.liveHead()).isEqualTo(pinned.publishedDatasetVersion() + 1);
      assertThat(d.transactions()).singleElement()
          .satisfies(t -> assertThat(t.uuid()).isEqualTo(orphan.tables().get(0).uuid()));
    });

    RepairReport applied = graph.repair(true);
    assertThat(applied.commits()).singleElement().satisfies(c -> assertThat(c.branch()).isEqualTo("feature"));
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(mainCommits);
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "bob");
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "cy");
    load("feature", person("dan"));
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "bob", "dan");
    assertThat(graph.repair(false).clean()).isTrue();
  }

  @Test
  void anUnreferencedFirstTouchRefIsReportedAndApplyDeletesIt() throws Exception {
    load("main", person("ann"));
    graph.branchCreate("feature", "main", Optional.empty());
    RecoverySidecar orphan = drift("feature", person("bob")); // the first-touch ref exists, unpublished
    assertThat(dataset("feature", "Person").nativeDatasetBranch()).isNull();
    assertThatThrownBy(() -> load("feature", person("cy"))).isInstanceOf(UncoveredDrift.class);

    RepairReport dry = graph.repair(false);
    assertThat(dry.drift()).isEmpty();
    assertThat(dry.unreferencedRefs()).singleElement().satisfies(u -> {
      assertThat(u.branch()).isEqualTo("feature");
      assertThat(u.tableKey()).isEqualTo("node:Person");
      assertThat(u.nativeBranch()).isEqualTo("feature");
      assertThat(u.head()).isEqualTo(u.forkVersion() + 1);
      assertThat(u.transactions()).singleElement()
          .satisfies(t -> assertThat(t.uuid()).isEqualTo(orphan.tables().get(0).uuid()));
      assertThat(u.removed()).isFalse();
    });

    RepairReport applied = graph.repair(true);
    assertThat(applied.unreferencedRefs()).singleElement().satisfies(u -> {
      assertThat(u.removed()).isTrue();
      assertThat(u.keptBecause()).isNull();
    });
    assertThat(applied.commits()).isEmpty();
    load("feature", person("cy"));
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "cy");
    assertThat(graph.repair(false).clean()).isTrue();
  }

  @Test
  void repairRefusesWhileASidecarIsPendingAndNamesIt() throws Exception {
    load("main", person("ann"));
    var failure = pendingSidecar("write.before_publish", "main", person("bob"));
    String key = SidecarStore.keyOf(failure.operationId());
    for (boolean apply : new boolean[] {false, true}) {
      assertThatThrownBy(() -> graph.repair(apply)).isInstanceOfSatisfying(RecoveryPending.class, e -> {
        assertThat(e.operation()).isEqualTo("repair");
        assertThat(e.pendingSidecars()).containsExactly(key);
        assertThat(e.getMessage()).contains(key).contains("omnigraph recover");
      });
    }
    assertThat(sidecars()).containsExactly(key);
    assertThat(graph.recover()).singleElement()
        .satisfies(o -> assertThat(o.operationId()).isEqualTo(failure.operationId()));
    assertThat(graph.repair(false).clean()).isTrue();
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "bob");
  }

  @Test
  void aHeadBehindItsPinIsReportedLoudlyAndNeverFixed() {
    load("main", person("ann"));
    TablePin pin;
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      GraphManifest manifest = new GraphManifest(config, storage);
      ManifestState state = manifest.state("main");
      pin = state.tables().get(TableKey.node("Person"));
      // A manifest pin no Lance version backs: only a bug or a hand-edited store produces this.
      new ManifestBatchPublisher(config).publish(new ManifestBatchPublisher.Intent("main", Optional.empty(),
          state.effectiveHead(List.of()), List.of(), List.of(new TableVersionUpdate(pin.tableKey(), pin.identity(),
              pin.location(), pin.version() + 5, Optional.empty(), pin.rowCount())), Ulid.next(),
          Optional.of("act-test"), Optional.empty(), System.currentTimeMillis() * 1000));
    }
    int commits = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    RepairReport dry = graph.repair(false);
    assertThat(dry.drift()).isEmpty();
    assertThat(dry.invariantViolations()).singleElement().satisfies(v -> {
      assertThat(v.tableKey()).isEqualTo("node:Person");
      assertThat(v.pinnedVersion()).isEqualTo(pin.version() + 5);
      assertThat(v.liveHead()).isEqualTo(pin.version());
    });
    assertThatThrownBy(() -> graph.repair(true)).isInstanceOfSatisfying(InvariantViolation.class,
        e -> assertThat(e.members()).singleElement().asString().contains("node:Person"));
    assertThatThrownBy(() -> graph.cleanup(false)).isInstanceOf(InvariantViolation.class);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(commits);
    assertThat(tables.head(TableRef.main(pin.location()))).isEqualTo(pin.version());
  }
}
