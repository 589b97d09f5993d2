package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.CleanupReport;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.recovery.SidecarStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code cleanup} against real Lance, once per backend. */
abstract class AbstractCleanupTest extends AbstractMaintenanceFixture {

  @Test
  void removesRolledBackAndDriftedVersionsAndEveryCommitStillReadsTheSame() throws Exception {
    // Init pins Person v2 (v1 is the creation, v2 its id index): v1 is unpinned from the start.
    load("main", person("ann")); // Person v3
    // A rolled-back version: the effect lands (v4), the attempt fails before confirming, and the
    // quiesced recovery restores the pin (v5, published by the rollback commit).
    pendingSidecar("write.after_table_commit", "main", person("bob"));
    assertThat(graph.recover()).singleElement().satisfies(o -> assertThat(o.auditKind()).isEqualTo("RolledBack"));
    // A drifted version: an unpublished effect (v6), restored away by repair (v7).
    drift("main", person("cy"));
    graph.repair(true);
    load("main", person("dan")); // v8
    SnapshotOutput.Dataset person = dataset("main", "Person");
    assertThat(person.publishedDatasetVersion()).isEqualTo(8);
    assertThat(versions(person)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    Map<String, Map<String, TreeSet<String>>> before = everyCommit("main");
    assertThat(before).hasSize(5);

    CleanupReport dry = graph.cleanup(true);
    assertThat(dry.dryRun()).isTrue();
    assertThat(dry.commitsScanned()).isEqualTo(5);
    assertThat(dry.tables()).hasSize(4);
    CleanupReport.TableCleanup planned = entry(dry, "node:Person");
    assertThat(planned.removedVersions()).containsExactly(1L, 4L, 6L);
    assertThat(planned.pinnedVersions()).containsExactly(2L, 3L, 5L, 7L, 8L);
    assertThat(planned.retainFrom()).isEqualTo(8);
    assertThat(planned.bytesRemoved()).isNull();
    assertThat(versions(person)).hasSize(8);
    assertThat(tables.versions().pinTags(person.datasetPath())).isEmpty();

    CleanupReport done = graph.cleanup(false);
    assertThat(done.dryRun()).isFalse();
    CleanupReport.TableCleanup removed = entry(done, "node:Person");
    assertThat(removed.removedVersions()).containsExactly(1L, 4L, 6L);
    assertThat(removed.bytesRemoved()).isPositive();
    // The other tables lose only init's unpinned versions: the creation and, on an edge table,
    // the commits of its first two key indexes.
    assertThat(done.tables()).filteredOn(t -> !t.tableKey().equals("node:Person"))
        .allSatisfy(t -> assertThat(t.removedVersions())
            .isEqualTo(t.tableKey().startsWith("edge:") ? List.of(1L, 2L, 3L) : List.of(1L)));
    assertThat(versions(person)).containsExactly(2L, 3L, 5L, 7L, 8L);

    // Time travel to every commit reads exactly what it read before.
    assertThat(everyCommit("main")).isEqualTo(before);
    assertThat(graph.cleanup(false).versionsRemoved()).isZero();
    assertThat(graph.repair(false).clean()).isTrue();
    load("main", person("eve"));
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "dan", "eve");
  }

  @Test
  void branchesKeepTheirForkAndInheritedVersions() throws Exception {
    load("main", person("ann")); // main Person v3 (init pinned v2: creation + id index)
    graph.branchCreate("feature", "main", Optional.empty());
    load("feature", person("bob")); // feature's Lance branch forks at 3, writes 4
    load("main", person("cy")); // main v4
    load("feature", person("dan")); // feature v5
    drift("feature", person("eve")); // feature v6, unpublished
    graph.repair(true); // feature v7 = content of v5
    Map<String, Map<String, TreeSet<String>>> before = everyCommit("main", "feature");

    CleanupReport done = graph.cleanup(false);
    SnapshotOutput.Dataset featurePerson = dataset("feature", "Person");
    CleanupReport.TableCleanup onFeature = done.tables().stream()
        .filter(t -> t.tableKey().equals("node:Person") && "feature".equals(t.nativeBranch())).findFirst().orElseThrow();
    assertThat(onFeature.pinnedVersions()).containsExactly(4L, 5L, 7L);
    assertThat(onFeature.removedVersions()).contains(6L).doesNotContain(4L, 5L, 7L);
    CleanupReport.TableCleanup onMain = done.tables().stream()
        .filter(t -> t.tableKey().equals("node:Person") && t.nativeBranch() == null).findFirst().orElseThrow();
    assertThat(onMain.removedVersions()).containsExactly(1L); // init's unpinned creation version
    assertThat(versions(featurePerson)).contains(4L, 5L, 7L).doesNotContain(6L);

    assertThat(everyCommit("main", "feature")).isEqualTo(before);
    assertThat(ids(featurePerson)).containsExactly("ann", "bob", "dan");
    load("feature", person("fay"));
    load("main", person("gus"));
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "bob", "dan", "fay");
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "cy", "gus");
  }

  @Test
  void cleanupRefusesWhileASidecarIsPendingAndRemovesNothing() throws Exception {
    load("main", person("ann"));
    drift("main", person("bob"));
    graph.repair(true); // leaves an unpinned version for cleanup to find
    SnapshotOutput.Dataset person = dataset("main", "Person");
    List<Long> versions = versions(person);
    var failure = pendingSidecar("write.before_publish", "main", person("cy"));
    String key = SidecarStore.keyOf(failure.operationId());
    List<Long> withPending = versions(person);
    for (boolean dryRun : new boolean[] {true, false}) {
      assertThatThrownBy(() -> graph.cleanup(dryRun)).isInstanceOfSatisfying(RecoveryPending.class, e -> {
        assertThat(e.operation()).isEqualTo("cleanup");
        assertThat(e.pendingSidecars()).containsExactly(key);
        assertThat(e.getMessage()).contains("omnigraph recover");
      });
    }
    assertThat(versions(person)).isEqualTo(withPending).containsAll(versions);
    assertThat(tables.versions().pinTags(person.datasetPath())).isEmpty();

    graph.recover();
    // The repaired-away version, plus init's unpinned versions: each table's creation and an edge
    // table's first two index commits (2 node tables x 1 + 2 edge tables x 3).
    assertThat(graph.cleanup(false).versionsRemoved()).isEqualTo(1 + 8);
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "cy");
  }

  private static CleanupReport.TableCleanup entry(CleanupReport r, String tableKey) {
    return r.tables().stream().filter(t -> t.tableKey().equals(tableKey)).findFirst().orElseThrow();
  }
}
