package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.BranchMergeOutput;
import dev.omnigraph.api.ChangeOp;
import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeConflicts;
import dev.omnigraph.api.MergeOutcome;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Branch merge (issue 14) through the engine, against real Lance, once per backend: each outcome,
 * each conflict kind produced by real writes on two branches (exact ids), the authority rules
 * between capture and arm, the chunked chain, and recovery of a merge interrupted after its
 * sidecar armed.
 */
abstract class AbstractMergeTest extends AbstractGraphFixture {

  private static final String GQ = resource("/graphs/people.gq");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String resource(String name) {
    try (var in = AbstractMergeTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private void mutate(String branch, String name, String params) {
    try {
      graph.mutate(branch, GQ, name, JSON.readTree(params), Optional.of("act-test"), Optional.empty());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private BranchMergeOutput merge(String source, String target) {
    return graph.branchMerge(source, target, false, Optional.of("act-merge"));
  }

  private String head(String branch) {
    return graph.commits(branch, CommitPage.first(1)).commits().get(0).graphCommitId();
  }

  private Map<String, Map<String, Object>> edges(String branch, String type) {
    SnapshotOutput.Dataset d = dataset(branch, type);
    Map<String, Map<String, Object>> out = new TreeMap<>();
    new DataTables(config).scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()),
        d.publishedDatasetVersion(), Filter.TRUE, List.of("id", "src", "dst"),
        r -> out.put(String.valueOf(r.get("id")), r));
    return out;
  }

  /** Every table's pin on {@code branch} equals its live Lance HEAD. */
  private void assertPinsAreHeads(String branch) {
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      assertThat(tables.head(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch())))
          .as("HEAD of %s on %s", d.typeName(), branch).isEqualTo(d.publishedDatasetVersion());
    }
  }

  private void branch(String name) {
    graph.branchCreate(name, "main", Optional.of("act-test"));
  }

