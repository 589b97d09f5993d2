package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.BranchMergeOutput;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.maintenance.CleanupReport;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 44, items 1 and 3: a graph branch name used again after a delete. A delete removes the
 * data-table refs the branch forked (its first write to each table), a create reclaims what an
 * interrupted delete left, a ref another ref was forked from is kept and the name refused, and a
 * write that loses its branch to a delete is {@link NotFound} with nothing left behind.
 */
abstract class AbstractBranchReuseTest extends AbstractGraphFixture {

  /**
   * Cycles of create, write, delete with one name. Issue 44's acceptance is 100 on each backend:
   * the long profile ({@code ./mvnw -B -Plong verify}) runs them; the default run does 12 (every
   * path of the cycle, both delete routes, in about a tenth of the time).
   */
  protected int cycles() {
    return Integer.getInteger("omnigraph.test.reuse.cycles", 12);
  }

  private List<String> refNames(String type) {
    return new DataTables(config).branches().list(dataset("main", type).datasetPath()).stream().map(NativeBranch::name)
        .toList();
  }

  @Test
  void aBranchNameReusedAHundredTimesWritesEveryTimeAndLeavesNothingBehind() {
    load("main", LoadMode.APPEND, person("root", 1));
    for (int i = 0; i < cycles(); i++) {
      graph.branchCreate("review", "main", Optional.of("act-test"));
      load("review", LoadMode.APPEND, person("p" + i, i % 100),
          "{\"edge\":\"Knows\",\"from\":\"p" + i + "\",\"to\":\"root\"}");
      assertThat(dataset("review", "Person").nativeDatasetBranch()).isEqualTo("review");
      // root, one row per earlier merge (odd cycles) and this cycle's row
      assertThat(dataset("review", "Person").entityCount()).as("cycle %d", i).isEqualTo(2 + i / 2);
      if (i % 2 == 0) {
        graph.branchDelete("review", Optional.of("act-test"));
      } else {
        // The README's review flow: merge with --delete-branch, then a new review branch.
        BranchMergeOutput out = graph.branchMerge("review", "main", true, Optional.of("act-test"));
        assertThat(out.branchDeleted()).isTrue();
      }
      assertThat(refNames("Person")).as("cycle %d", i).doesNotContain("review");
      assertThat(refNames("Knows")).as("cycle %d", i).doesNotContain("review");
      if (i % 2 == 0) {
        continue;
      }
      assertThat(rows("main", "Person")).as("cycle %d", i).containsKey("p" + i).doesNotContainKey("p" + (i - 1));
    }
    assertThat(graph.branchList().branches()).containsExactly("main");
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(1 + cycles() / 2);
    RepairReport repair = graph.repair(false);
    assertThat(repair.empty()).as("repair finds nothing: %s", repair).isTrue();
    assertThat(graph.driftCheck().clean()).isTrue();
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aDeleteInterruptedBeforeItsTableRefsLeavesThemToTheNextCreateAndToCleanup() throws Exception {
    graph.branchCreate("r", "main", Optional.empty());
    load("r", LoadMode.APPEND, person("ann", 1));
    try (AutoCloseable fp = FailpointControl.enableError("branch_delete.before_table_refs")) {
      assertThatThrownBy(() -> graph.branchDelete("r", Optional.empty())).isInstanceOf(RuntimeException.class);
    }
    assertThat(graph.branchList().branches()).containsExactly("main");
    assertThat(refNames("Person")).containsExactly("r");

    // Garbage that blocks nothing: repair reports it and stays clean.
    RepairReport found = graph.repair(false);
    assertThat(found.clean()).isTrue();
    assertThat(found.leftoverRefs()).singleElement().satisfies(l -> {
      assertThat(l.nativeBranch()).isEqualTo("r");
      assertThat(l.tableKey()).isEqualTo("node:Person");
      assertThat(l.keptBecause()).isNull();
      assertThat(l.removed()).isFalse();
    });

    // The next create of the name reclaims it, and the new branch's first write forks its own ref.
    graph.branchCreate("r", "main", Optional.empty());
    assertThat(refNames("Person")).isEmpty();
    load("r", LoadMode.APPEND, person("bob", 2));
    assertThat(rows("r", "Person")).containsOnlyKeys("bob");

    // The same leftover under another name: cleanup removes it.
    graph.branchCreate("s", "main", Optional.empty());
    load("s", LoadMode.APPEND, person("cid", 3));
    try (AutoCloseable fp = FailpointControl.enableError("branch_delete.before_table_refs")) {
      assertThatThrownBy(() -> graph.branchDelete("s", Optional.empty())).isInstanceOf(RuntimeException.class);
    }
    assertThat(refNames("Person")).containsExactlyInAnyOrder("r", "s");
    CleanupReport dry = graph.cleanup(true);
    assertThat(dry.leftoverRefs()).extracting(RepairReport.LeftoverRef::nativeBranch).containsExactly("s");
    assertThat(refNames("Person")).containsExactlyInAnyOrder("r", "s");
    CleanupReport cleaned = graph.cleanup(false);
    assertThat(cleaned.leftoverRefs()).singleElement().satisfies(l -> assertThat(l.removed()).isTrue());
    assertThat(refNames("Person")).containsExactly("r");
    assertThat(graph.repair(false).empty()).isTrue();
    assertThat(rows("r", "Person")).containsOnlyKeys("bob");
  }

  @Test
  void aRefAnotherRefWasForkedFromIsKeptAndItsNameRefusedUntilNothingNeedsIt() {
    graph.branchCreate("agent", "main", Optional.empty());
    load("agent", LoadMode.APPEND, person("ann", 1));
    graph.branchCreate("feature", "main", Optional.empty());
    // A Lance ref forked from agent's ref, named after a live branch: what a merge's ref-only fork
    // into a branch that owned no ref made before fast-forwards forked from the target's own pin,
    // and what a root written by an older build may hold. Lance reads its files through agent's.
    SnapshotOutputs.Pin agent = SnapshotOutputs.pin(graph, "agent", "Person");
    new DataTables(config).branches().create(agent.location(), "feature", Optional.of("agent"), agent.version());
    graph.branchDelete("agent", Optional.empty());

    // feature's ref reads through agent's ref: it stays, reported as kept, and cleanup keeps it.
    assertThat(refNames("Person")).containsExactlyInAnyOrder("agent", "feature");
    RepairReport found = graph.repair(false);
    assertThat(found.leftoverRefs()).singleElement().satisfies(l -> {
      assertThat(l.nativeBranch()).isEqualTo("agent");
      assertThat(l.keptBecause()).contains("[feature]");
    });
    assertThat(graph.cleanup(false).leftoverRefs()).singleElement()
        .satisfies(l -> assertThat(l.removed()).isFalse());
    assertThat(refNames("Person")).containsExactlyInAnyOrder("agent", "feature");
    assertThatThrownBy(() -> graph.branchCreate("agent", "main", Optional.empty()))
        .isInstanceOf(Conflict.class)
        .hasMessageContaining("branch name 'agent' cannot be reused yet")
        .hasMessageContaining("node:Person");
    assertThat(graph.branchList().branches()).containsExactly("main", "feature");

    // Once nothing needs it, the name is free again.
    graph.branchDelete("feature", Optional.empty());
    graph.branchCreate("agent", "main", Optional.empty());
    assertThat(refNames("Person")).isEmpty();
    load("agent", LoadMode.APPEND, person("bob", 2));
    assertThat(rows("agent", "Person")).containsOnlyKeys("bob");
    assertThat(graph.repair(false).empty()).isTrue();
  }

  /** A table pin as a snapshot shows it. */
  private static final class SnapshotOutputs {
    record Pin(String location, long version) {}

    static Pin pin(Omnigraph g, String branch, String type) {
      var d = g.snapshot(branch).datasets().stream().filter(x -> x.typeName().equals(type)).findFirst().orElseThrow();
      return new Pin(d.datasetPath(), d.publishedDatasetVersion());
    }
  }

  @Test
  void aWriteThatLosesItsBranchToADeleteIsNotFoundAndLeavesNoRef() throws Exception {
    graph.branchCreate("doomed", "main", Optional.empty());
    AtomicBoolean once = new AtomicBoolean();
    // Between the write's capture (outside the gates) and its gates, the branch is deleted.
    try (AutoCloseable fp = FailpointControl.enable("write.after_prepare", () -> {
      if (once.compareAndSet(false, true)) {
        graph.branchDelete("doomed", Optional.empty());
      }
    })) {
      assertThatThrownBy(() -> load("doomed", LoadMode.APPEND, person("ann", 1)))
          .isInstanceOfSatisfying(NotFound.class, e -> assertThat(e.getMessage()).contains("doomed"));
    }
    assertThat(once).isTrue();
    assertThat(graph.branchList().branches()).containsExactly("main");
    assertThat(refNames("Person")).isEmpty();
    assertThat(sidecars()).isEmpty();
    assertThat(graph.repair(false).empty()).isTrue();
  }
}