  @Test
  void aFastForwardAdoptsTheSourceInOneCommitWithBothParents() {
    load("main", LoadMode.APPEND, person("alice", 30));
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40), person("carol", 50));
    String mainHead = head("main");
    String featureHead = head("feature");

    BranchMergeOutput out = merge("feature", "main");

    assertThat(out.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(out.source()).isEqualTo("feature");
    assertThat(out.target()).isEqualTo("main");
    assertThat(out.branchDeleted()).isNull();
    assertThat(rows("main", "Person")).containsOnlyKeys("alice", "bob", "carol");
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(3);
    assertThat(dataset("main", "Person").nativeDatasetBranch()).as("main keeps its own lineage").isNull();
    CommitOutput c = graph.commits("main", CommitPage.first(1)).commits().get(0);
    assertThat(c.graphCommitId()).isEqualTo(out.commitId());
    assertThat(c.parentCommitId()).isEqualTo(mainHead);
    assertThat(c.mergedParentCommitId()).isEqualTo(featureHead);
    assertThat(c.actorId()).isEqualTo("act-merge");
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();
    // The source is untouched.
    assertThat(rows("feature", "Person")).containsOnlyKeys("alice", "bob", "carol");
    assertThat(head("feature")).isEqualTo(featureHead);
  }

  /** One single-row load: one commit, one lineage fragment. */
  private static void loadOne(Omnigraph g, String branch, String name, int age) {
    g.load(branch, new java.io.StringReader(person(name, age)), LoadMode.APPEND, Optional.of("act-test"));
  }

  /**
   * A handle with automatic compaction off (no maintenance commit may touch the manifest), after
   * twelve commits on main, each its own lineage fragment (no merge-down yet), and a branch
   * {@code feature} forked from main's head.
   */
  private Omnigraph twelveCommitsOnMainThenFeature() {
    Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE, dev.omnigraph.api.maintenance.OptimizeSettings.disabled());
    for (int i = 0; i < 12; i++) {
      loadOne(g, "main", "m" + i, i);
    }
    g.branchCreate("feature", "main", Optional.of("act-test"));
    return g;
  }

  private static long manifestScans() {
    return dev.omnigraph.storage.StoreRequests.count(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.MANIFEST);
  }

  @Test
  void aFastForwardReadsNoLineageWhateverTheTargetsHistory() {
    // Reading both lineages whole, as the merge base once did, took about 26 manifest scans; the
    // feature's state already shows main's head as its fork point, which proves the fast forward.
    try (Omnigraph g = twelveCommitsOnMainThenFeature()) {
      loadOne(g, "feature", "f", 1);
      long before = manifestScans();

      BranchMergeOutput out = g.branchMerge("feature", "main", false, Optional.of("act-merge"));

      long scans = manifestScans() - before;
      assertThat(out.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
      assertThat(scans).as("manifest scans of a fast-forward merge").isZero();
      assertThat(g.commits("main", CommitPage.first(1)).commits().get(0).mergedParentCommitId())
          .isEqualTo(g.commits("feature", CommitPage.first(1)).commits().get(0).graphCommitId());
    }
    assertThat(rows("main", "Person")).hasSize(13);
  }

  @Test
  void aDivergedMergeReadsEachLineageOnlyBackToTheForkPoint() {
    // One commit on each side after the fork: the base is main's head at the fork, proven by
    // reading each side's lineage back to it. Reading both lineages whole, as the merge base once
    // did, took 29 manifest scans here; now 4 lineage reads and the base state.
    try (Omnigraph g = twelveCommitsOnMainThenFeature()) {
      String fork = g.commits("main", CommitPage.first(1)).commits().get(0).graphCommitId();
      loadOne(g, "feature", "f", 1);
      loadOne(g, "main", "m12", 12);
      long before = manifestScans();

      BranchMergeOutput out = g.branchMerge("feature", "main", false, Optional.of("act-merge"));

      long scans = manifestScans() - before;
      assertThat(out.outcome()).isEqualTo(MergeOutcome.MERGED);
      assertThat(scans).as("manifest scans of a diverged merge").isLessThanOrEqualTo(5);
      assertThat(fork).isNotNull();
    }
    assertThat(rows("main", "Person")).hasSize(14);
  }

  @Test
  void aMergedSourceIsAlreadyUpToDateAndWritesNothing() {
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40));
    merge("feature", "main");
    long version = graph.snapshot("main").graphManifestVersion();

    BranchMergeOutput again = merge("feature", "main");

    assertThat(again.outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
    assertThat(again.commitId()).isNull();
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);
    // A branch created from the target's head is up to date with it.
    branch("late");
    assertThat(merge("late", "main").outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
  }

  @Test
  void divergedBranchesMergeThreeWayIntoOneCommitWithTwoParents() {
    load("main", LoadMode.APPEND, person("alice", 30), person("bob", 40));
    branch("feature");
    load("main", LoadMode.APPEND, person("carol", 50));
    mutate("main", "set_age", "{\"name\":\"alice\",\"age\":31}");
    load("feature", LoadMode.APPEND, person("dave", 60));
    mutate("feature", "forget", "{\"name\":\"bob\"}");
    String mainHead = head("main");
    String featureHead = head("feature");

    BranchMergeOutput out = merge("feature", "main");

    assertThat(out.outcome()).isEqualTo(MergeOutcome.MERGED);
    Map<String, Map<String, Object>> after = rows("main", "Person");
    assertThat(after).containsOnlyKeys("alice", "carol", "dave");
    assertThat(after.get("alice").get("age")).isEqualTo(31);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(3);
    CommitOutput c = graph.commits("main", CommitPage.first(1)).commits().get(0);
    assertThat(c.parentCommitId()).isEqualTo(mainHead);
    assertThat(c.mergedParentCommitId()).isEqualTo(featureHead);
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();

    // The merge base moves to the merged source head: a later source change merges alone.
    load("feature", LoadMode.APPEND, person("erin", 70));
    assertThat(merge("feature", "main").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(rows("main", "Person")).containsOnlyKeys("alice", "carol", "dave", "erin");
  }

  @Test
  void aBranchMergesFromMainByPointerAndIntoABranchOnARefForkedFromItsOwnPin() {
    branch("reader");
    branch("writer");
    branch("second");
    SnapshotOutput.Dataset mainPersonBefore = dataset("main", "Person");
    load("writer", LoadMode.APPEND, person("bob", 40));

    // second still inherits main's Person: it forks its own ref from that pin (main's lineage) and
    // applies writer's delta there. Not a fork of writer's ref: a fork of a fork resolves the
    // indexes it inherits from main under writer's tree (lance-format/lance#7840; issue 47).
    assertThat(merge("writer", "second").outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    SnapshotOutput.Dataset forked = dataset("second", "Person");
    assertThat(forked.nativeDatasetBranch()).as("a ref of its own, forked from main's lineage").isEqualTo("second");
    assertThat(forked.publishedDatasetVersion()).isEqualTo(mainPersonBefore.publishedDatasetVersion() + 1);
    assertThat(new DataTables(config).branches().list(forked.datasetPath())).filteredOn(b -> b.name().equals("second"))
        .singleElement().satisfies(b -> assertThat(b.parent().filter(p -> !p.isEmpty() && !p.equals("main")))
            .as("the fork's parent ref").isEmpty());
    assertThat(rows("second", "Person")).containsOnlyKeys("bob");
    assertPinsAreHeads("second");

    load("main", LoadMode.APPEND, person("alice", 30));
    SnapshotOutput.Dataset mainPerson = dataset("main", "Person");
    // reader changed nothing: it adopts main's pin (main's lineage, which every branch reads).
    assertThat(merge("main", "reader").outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    SnapshotOutput.Dataset adopted = dataset("reader", "Person");
    assertThat(adopted.nativeDatasetBranch()).as("pointer-only: main's lineage").isNull();
    assertThat(adopted.publishedDatasetVersion()).isEqualTo(mainPerson.publishedDatasetVersion());
    assertThat(rows("reader", "Person")).containsOnlyKeys("alice");

    // Both changed Person: three-way, committed on second's own ref.
    assertThat(merge("main", "second").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(rows("second", "Person")).containsOnlyKeys("alice", "bob");
    assertThat(dataset("second", "Person").nativeDatasetBranch()).isEqualTo("second");
    assertThat(dataset("second", "Person").publishedDatasetVersion())
        .isEqualTo(forked.publishedDatasetVersion() + 1);
    assertPinsAreHeads("second");
    load("second", LoadMode.APPEND, person("carol", 50));
    assertThat(rows("second", "Person")).containsOnlyKeys("alice", "bob", "carol");
    assertThat(rows("main", "Person")).containsOnlyKeys("alice");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void twentyThousandNewRowsLandAsOneCommitThroughAThreeChunkChain() {
    branch("bulk");
    for (int part = 0; part < 3; part++) {
      int from = part * 7_000;
      int to = Math.min(20_000, from + 7_000);
      load("bulk", LoadMode.APPEND, IntStream.range(from, to).mapToObj(i -> person("p" + i, i % 150))
          .toArray(String[]::new));
    }
    long pinBefore = dataset("main", "Person").publishedDatasetVersion();
    int commitsBefore = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    dev.omnigraph.merge.MergeMemory.reset();

    BranchMergeOutput out = merge("bulk", "main");

    // Bounded memory: the changed table (20,000 rows) is larger than one batch, so it streamed
    // through the ordered cursors batch by batch (planner join + effect join, >= 3 batches each);
    // no batch and no chunk buffer held more than 8,192 rows or 32 MiB; the validation view
    // (id and email of each written row) stayed inside its budget.
    assertThat(dev.omnigraph.merge.MergeMemory.batches()).isGreaterThanOrEqualTo(6);
    assertThat(dev.omnigraph.merge.MergeMemory.maxBatchRows()).isLessThanOrEqualTo(8_192);
    assertThat(dev.omnigraph.merge.MergeMemory.maxBatchBytes()).isLessThanOrEqualTo(32L << 20);
    assertThat(dev.omnigraph.merge.MergeMemory.maxChunkRows()).isEqualTo(8_192);
    assertThat(dev.omnigraph.merge.MergeMemory.maxChunkBytes()).isLessThanOrEqualTo(32L << 20);
    assertThat(dev.omnigraph.merge.MergeMemory.maxValidationBytes()).isPositive().isLessThanOrEqualTo(32L << 20);

    assertThat(out.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(20_000);
    assertThat(rows("main", "Person")).hasSize(20_000).containsKeys("p0", "p8191", "p8192", "p19999");
    assertThat(dataset("main", "Person").publishedDatasetVersion()).as("8,192 + 8,192 + 3,616 rows")
        .isEqualTo(pinBefore + 3);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(commitsBefore + 1);
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();

    // Its diff streams in pages of the ceiling, in id (code point) order, each page resumed by token.
    ChangesPage page = ChangesPage.parse(Integer.toString(ChangesPage.MAX_LIMIT), null, List.of(), List.of(), List.of());
    List<Integer> sizes = new java.util.ArrayList<>();
    List<String> ends = new java.util.ArrayList<>();
    CommitChangesOutput p = graph.commitChanges(out.commitId(), page);
    while (true) {
      sizes.add(p.changes().size());
      assertThat(p.changes()).allSatisfy(c -> assertThat(c.op()).isEqualTo(ChangeOp.INSERT));
      ends.add(p.changes().get(0).id());
      ends.add(p.changes().get(p.changes().size() - 1).id());
      if (p.nextPageToken() == null) {
        break;
      }
      p = graph.commitChanges(out.commitId(), page.next(p.nextPageToken()));
    }
    assertThat(sizes).containsExactly(8_192, 8_192, 3_616);
    assertThat(ends.get(0)).isEqualTo("p0");
    assertThat(ends.get(ends.size() - 1)).isEqualTo("p9999");
  }

  @Test
  void everyConflictKindIsReportedWithItsExactIdAndNothingIsWritten() {
    load("main", LoadMode.APPEND, person("alice", 30), person("bob", 40), person("carol", 50), person("dave", 60),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}", "{\"type\":\"Company\",\"data\":{\"name\":\"globex\"}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"mallory\"}}");
    branch("feature");
    // DivergentInsert: erin inserted on both with different ages.
    load("main", LoadMode.APPEND, person("erin", 1));
    load("feature", LoadMode.APPEND, person("erin", 2));
    // DivergentUpdate: alice aged differently.
    mutate("main", "set_age", "{\"name\":\"alice\",\"age\":31}");
    mutate("feature", "set_age", "{\"name\":\"alice\",\"age\":32}");
    // DeleteVsUpdate: bob deleted on main, aged on feature.
    mutate("main", "forget", "{\"name\":\"bob\"}");
    mutate("feature", "set_age", "{\"name\":\"bob\",\"age\":41}");
    // OrphanEdge: feature links mallory, whom main deletes.
    mutate("main", "forget", "{\"name\":\"mallory\"}");
    load("feature", LoadMode.APPEND, "{\"edge\":\"Knows\",\"from\":\"mallory\",\"to\":\"dave\"}");
    // UniqueViolation: one email given to carol on main and to dave on feature.
    load("main", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"carol\",\"age\":50,\"email\":\"x@y\"}}");
    load("feature", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"dave\",\"age\":60,\"email\":\"x@y\"}}");
    // CardinalityViolation: WorksAt @card(0..1), carol works at acme on main and globex on feature.
    load("main", LoadMode.APPEND, "{\"edge\":\"WorksAt\",\"from\":\"carol\",\"to\":\"acme\"}");
    load("feature", LoadMode.APPEND, "{\"edge\":\"WorksAt\",\"from\":\"carol\",\"to\":\"globex\"}");
    long version = graph.snapshot("main").graphManifestVersion();
    String orphan = edges("feature", "Knows").keySet().iterator().next();

    // The row-level three-way conflicts are reported first, all of them.
    assertThatThrownBy(() -> merge("feature", "main")).isInstanceOfSatisfying(MergeConflicts.class, e ->
        assertThat(e.conflicts()).extracting(MergeConflict::kind, MergeConflict::entityKind, MergeConflict::typeName,
            MergeConflict::entityId).containsExactly(
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.DIVERGENT_UPDATE, "node", "Person", "alice"),
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.DELETE_VS_UPDATE, "node", "Person", "bob"),
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.DIVERGENT_INSERT, "node", "Person", "erin")));
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);

    // Resolve them on the source; the merged result's own violations are reported next.
    mutate("feature", "set_age", "{\"name\":\"alice\",\"age\":31}");
    mutate("feature", "forget", "{\"name\":\"bob\"}");
    mutate("feature", "forget", "{\"name\":\"erin\"}");
    load("feature", LoadMode.APPEND, person("erin", 1));
    assertThatThrownBy(() -> merge("feature", "main")).isInstanceOfSatisfying(MergeConflicts.class, e ->
        assertThat(e.conflicts()).extracting(MergeConflict::kind, MergeConflict::entityKind, MergeConflict::typeName,
            MergeConflict::entityId).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.UNIQUE_VIOLATION, "node", "Person", "dave"),
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.CARDINALITY_VIOLATION, "edge", "WorksAt",
                    "carol"),
                org.assertj.core.groups.Tuple.tuple(MergeConflict.Kind.ORPHAN_EDGE, "edge", "Knows", orphan)));
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);
    assertThat(rows("main", "Person")).doesNotContainKey("mallory");
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aTargetChangeBetweenCaptureAndArmIsReadSetChangedWithNoEffect() throws Exception {
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40));
    try (AutoCloseable fp = FailpointControl.enable("merge.after_capture", () -> {
      FailpointControl.disable("merge.after_capture");
      load("main", LoadMode.APPEND, person("zed", 1));
    })) {
      assertThatThrownBy(() -> merge("feature", "main")).isInstanceOfSatisfying(ReadSetChanged.class,
          e -> assertThat(e.member()).isEqualTo("graph_head:main"));
    }
    assertThat(rows("main", "Person")).containsOnlyKeys("zed");
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();
    // Nothing stale is left behind: the retry merges against the new head.
    assertThat(merge("feature", "main").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(rows("main", "Person")).containsOnlyKeys("bob", "zed");
  }

  @Test
  void aSourceAdvanceAfterCaptureMergesTheCapturedCommitOnly() throws Exception {
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40));
    String captured = head("feature");
    try (AutoCloseable fp = FailpointControl.enable("merge.after_capture", () -> {
      FailpointControl.disable("merge.after_capture");
      load("feature", LoadMode.APPEND, person("late", 1));
    })) {
      BranchMergeOutput out = merge("feature", "main");
      assertThat(out.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    }
    assertThat(rows("main", "Person")).containsOnlyKeys("bob");
    assertThat(graph.commits("main", CommitPage.first(1)).commits().get(0).mergedParentCommitId()).isEqualTo(captured);
    // The target now holds a merge commit the source lacks: the next merge is three-way.
    assertThat(merge("feature", "main").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(rows("main", "Person")).containsOnlyKeys("bob", "late");
  }

  @Test
  void aFailureAfterTheFirstChunkIsRecoveryRequiredAndReopenRollsTheChainBack() throws Exception {
    branch("bulk");
    load("bulk", LoadMode.APPEND, IntStream.range(0, 8_000).mapToObj(i -> person("p" + i, 1)).toArray(String[]::new));
    load("bulk", LoadMode.APPEND, IntStream.range(8_000, 9_000).mapToObj(i -> person("p" + i, 1))
        .toArray(String[]::new));
    SnapshotOutput.Dataset before = dataset("main", "Person");
    long manifestBefore = graph.snapshot("main").graphManifestVersion();
    try (AutoCloseable fp = FailpointControl.enableError("merge.after_chunk_commit")) {
      assertThatThrownBy(() -> merge("bulk", "main")).isInstanceOf(RecoveryRequired.class)
          .hasRootCauseInstanceOf(FailpointControl.Injected.class);
    }
    assertThat(sidecars()).hasSize(1);
    assertThat(new DataTables(config).head(before.datasetPath(), Optional.empty()))
        .as("the first chunk landed").isEqualTo(before.publishedDatasetVersion() + 1);
    assertThatThrownBy(() -> merge("bulk", "main")).as("the pending merge blocks the target")
        .isInstanceOf(RecoveryRequired.class);

    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);

    assertThat(rows("main", "Person")).isEmpty();
    assertThat(sidecars()).isEmpty();
    assertPinsAreHeads("main");
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo("RolledBack");
      assertThat(e.writerKind()).isEqualTo("branch_merge");
    });
    assertThat(graph.snapshot("main").graphManifestVersion()).isGreaterThan(manifestBefore);
    // The rollback is a commit of main's: the retry is three-way against it.
    assertThat(merge("bulk", "main").outcome()).isEqualTo(MergeOutcome.MERGED);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(9_000);
    assertPinsAreHeads("main");
  }

  @Test
  void aFailureAfterConfirmRollsForwardToTheWholeMergeWithBothParents() throws Exception {
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40), "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}");
    load("main", LoadMode.APPEND, person("alice", 30));
    String featureHead = head("feature");
    try (AutoCloseable fp = FailpointControl.enableError("merge.before_publish")) {
      assertThatThrownBy(() -> merge("feature", "main")).isInstanceOf(RecoveryRequired.class);
    }
    assertThat(sidecars()).hasSize(1);
    assertThat(rows("main", "Person")).containsOnlyKeys("alice");

    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);

    assertThat(rows("main", "Person")).containsOnlyKeys("alice", "bob");
    assertThat(dataset("main", "Company").entityCount()).isEqualTo(1);
    CommitOutput c = graph.commits("main", CommitPage.first(1)).commits().get(0);
    assertThat(c.mergedParentCommitId()).isEqualTo(featureHead);
    assertThat(c.actorId()).isEqualTo("act-merge");
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledForward"));
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();
    assertThat(merge("feature", "main").outcome()).isEqualTo(MergeOutcome.ALREADY_UP_TO_DATE);
  }

  @Test
  void deleteBranchRemovesTheSourceAfterALandedMerge() {
    branch("feature");
    load("feature", LoadMode.APPEND, person("bob", 40));
    BranchMergeOutput out = graph.branchMerge("feature", null, true, Optional.of("act-merge"));
    assertThat(out.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(out.branchDeleted()).isTrue();
    assertThat(out.branchDeleteError()).isNull();
    assertThat(graph.branchList().branches()).containsExactly("main");
    assertThat(rows("main", "Person")).containsOnlyKeys("bob");
  }

  // --- diff before merge: commit changes (issue 14 point 7) ------------------------------------

  private static Tuple change(ChangeOp op, String kind, String type, String id) {
    return org.assertj.core.groups.Tuple.tuple(op, kind, type, id);
  }

  private static List<Tuple> changes(CommitChangesOutput page) {
    return page.changes().stream().map(c -> change(c.op(), c.kind(), c.type().name(), c.id())).toList();
  }

  @Test
  void commitChangesListEveryEntityACommitChangedAgainstItsFirstParentInFrozenOrder() {
    String genesis = head("main");
    load("main", LoadMode.APPEND, person("alice", 30), person("bob", 40), person("carol", 50),
        "{\"edge\":\"Knows\",\"from\":\"alice\",\"to\":\"bob\",\"data\":{\"since\":2020}}");
    branch("review");
    // One commit that updates alice, inserts dave and an edge: what a reviewer checks before merging.
    load("review", LoadMode.MERGE, person("alice", 31), person("dave", 20),
        "{\"edge\":\"Knows\",\"from\":\"dave\",\"to\":\"carol\"}");
    String upsert = head("review");
    mutate("review", "forget", "{\"name\":\"bob\"}"); // cascades the alice->bob edge
    String forget = head("review");
    String knowsId = edges("main", "Knows").keySet().iterator().next();

    CommitChangesOutput page = graph.commitChanges(upsert, ChangesPage.FIRST);
    assertThat(page.cause().graphCommitId()).isEqualTo(upsert);
    assertThat(page.cause().authoredBranch()).isEqualTo("review");
    assertThat(page.cause().actorId()).isEqualTo("act-test");
    assertThat(page.nextPageToken()).isNull();
    String daveKnows = edges("review", "Knows").keySet().stream().filter(k -> !k.equals(knowsId)).findFirst()
        .orElseThrow();
    assertThat(changes(page)).containsExactly(
        change(ChangeOp.UPDATE, "node", "Person", "alice"),
        change(ChangeOp.INSERT, "node", "Person", "dave"),
        change(ChangeOp.INSERT, "edge", "Knows", daveKnows));
    CommitChangesOutput.EntityChange alice = page.changes().get(0);
    assertThat(alice.before().properties().get("age").asInt()).isEqualTo(30);
    assertThat(alice.after().properties().get("age").asInt()).isEqualTo(31);
    assertThat(alice.after().properties().get("name").asText()).isEqualTo("alice");
    assertThat(alice.after().properties().has("id")).as("the id is hoisted out").isFalse();
    assertThat(page.changes().get(1).before()).isNull();
    CommitChangesOutput.Image edge = page.changes().get(2).after();
    assertThat(edge.endpoints()).isEqualTo(new CommitChangesOutput.Endpoints("dave", "carol"));
    assertThat(edge.properties().get("since").isNull()).isTrue();

    assertThat(changes(graph.commitChanges(forget, ChangesPage.FIRST))).containsExactly(
        change(ChangeOp.DELETE, "node", "Person", "bob"),
        change(ChangeOp.DELETE, "edge", "Knows", knowsId));
    CommitChangesOutput deleted = graph.commitChanges(forget, ChangesPage.FIRST);
    assertThat(deleted.changes().get(1).before().endpoints()).isEqualTo(new CommitChangesOutput.Endpoints("alice", "bob"));
    assertThat(deleted.changes().get(1).after()).isNull();

    // Pages of one change, resumed by token; filters; a token is bound to its commit and scope.
    ChangesPage one = new ChangesPage(1, Optional.empty(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of());
    CommitChangesOutput p1 = graph.commitChanges(upsert, one);
    CommitChangesOutput p2 = graph.commitChanges(upsert, one.next(p1.nextPageToken()));
    CommitChangesOutput p3 = graph.commitChanges(upsert, one.next(p2.nextPageToken()));
    assertThat(changes(p1)).containsExactly(change(ChangeOp.UPDATE, "node", "Person", "alice"));
    assertThat(changes(p2)).containsExactly(change(ChangeOp.INSERT, "node", "Person", "dave"));
    assertThat(changes(p3)).containsExactly(change(ChangeOp.INSERT, "edge", "Knows", daveKnows));
    assertThat(p3.nextPageToken()).isNull();
    assertThat(changes(graph.commitChanges(upsert, ChangesPage.parse(null, null, List.of("node"), List.of(),
        List.of("insert"))))).containsExactly(change(ChangeOp.INSERT, "node", "Person", "dave"));
    assertThat(changes(graph.commitChanges(upsert, ChangesPage.parse(null, null, List.of(), List.of("Knows"),
        List.of())))).containsExactly(change(ChangeOp.INSERT, "edge", "Knows", daveKnows));
    assertThatThrownBy(() -> graph.commitChanges(forget, one.next(p1.nextPageToken())))
        .isInstanceOf(dev.omnigraph.api.InvalidRequest.class).hasMessageContaining("page token rejected");
    assertThatThrownBy(() -> graph.commitChanges(upsert, ChangesPage.parse("1", p1.nextPageToken(), List.of("edge"),
        List.of(), List.of()))).isInstanceOf(dev.omnigraph.api.InvalidRequest.class);
    assertThatThrownBy(() -> graph.commitChanges(upsert, ChangesPage.parse(null, null, List.of(), List.of("Nope"),
        List.of()))).isInstanceOf(dev.omnigraph.api.InvalidRequest.class);
    assertThatThrownBy(() -> ChangesPage.parse("8193", null, List.of(), List.of(), List.of()))
        .isInstanceOf(dev.omnigraph.api.ResourceLimitExceeded.class);
    assertThatThrownBy(() -> graph.commitChanges(genesis, ChangesPage.FIRST))
        .isInstanceOfSatisfying(dev.omnigraph.api.ChangeDiffRefused.class,
            e -> assertThat(e.reason()).isEqualTo(dev.omnigraph.api.ChangeDiffRefused.Reason.PARENTLESS_COMMIT));
    assertThatThrownBy(() -> graph.commitChanges("01NOSUCHCOMMIT", ChangesPage.FIRST))
        .isInstanceOf(dev.omnigraph.api.NotFound.class);

    // The merge commit, against its first parent (main's head), is exactly what the merge brought.
    BranchMergeOutput merged = merge("review", "main");
    assertThat(changes(graph.commitChanges(merged.commitId(), ChangesPage.FIRST))).containsExactly(
        change(ChangeOp.UPDATE, "node", "Person", "alice"),
        change(ChangeOp.DELETE, "node", "Person", "bob"),
        change(ChangeOp.INSERT, "node", "Person", "dave"),
        // Edge ids are ULIDs: the older alice->bob edge sorts first.
        change(ChangeOp.DELETE, "edge", "Knows", knowsId),
        change(ChangeOp.INSERT, "edge", "Knows", daveKnows));
  }

  // --- resource limits (issue 14 point 3): each produced for real, with tightened limits ----------

  private static final dev.omnigraph.merge.MergeLimits PROD = dev.omnigraph.merge.MergeLimits.PRODUCTION;

  /**
   * Merges {@code source} into main under {@code limits} and asserts the typed refusal and zero
   * effect: no commit on either branch, no sidecar, main's rows and pins (= live HEADs) unchanged.
   */
  private dev.omnigraph.api.ResourceLimitExceeded refusedWithZeroEffect(String source,
      dev.omnigraph.merge.MergeLimits limits) {
    List<CommitOutput> mainCommits = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits();
    List<CommitOutput> sourceCommits = graph.commits(source, CommitPage.first(CommitPage.MAX_LIMIT)).commits();
    Map<String, Map<String, Object>> mainRows = rows("main", "Person");
    long pin = dataset("main", "Person").publishedDatasetVersion();

    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
        () -> graph.branchMerge(source, "main", false, Optional.of("act-merge"), limits));

    assertThat(thrown).isInstanceOf(dev.omnigraph.api.ResourceLimitExceeded.class);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).isEqualTo(mainCommits);
    assertThat(graph.commits(source, CommitPage.first(CommitPage.MAX_LIMIT)).commits()).isEqualTo(sourceCommits);
    assertThat(sidecars()).isEmpty();
    assertThat(rows("main", "Person")).isEqualTo(mainRows);
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(pin);
    assertPinsAreHeads("main");
    return (dev.omnigraph.api.ResourceLimitExceeded) thrown;
  }

  @Test
  void aRowAboveTheChunkByteBoundIsRefusedBeforeArmWithNoEffect() {
    branch("wide");
    load("wide", LoadMode.APPEND, person("x".repeat(300), 1), person("short", 2));
    var limits = new dev.omnigraph.merge.MergeLimits(PROD.chunkRows(), 256, PROD.chain(), PROD.validationBudget());

    var e = refusedWithZeroEffect("wide", limits);

    assertThat(e.resource()).isEqualTo("merge_row_bytes:node:Person");
    assertThat(e.limit()).isEqualTo(256);
    assertThat(e.actual()).as("id and name, 300 bytes each").isGreaterThan(600);
    // Production's bound admits the same row.
    assertThat(merge("wide", "main").outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
  }

  @Test
  void aChainAboveItsTransactionBoundIsRefusedBeforeArmWithNoEffect() {
    branch("long");
    load("long", LoadMode.APPEND, people("l", 0, 9));
    var limits = new dev.omnigraph.merge.MergeLimits(4, PROD.chunkBytes(), 2, PROD.validationBudget());

    var e = refusedWithZeroEffect("long", limits);

    assertThat(e.resource()).isEqualTo("merge_chain:node:Person");
    assertThat(e.limit()).isEqualTo(2);
    assertThat(e.actual()).as("4 + 4 + 1 rows").isEqualTo(3);
  }

  @Test
  void aValidationViewAboveItsBudgetIsRefusedBeforeArmWithNoEffect() {
    branch("many");
    load("many", LoadMode.APPEND, people("m", 0, 40));
    var limits = new dev.omnigraph.merge.MergeLimits(PROD.chunkRows(), PROD.chunkBytes(), PROD.chain(), 2_000);

    var e = refusedWithZeroEffect("many", limits);

    assertThat(e.resource()).isEqualTo("merge_validation_bytes");
    assertThat(e.limit()).isEqualTo(2_000);
    assertThat(e.actual()).isGreaterThan(2_000);
    assertThatThrownBy(() -> new dev.omnigraph.merge.MergeLimits(PROD.chunkRows() + 1, PROD.chunkBytes(),
        PROD.chain(), PROD.validationBudget())).as("limits only tighten").isInstanceOf(IllegalArgumentException.class);
  }

  // --- certificate fast path (issue 14 point 4) ------------------------------------------------

  private static String[] people(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> person(prefix + i, i % 150)).toArray(String[]::new);
  }

  @Test
  void anAllNewAdoptIsCertificateProvenAndAfterCleanupFallsBackToTheJoinWithIdenticalRows() {
    // Proven: two certified strict-insert loads on c, main untouched since the fork.
    branch("c");
    load("c", LoadMode.APPEND, people("c", 0, 50));
    load("c", LoadMode.APPEND, people("c", 50, 100));
    dev.omnigraph.merge.MergeMemory.reset();
    assertThat(merge("c", "main").outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(dev.omnigraph.merge.MergeMemory.provenTables()).as("Person by proof").isEqualTo(1);
    assertThat(dev.omnigraph.merge.MergeMemory.joinedTables()).as("no target join").isZero();
    assertThat(rows("main", "Person")).isEqualTo(rows("c", "Person")).hasSize(100);
    assertPinsAreHeads("main");
    // The proven write is re-certified, so the proof composes over the next generation.
    SnapshotOutput.Dataset person = dataset("main", "Person");
    assertThat(new DataTables(config).insertCertificate().violations(person.datasetPath(), Optional.empty(),
        person.publishedDatasetVersion())).isEmpty();

    // Refused after cleanup: b's interval holds the chunks of a merge into b; cleanup removes the
    // unpinned version between its two chunks, so the history no longer proves absence.
    branch("a");
    load("a", LoadMode.APPEND, people("a", 0, 4_500));
    load("a", LoadMode.APPEND, people("a", 4_500, 9_000));
    branch("b");
    load("b", LoadMode.APPEND, person("b0", 1)); // b owns its Person ref from here
    assertThat(merge("a", "b").outcome()).isEqualTo(MergeOutcome.MERGED); // 8,192 + 808 rows on b's ref
    assertThat(graph.cleanup(false).versionsRemoved()).isPositive();
    dev.omnigraph.merge.MergeMemory.reset();
    assertThat(merge("b", "main").outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(dev.omnigraph.merge.MergeMemory.provenTables()).as("cleaned history proves nothing").isZero();
    assertThat(dev.omnigraph.merge.MergeMemory.joinedTables()).isEqualTo(1);
    assertThat(rows("main", "Person")).isEqualTo(rows("b", "Person")).hasSize(100 + 9_001);
    assertPinsAreHeads("main");
    assertThat(sidecars()).isEmpty();
  }
}
