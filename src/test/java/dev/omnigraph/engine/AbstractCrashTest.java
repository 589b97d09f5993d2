package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.recovery.Action;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash consistency of the direct-publish write path, once per backend: a child JVM
 * ({@link CrashChild}) runs one mutation or load and halts ({@code Runtime.halt(137)}) at a named
 * failpoint; the test JVM then reopens the graph read-write (the full recovery sweep) and asserts
 * the exact convergence the seed's "Recovery protocol" prescribes for that point: the graph's rows,
 * row counts and commit list, one audit row of the right kind for the interrupted operation (none
 * when nothing was armed), no sidecar left, every manifest pin equal to its table's live Lance
 * HEAD, and a following ordinary write succeeding.
 *
 * <p>A second matrix crashes the recovery itself (a child that only opens the graph read-write,
 * halting at a recovery failpoint) and checks that the next open still converges to the same
 * outcome with exactly one audit row. A third runs the same failpoints in-process with
 * {@code error} actions for the typed results.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractCrashTest extends AbstractGraphFixture {

  /** A fresh graph branch: every table a write touches there is first-touch. */
  static final String FEATURE = "feature";
  /**
   * A graph branch whose Person table is already forked: a write there mixes first-touch tables
   * (their refs are created, then removed on rollback) with a table on the branch's own Lance ref
   * (restored on rollback, and the restored head published on the branch).
   */
  static final String FORKED = "forked";
  static final long CHILD_TIMEOUT_SECONDS = 180;

  enum Writer { MUTATION, LOAD }

  /** How recovery must settle the interrupted write. */
  enum Expect {
    /** Nothing was armed: no sidecar, no audit row. */
    NOTHING(null),
    /** Armed without an effect on any table: discarded. */
    DISCARDED("Discarded"),
    /** Armed with effects, unconfirmed: rolled back to the pre-write graph. */
    ROLLED_BACK("RolledBack"),
    /** Effects confirmed (or already published): the write becomes (or stays) visible. */
    ROLLED_FORWARD("RolledForward");

    final String auditKind;

    Expect(String auditKind) {
      this.auditKind = auditKind;
    }
  }

  /** The convergence every write failpoint must reach when the writer halts there. */
  static Expect expectFor(String failpoint) {
    return switch (failpoint) {
      // recovery.sidecar_list is first hit by the child's own read-write open: it dies before writing.
      case "write.after_prepare", "recovery.sidecar_write", "recovery.sidecar_list" -> Expect.NOTHING;
      case "write.after_arm", "write.after_ref_create" -> Expect.DISCARDED;
      case "write.after_table_commit", "write.after_commits", "recovery.sidecar_confirm" -> Expect.ROLLED_BACK;
      case "write.after_confirm", "write.before_publish", "manifest.after_publish_commit", "write.after_publish",
          "recovery.sidecar_delete" ->
          Expect.ROLLED_FORWARD;
      default -> throw new IllegalArgumentException(failpoint);
    };
  }

  /** Every write failpoint a mutation or load on {@code main} passes through, in order. */
  static final List<String> MAIN_POINTS = List.of("recovery.sidecar_list", "write.after_prepare",
      "recovery.sidecar_write", "write.after_arm", "write.after_table_commit", "write.after_commits",
      "recovery.sidecar_confirm", "write.after_confirm", "write.before_publish", "manifest.after_publish_commit",
      "write.after_publish", "recovery.sidecar_delete");

  /**
   * On a fresh graph branch every table is first-touch: the points where that changes what a halt
   * leaves (an armed intent without or with its ref, effects on refs the manifest never named,
   * confirmed ref identities, a published first-touch write). The points before arming and the
   * sidecar I/O points behave exactly as on main and run there.
   */
  static final List<String> BRANCH_POINTS = List.of("write.after_arm", "write.after_ref_create",
      "write.after_table_commit", "write.after_commits", "write.after_confirm", "write.after_publish");

  /** On {@link #FORKED}: the points where a mixed first-touch/forked write differs. */
  static final List<String> FORKED_POINTS = List.of("write.after_ref_create", "write.after_table_commit",
      "write.after_commits", "write.before_publish");

  /** Every (writer, branch, failpoint) of the full matrix. */
  static Stream<Arguments> fullMatrix() {
    List<Arguments> out = new ArrayList<>();
    for (Writer w : Writer.values()) {
      MAIN_POINTS.forEach(fp -> out.add(Arguments.of(w, "main", fp)));
      BRANCH_POINTS.forEach(fp -> out.add(Arguments.of(w, FEATURE, fp)));
      FORKED_POINTS.forEach(fp -> out.add(Arguments.of(w, FORKED, fp)));
    }
    return out.stream();
  }

  /** The (writer, branch, failpoint) cases this backend runs as crash children. */
  abstract Stream<Arguments> crashCases();

  /** The (writer, branch, write failpoint, recovery failpoint) double-crash cases. */
  abstract Stream<Arguments> recoveryCrashCases();

  /**
   * {@link #crashCases()} narrowed by {@code -Domnigraph.crash.filter=<substring>} (matched against
   * {@code WRITER:branch:failpoint[:recovery failpoint]}), to rerun some cases: e.g. {@code ./mvnw -B
   * -o test -Dtest=CrashLocalTest -Dargline.extra=-Domnigraph.crash.filter=LOAD:main:write.after_confirm}.
   */
  Stream<Arguments> selectedCrashCases() {
    return filtered(crashCases());
  }

  Stream<Arguments> selectedRecoveryCrashCases() {
    return filtered(recoveryCrashCases());
  }

  private static Stream<Arguments> filtered(Stream<Arguments> cases) {
    String filter = System.getProperty("omnigraph.crash.filter", "");
    return cases.filter(a -> String.join(":", Stream.of(a.get()).map(String::valueOf).toList()).contains(filter));
  }

  /** Every write failpoint for the in-process error-injection checks. */
  Stream<String> injectedErrorPoints() {
    return Stream.of("write.after_arm", "write.after_table_commit", "write.after_commits", "write.after_confirm",
        "write.before_publish", "write.after_publish");
  }

  // ---------------------------------------------------------------------------------------------
  // The write under test and the graph before it.

  /**
   * The seed every case starts from: two people who know each other, on main; loaded once on the
   * class's template, so each case starts from a copy of it.
   */
  @Override
  protected void buildTemplate(Omnigraph template) {
    template.load("main", new StringReader(String.join("\n", person("ann", 30), person("bob", 40),
        "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"bob\",\"data\":{\"since\":2001}}")), LoadMode.APPEND,
        Optional.of("act-test"));
  }

  /**
   * The graph branch of the case, made on the case's own copy: a template holds main only, because
   * Lance records the absolute root in branch manifests.
   */
  private void seed(String branch) {
    if (!branch.equals("main")) {
      graph.branchCreate(branch, "main", Optional.of("act-test"));
    }
    if (branch.equals(FORKED)) {
      load(FORKED, LoadMode.APPEND, person("fay", 50));
      assertThat(dataset(FORKED, "Person").nativeDatasetBranch()).isEqualTo(FORKED);
    }
  }

  /** The child arguments of the interrupted write. */
  private static String[] writeArgs(Writer writer, String branch) {
    return switch (writer) {
      // Two tables: edge:Knows commits first (sorted), then node:Person.
      case MUTATION -> new String[] {"mutate", branch, "add_pair", "{\"a\":\"cat\",\"b\":\"dan\",\"since\":2024}"};
      // Three tables: edge:WorksAt, node:Company, node:Person in that order.
      case LOAD -> new String[] {"load", branch, person("cat", 41), person("dan", null),
          "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}",
          "{\"edge\":\"WorksAt\",\"from\":\"cat\",\"to\":\"initech\",\"data\":{\"role\":\"ops\"}}"};
    };
  }

  /** What the write adds, per type: node ids, or {@code src->dst} for edges. */
  private static Map<String, Set<String>> delta(Writer writer) {
    return switch (writer) {
      case MUTATION -> Map.of("Person", Set.of("cat", "dan"), "Knows", Set.of("cat->dan"));
      case LOAD -> Map.of("Person", Set.of("cat", "dan"), "Company", Set.of("initech"),
          "WorksAt", Set.of("cat->initech"));
    };
  }

  private static String writerKind(Writer writer) {
    return writer == Writer.MUTATION ? "mutation" : "load";
  }

  /** The graph as the test sees it: per type, the visible keys. */
  private Map<String, Set<String>> content(String branch) {
    Map<String, Set<String>> out = new TreeMap<>();
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      boolean edge = d.entityKind().equals("edge");
      Set<String> keys = new TreeSet<>();
      List<String> columns = edge ? List.of("id", "src", "dst") : List.of("id");
      tables.scan(TableAt.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion()), Filter.TRUE, columns, r -> keys.add(edge ? r.get("src") + "->" + r.get("dst") : String.valueOf(r.get("id"))));
      assertThat(d.entityCount()).as("%s row count of %s on %s", d.typeName(), d.datasetPath(), branch)
          .isEqualTo(keys.size());
      out.put(d.typeName(), keys);
    }
    return out;
  }

  private static Map<String, Set<String>> plus(Map<String, Set<String>> base, Map<String, Set<String>> delta) {
    Map<String, Set<String>> out = new TreeMap<>();
    base.forEach((k, v) -> out.put(k, new TreeSet<>(v)));
    delta.forEach((k, v) -> out.computeIfAbsent(k, x -> new TreeSet<>()).addAll(v));
    return out;
  }

  private List<String> commitIds(String branch) {
    return graph.commits(branch, CommitPage.first(CommitPage.MAX_LIMIT)).commits().stream().map(CommitOutput::graphCommitId).toList();
  }

  private List<String> sidecarKeys() {
    return sidecars().stream().filter(k -> k.endsWith(".json")).toList();
  }

  private RecoverySidecar readSidecar(String key) {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return new SidecarStore(s).read(key).orElseThrow();
    }
  }

  /** Every pin of {@code branch} (and main) equals its table's live Lance HEAD. */
  private void assertPinsEqualHeads(String branch) {
    DataTables tables = new DataTables(config);
    for (String b : branch.equals("main") ? List.of("main") : List.of("main", branch)) {
      for (SnapshotOutput.Dataset d : graph.snapshot(b).datasets()) {
        assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
            .as("live HEAD of %s (native branch %s) on graph branch %s", d.datasetPath(), d.nativeDatasetBranch(), b)
            .isEqualTo(d.publishedDatasetVersion());
      }
    }
  }

  /** On a graph branch, a Lance ref named after it exists exactly on the tables its pins use. */
  private void assertNoStrayRefs(String branch) {
    if (branch.equals("main")) {
      return;
    }
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      assertThat(tables.branches().exists(TableRef.branch(d.datasetPath(), branch)))
          .as("Lance ref %s on %s (pinned native branch %s)", branch, d.datasetPath(), d.nativeDatasetBranch())
          .isEqualTo(branch.equals(d.nativeDatasetBranch()));
    }
  }

  private void reopen() {
    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
  }

  /** What the test knew before the interrupted write. */
  private record Before(SnapshotOutput snapshot, Map<String, Set<String>> content, List<String> commits) {}

  private Before capture(String branch) {
    return new Before(graph.snapshot(branch), content(branch), commitIds(branch));
  }

  /**
   * What a halted write left: its sidecar (if it armed one) and the tables whose Lance HEAD moved
   * past the pin the write was prepared on (a first-touch table: on its new ref).
   */
  private record Crash(Optional<RecoverySidecar> sidecar, Set<String> moved) {}

  /** Runs the child write with {@code failpoint} set to halt; returns what it left. */
  private Crash crash(Writer writer, String branch, String failpoint) throws Exception {
    graph.close(); // the child is the only live handle while it writes
    String[] args = writeArgs(writer, branch);
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS, args[0],
        java.util.Arrays.copyOfRange(args, 1, args.length));
    assertThat(r.exitCode()).as("exit code of the child halted at %s; its output:\n%s", failpoint, r.output())
        .isEqualTo(137);
    assertThat(r.output()).doesNotContain("DONE");
    graph = Omnigraph.open(config, OpenMode.READ_ONLY); // a read-only open repairs nothing
    List<String> left = sidecarKeys();
    if (expectFor(failpoint) == Expect.NOTHING) {
      assertThat(left).as("sidecars after a halt at %s", failpoint).isEmpty();
      return new Crash(Optional.empty(), Set.of());
    }
    assertThat(left).as("sidecars after a halt at %s", failpoint).hasSize(1);
    RecoverySidecar s = readSidecar(left.get(0));
    assertThat(left.get(0)).isEqualTo(SidecarStore.keyOf(s.operationId()));
    assertThat(s.writerKind()).isEqualTo(writerKind(writer));
    assertThat(s.actor()).isEqualTo(CrashChild.ACTOR);
    assertThat(s.authority().branch()).isEqualTo(branch);
    assertThat(s.state()).as("sidecar state after a halt at %s", failpoint).isEqualTo(
        expectFor(failpoint) == Expect.ROLLED_FORWARD ? RecoverySidecar.State.EFFECTS_CONFIRMED
            : RecoverySidecar.State.ARMED);
    // The tables the halted write moved: none before its first commit, at least the one whose
    // commit landed first after it, all of them once every commit has been judged.
    DataTables tables = new DataTables(config);
    Set<String> moved = new TreeSet<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      boolean exists = !t.firstTouch() || tables.branches().exists(t.ref());
      if (exists && tables.head(TableRef.of(t.location(), Optional.ofNullable(t.nativeBranch()))) > t.expectedVersion()) {
        assertThat(tables.head(TableRef.of(t.location(), Optional.ofNullable(t.nativeBranch()))))
            .isEqualTo(t.postCommitVersion());
        moved.add(t.tableKey().toString());
      }
    }
    List<String> keys = s.tables().stream().map(t -> t.tableKey().toString()).toList();
    assertThat(keys).as("tables in commit order").isSorted();
    Set<String> expectedMoved = switch (failpoint) {
      // In every configuration here the first table in commit order is first-touch, so the first
      // ref creation comes before any commit.
      case "write.after_arm", "write.after_ref_create" -> Set.of();
      // The tables commit side by side: the halt at the first landed commit leaves it and any
      // other that landed meanwhile (checked below), so a partial Phase B in general.
      case "write.after_table_commit" -> null;
      default -> Set.copyOf(keys);
    };
    if (expectedMoved == null) {
      assertThat(moved).as("tables moved by the write halted at %s", failpoint).isNotEmpty();
      assertThat(keys).containsAll(moved);
    } else {
      assertThat(moved).as("tables moved by the write halted at %s", failpoint).isEqualTo(expectedMoved);
    }
    return new Crash(Optional.of(s), moved);
  }

  /** After the read-write reopen: the exact convergence for {@code expect}. */
  private void assertConverged(Writer writer, String branch, Expect expect, Before before, Crash crash)
      throws Exception {
    Optional<RecoverySidecar> sidecar = crash.sidecar();
    assertThat(sidecarKeys()).as("__recovery/ after recovery").isEmpty();
    assertThat(graph.pendingRecovery()).isEmpty();

    // Audit: exactly one row for the interrupted operation, none when nothing was armed.
    List<RecoveryAuditTable.Entry> audit = graph.recoveryAudit();
    if (expect == Expect.NOTHING) {
      assertThat(audit).isEmpty();
      assertThat(graph.openRecovery()).isEmpty();
    } else {
      RecoverySidecar s = sidecar.orElseThrow();
      assertThat(audit).singleElement().satisfies(e -> {
        assertThat(e.operationId()).isEqualTo(s.operationId());
        assertThat(e.kind()).isEqualTo(expect.auditKind);
        assertThat(e.forActor()).isEqualTo(CrashChild.ACTOR);
        assertThat(e.writerKind()).isEqualTo(writerKind(writer));
        assertThat(e.branch()).isEqualTo(branch);
      });
      assertThat(graph.openRecovery()).singleElement().satisfies(o -> {
        assertThat(o.operationId()).isEqualTo(s.operationId());
        assertThat(o.action()).isEqualTo(Action.COMPLETED);
        assertThat(o.auditKind()).isEqualTo(expect.auditKind);
      });
    }

    // Rows and commits.
    List<String> commits = graph.commits(branch, CommitPage.first(CommitPage.MAX_LIMIT)).commits().stream().map(CommitOutput::graphCommitId).toList();
    SnapshotOutput after = graph.snapshot(branch);
    switch (expect) {
      case NOTHING, DISCARDED -> {
        assertThat(content(branch)).isEqualTo(before.content());
        assertThat(commits).isEqualTo(before.commits());
        assertThat(after.datasets()).isEqualTo(before.snapshot().datasets());
        if (expect == Expect.DISCARDED) {
          assertThat(audit.get(0).commitId()).isNull();
        }
      }
      case ROLLED_BACK -> {
        RecoverySidecar s = sidecar.orElseThrow();
        assertThat(content(branch)).isEqualTo(before.content());
        assertThat(commits).doesNotContain(s.lineage().commitId());
        // A moved table the manifest references is restored (a new Lance version) and the
        // restored heads published under the pre-minted rollback commit; a first-touch table only
        // loses its unreferenced ref, which changes nothing the manifest references.
        boolean restoredAny = s.tables().stream()
            .anyMatch(t -> !t.firstTouch() && crash.moved().contains(t.tableKey().toString()));
        if (restoredAny) {
          assertThat(commits).hasSize(before.commits().size() + 1);
          assertThat(commits.get(0)).isEqualTo(s.lineage().rollbackCommitId());
          assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
          CommitOutput rollback = graph.commit(commits.get(0));
          assertThat(rollback.actorId()).isEqualTo(Recovery.RECOVERY_ACTOR);
          assertThat(rollback.parentCommitId()).isEqualTo(before.commits().get(0));
          assertThat(audit.get(0).commitId()).isEqualTo(s.lineage().rollbackCommitId());
        } else {
          assertThat(commits).isEqualTo(before.commits());
          assertThat(after.datasets()).isEqualTo(before.snapshot().datasets());
          assertThat(audit.get(0).commitId()).isNull();
        }
        // Same row counts; a restored table's pin moved past its pre-write version.
        for (SnapshotOutput.Dataset d : after.datasets()) {
          SnapshotOutput.Dataset was = before.snapshot().datasets().stream()
              .filter(x -> x.typeName().equals(d.typeName())).findFirst().orElseThrow();
          assertThat(d.entityCount()).isEqualTo(was.entityCount());
          assertThat(d.nativeDatasetBranch()).isEqualTo(was.nativeDatasetBranch());
        }
      }
      case ROLLED_FORWARD -> {
        RecoverySidecar s = sidecar.orElseThrow();
        assertThat(content(branch)).isEqualTo(plus(before.content(), delta(writer)));
        assertThat(commits).hasSize(before.commits().size() + 1);
        assertThat(commits.get(0)).isEqualTo(s.lineage().commitId());
        assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
        CommitOutput written = graph.commit(commits.get(0));
        assertThat(written.actorId()).isEqualTo(CrashChild.ACTOR);
        assertThat(written.parentCommitId()).isEqualTo(before.commits().get(0));
        assertThat(commits).doesNotContain(s.lineage().rollbackCommitId());
        assertThat(audit.get(0).commitId()).isEqualTo(s.lineage().commitId());
        for (RecoverySidecar.TableIntent t : s.tables()) {
          SnapshotOutput.Dataset d = after.datasets().stream().filter(x -> x.datasetPath().equals(t.location()))
              .findFirst().orElseThrow();
          assertThat(d.publishedDatasetVersion()).isEqualTo(t.postCommitVersion());
          assertThat(d.nativeDatasetBranch()).isEqualTo(t.nativeBranch());
        }
      }
    }
    // main is untouched by a write on another branch.
    assertPinsEqualHeads(branch);
    assertNoStrayRefs(branch);

    // The next ordinary write on the branch succeeds and is the only change.
    Map<String, Set<String>> now = content(branch);
    List<String> commitsNow = commitIds(branch);
    WriteResult next = graph.mutate(branch, AbstractMutationTest.GQ, "add_person",
        new ObjectMapper().createObjectNode().put("name", "eve"), Optional.of("act-test"), Optional.empty());
    assertThat(next.commitId()).isPresent();
    assertThat(content(branch)).isEqualTo(plus(now, Map.of("Person", Set.of("eve"))));
    assertThat(commitIds(branch)).hasSize(commitsNow.size() + 1).startsWith(next.commitId().get());
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).hasSize(audit.size());
    assertPinsEqualHeads(branch);
  }

  // ---------------------------------------------------------------------------------------------
  // 1. The writer halts at a failpoint; a read-write reopen converges.

  @ParameterizedTest(name = "{0} on {1}: halt at {2}")
  @MethodSource("selectedCrashCases")
  void aHaltAtEveryWriteFailpointConvergesOnReadWriteReopen(Writer writer, String branch, String failpoint)
      throws Exception {
    long t0 = System.nanoTime();
    seed(branch);
    Before before = capture(branch);
    SnapshotOutput mainBefore = graph.snapshot("main");
    List<String> mainCommits = commitIds("main");
    long t1 = System.nanoTime();
    Crash crash = crash(writer, branch, failpoint);
    long t2 = System.nanoTime();
    Expect expect = expectFor(failpoint);
    crash.sidecar().ifPresent(s -> assertThat(s.tables()).allSatisfy(t -> {
      // Every table is first-touch on a fresh graph branch; on FORKED all but Person.
      assertThat(t.firstTouch()).as(t.tableKey().toString()).isEqualTo(branch.equals(FEATURE)
          || branch.equals(FORKED) && !t.tableKey().equals(TableKey.node("Person")));
      assertThat(t.nativeBranch()).isEqualTo(branch.equals("main") ? null : branch);
    }));
    reopen();
    long t3 = System.nanoTime();
    assertConverged(writer, branch, expect, before, crash);
    if (!branch.equals("main")) {
      assertThat(graph.snapshot("main").datasets()).isEqualTo(mainBefore.datasets());
      assertThat(commitIds("main")).isEqualTo(mainCommits);
    }
    System.out.printf("[crash] %s on %s at %s: setup %d ms, child %d ms, reopen %d ms, checks %d ms%n", writer,
        branch, failpoint, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000,
        (System.nanoTime() - t3) / 1_000_000);
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Recovery itself halts at one of its failpoints; the next read-write open still converges.

  @ParameterizedTest(name = "{0} on {1}: halt at {2}, then recovery halts at {3}")
  @MethodSource("selectedRecoveryCrashCases")
  void aHaltInsideRecoveryConvergesOnTheNextOpen(Writer writer, String branch, String writeFailpoint,
      String recoveryFailpoint) throws Exception {
    seed(branch);
    Before before = capture(branch);
    Crash crash = crash(writer, branch, writeFailpoint);
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(recoveryFailpoint), CHILD_TIMEOUT_SECONDS,
        "open");
    assertThat(r.exitCode()).as("exit code of the recovering child halted at %s; its output:\n%s",
        recoveryFailpoint, r.output()).isEqualTo(137);
    assertThat(r.output()).doesNotContain("OPEN");
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    // Every recovery failpoint comes before the sidecar delete, the last step.
    assertThat(sidecarKeys()).as("the interrupted recovery keeps the sidecar")
        .containsExactly(SidecarStore.keyOf(crash.sidecar().orElseThrow().operationId()));
    reopen();
    // After a halt between the audit append and the sidecar delete, the retry retires the sidecar
    // and finds the audit row already there: still exactly one.
    assertConverged(writer, branch, expectFor(writeFailpoint), before, crash);
  }

  // ---------------------------------------------------------------------------------------------
  // 3. In-process error injection: the typed results of a failure at each point.

  @ParameterizedTest(name = "error at {0}")
  @MethodSource("injectedErrorPoints")
  void anInjectedErrorAtEachPointHasItsTypedResult(String failpoint) throws Exception {
    seed("main");
    Before before = capture("main");
    String params = "{\"a\":\"cat\",\"b\":\"dan\",\"since\":2024}";
    Throwable thrown;
    WriteResult returned = null;
    try (AutoCloseable fp = FailpointControl.enableError(failpoint)) {
      thrown = catchThrowable(() -> graph.mutate("main", AbstractMutationTest.GQ, "add_pair",
          new ObjectMapper().readTree(params), Optional.of("act-m"), Optional.empty()));
      if (failpoint.equals("write.after_publish")) {
        assertThat(thrown).isNull();
      }
    }
    Expect expect = expectFor(failpoint);
    switch (failpoint) {
      case "write.after_arm" -> {
        // Nothing landed: the injected error itself, no sidecar, no audit, nothing changed.
        assertThat(thrown).isInstanceOf(FailpointControl.Injected.class).hasMessageContaining(failpoint);
        assertThat(sidecarKeys()).isEmpty();
        assertThat(content("main")).isEqualTo(before.content());
        assertThat(commitIds("main")).isEqualTo(before.commits());
        assertPinsEqualHeads("main");
        assertThat(graph.recoveryAudit()).isEmpty();
        // The next write needs nothing recovered.
        graph.mutate("main", AbstractMutationTest.GQ, "add_person",
            new ObjectMapper().createObjectNode().put("name", "eve"), Optional.of("act-m"), Optional.empty());
        assertThat(content("main").get("Person")).contains("eve");
        assertThat(graph.recoveryAudit()).isEmpty();
        return;
      }
      case "write.after_publish" -> {
        // Published: reported as done although the sidecar could not be retired.
        assertThat(content("main")).isEqualTo(plus(before.content(), delta(Writer.MUTATION)));
        assertThat(sidecarKeys()).hasSize(1);
        RecoverySidecar s = readSidecar(sidecarKeys().get(0));
        assertThat(commitIds("main")).hasSize(before.commits().size() + 1).startsWith(s.lineage().commitId());
        assertPinsEqualHeads("main");
        healAtNextWrite(s, expect);
        return;
      }
      default -> {
        // After the first effect: RecoveryRequired, the sidecar kept, the graph unchanged.
        assertThat(thrown).isInstanceOf(RecoveryRequired.class);
        RecoveryRequired rr = (RecoveryRequired) thrown;
        assertThat(rr).hasRootCauseInstanceOf(FailpointControl.Injected.class);
        assertThat(sidecarKeys()).containsExactly(SidecarStore.keyOf(rr.operationId()));
        RecoverySidecar s = readSidecar(sidecarKeys().get(0));
        assertThat(s.state()).isEqualTo(expect == Expect.ROLLED_FORWARD ? RecoverySidecar.State.EFFECTS_CONFIRMED
            : RecoverySidecar.State.ARMED);
        assertThat(content("main")).isEqualTo(before.content());
        assertThat(commitIds("main")).isEqualTo(before.commits());
        if (expect == Expect.ROLLED_FORWARD) {
          healAtNextWrite(s, expect);
        } else {
          // The write-entry heal cannot restore: the next write on main is refused, loudly.
          Throwable refused = catchThrowable(() -> graph.mutate("main", AbstractMutationTest.GQ, "add_person",
              new ObjectMapper().createObjectNode().put("name", "eve"), Optional.of("act-m"), Optional.empty()));
          assertThat(refused).isInstanceOfSatisfying(RecoveryRequired.class, e -> {
            assertThat(e.operationId()).isEqualTo(rr.operationId());
            assertThat(e.getMessage()).contains(Recovery.ROLLBACK_REQUIRED);
          });
          assertThat(sidecarKeys()).containsExactly(SidecarStore.keyOf(rr.operationId()));
          // The quiesced recover() rolls it back without a restart.
          assertThat(graph.recover()).singleElement().satisfies(o -> {
            assertThat(o.operationId()).isEqualTo(rr.operationId());
            assertThat(o.auditKind()).isEqualTo("RolledBack");
          });
          assertThat(sidecarKeys()).isEmpty();
          assertThat(content("main")).isEqualTo(before.content());
          assertThat(commitIds("main")).hasSize(before.commits().size() + 1)
              .startsWith(s.lineage().rollbackCommitId());
          assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
            assertThat(e.operationId()).isEqualTo(rr.operationId());
            assertThat(e.kind()).isEqualTo("RolledBack");
            assertThat(e.forActor()).isEqualTo("act-m");
          });
          assertPinsEqualHeads("main");
          graph.mutate("main", AbstractMutationTest.GQ, "add_person",
              new ObjectMapper().createObjectNode().put("name", "eve"), Optional.of("act-m"), Optional.empty());
          assertThat(content("main")).isEqualTo(plus(before.content(), Map.of("Person", Set.of("eve"))));
          assertPinsEqualHeads("main");
        }
      }
    }
  }

  /** The next write on the same handle rolls {@code s} forward first (one audit row), then lands. */
  private void healAtNextWrite(RecoverySidecar s, Expect expect) {
    assertThat(expect).isEqualTo(Expect.ROLLED_FORWARD);
    List<String> commitsBefore = commitIds("main");
    WriteResult next = graph.mutate("main", AbstractMutationTest.GQ, "add_person",
        new ObjectMapper().createObjectNode().put("name", "eve"), Optional.of("act-m"), Optional.empty());
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(s.operationId());
      assertThat(e.kind()).isEqualTo("RolledForward");
      assertThat(e.commitId()).isEqualTo(s.lineage().commitId());
    });
    List<String> commits = commitIds("main");
    assertThat(commits.get(0)).isEqualTo(next.commitId().orElseThrow());
    assertThat(commits).contains(s.lineage().commitId());
    assertThat(graph.commit(s.lineage().commitId()).actorId()).isEqualTo("act-m");
    assertThat(content("main").get("Person")).contains("cat", "dan", "eve");
    assertThat(content("main").get("Knows")).contains("cat->dan");
    assertPinsEqualHeads("main");
    assertThat(commits.size()).isEqualTo(commitsBefore.contains(s.lineage().commitId())
        ? commitsBefore.size() + 1 : commitsBefore.size() + 2);
  }

  // ---------------------------------------------------------------------------------------------
  // 4. The Optimize writer (compaction half) halts at each of its failpoints; a read-write reopen
  //    converges: rows unchanged, pins == HEADs, __recovery/ empty, one audit row, next write lands.

  /** Every optimize failpoint, with the recovery failpoint to halt at afterwards (or null). */
  Stream<Arguments> optimizeCrashCases() {
    return Stream.of(
        Arguments.of("optimize.after_arm", null),
        Arguments.of("optimize.after_compact", null),
        Arguments.of("optimize.after_commits", null),
        Arguments.of("optimize.after_confirm", null),
        Arguments.of("optimize.before_publish", null),
        Arguments.of("optimize.after_publish", null),
        Arguments.of("optimize.after_compact", "recovery.after_publish"),
        Arguments.of("optimize.before_publish", "recovery.record_audit"));
  }

  @ParameterizedTest(name = "optimize halts at {0}, then recovery at {1}")
  @MethodSource("optimizeCrashCases")
  void aHaltInsideOptimizeConvergesOnReadWriteReopen(String failpoint, String recoveryFailpoint) throws Exception {
    seed("main");
    // Two more multi-table writes: edge:Knows and node:Person have 3 fragments each.
    for (String[] pair : new String[][] {{"cat", "dan"}, {"eve", "fay"}}) {
      graph.mutate("main", AbstractMutationTest.GQ, "add_pair", new ObjectMapper().readTree(
          "{\"a\":\"" + pair[0] + "\",\"b\":\"" + pair[1] + "\"}"), Optional.of("act-test"), Optional.empty());
    }
    Before before = capture("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "optimize", "main");
    assertThat(r.exitCode()).as("optimize child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(sidecarKeys()).as("sidecars after a halt at %s", failpoint).hasSize(1);
    RecoverySidecar s = readSidecar(sidecarKeys().get(0));
    assertThat(s.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.Optimize.WIRE);
    assertThat(s.actor()).isEqualTo(dev.omnigraph.maintenance.Optimize.ACTOR);
    assertThat(s.tables()).extracting(RecoverySidecar.TableIntent::tableKey)
        .containsExactly(TableKey.edge("Knows"), TableKey.node("Person"));
    if (recoveryFailpoint != null) {
      graph.close();
      CrashChildProcess.Result rr = CrashChildProcess.run(config, Optional.of(recoveryFailpoint),
          CHILD_TIMEOUT_SECONDS, "open");
      assertThat(rr.exitCode()).as("recovering child halted at %s:\n%s", recoveryFailpoint, rr.output())
          .isEqualTo(137);
      graph = Omnigraph.open(config, OpenMode.READ_ONLY);
      assertThat(sidecarKeys()).containsExactly(SidecarStore.keyOf(s.operationId()));
    }
    reopen();

    boolean published = !failpoint.equals("optimize.after_arm");
    assertThat(sidecarKeys()).as("__recovery/ after recovery").isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(s.operationId());
      assertThat(e.kind()).isEqualTo(published ? "RolledForward" : "Discarded");
      assertThat(e.writerKind()).isEqualTo("optimize");
      assertThat(e.commitId()).isEqualTo(published ? s.lineage().commitId() : null);
    });
    assertThat(content("main")).isEqualTo(before.content());
    List<String> commits = commitIds("main");
    if (published) {
      assertThat(commits).hasSize(before.commits().size() + 1);
      assertThat(commits.get(0)).isEqualTo(s.lineage().commitId());
      assertThat(graph.commit(commits.get(0)).actorId()).isEqualTo(dev.omnigraph.maintenance.Optimize.ACTOR);
      assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
      // The first table in sorted order was compacted at every published point.
      assertThat(dataset("main", "Knows").publishedDatasetVersion())
          .isGreaterThan(before.snapshot().datasets().stream().filter(d -> d.typeName().equals("Knows"))
              .findFirst().orElseThrow().publishedDatasetVersion());
    } else {
      assertThat(commits).isEqualTo(before.commits());
      assertThat(graph.snapshot("main").datasets()).isEqualTo(before.snapshot().datasets());
    }
    assertPinsEqualHeads("main");
    WriteResult next = graph.mutate("main", AbstractMutationTest.GQ, "add_person",
        new ObjectMapper().createObjectNode().put("name", "gil"), Optional.of("act-test"), Optional.empty());
    assertThat(next.commitId()).isPresent();
    assertThat(content("main")).isEqualTo(plus(before.content(), Map.of("Person", Set.of("gil"))));
    assertThat(sidecarKeys()).isEmpty();
    assertPinsEqualHeads("main");
  }

  // ---------------------------------------------------------------------------------------------
  // 4b. Revert halts at each of its failpoints; a read-write reopen converges to exactly before
  //     (Discarded, RolledBack) or the reverted state (RolledForward): rows, commits, pins == HEADs.

  /** Every revert failpoint, the audit kind recovery must record, and a recovery failpoint (or null). */
  Stream<Arguments> revertCrashCases() {
    return Stream.of(
        Arguments.of("revert.after_arm", "Discarded", null),
        Arguments.of("revert.after_table_commit", "RolledBack", null),
        Arguments.of("revert.after_commits", "RolledBack", null),
        Arguments.of("revert.after_confirm", "RolledForward", null),
        Arguments.of("revert.before_publish", "RolledForward", null),
        Arguments.of("revert.after_publish", "RolledForward", null),
        Arguments.of("revert.after_commits", "RolledBack", "recovery.after_restore"));
  }

  @ParameterizedTest(name = "revert halts at {0} ({1}), then recovery at {2}")
  @MethodSource("revertCrashCases")
  void aHaltInsideRevertConvergesOnReadWriteReopen(String failpoint, String kind, String recoveryFailpoint)
      throws Exception {
    seed("main");
    Before target = capture("main");
    // Two tables move: edge:Knows, then node:Person (the revert restores them in that order).
    graph.mutate("main", AbstractMutationTest.GQ, "add_pair", new ObjectMapper().readTree(
        "{\"a\":\"cat\",\"b\":\"dan\"}"), Optional.of("act-test"), Optional.empty());
    Before before = capture("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "revert", "main", target.commits().get(0));
    assertThat(r.exitCode()).as("revert child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(sidecarKeys()).hasSize(1);
    RecoverySidecar s = readSidecar(sidecarKeys().get(0));
    assertThat(s.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.Revert.WIRE);
    assertThat(s.tables()).extracting(RecoverySidecar.TableIntent::tableKey).containsExactly(TableKey.edge("Knows"), TableKey.node("Person"));
    if (recoveryFailpoint != null) {
      graph.close();
      CrashChildProcess.Result rr = CrashChildProcess.run(config, Optional.of(recoveryFailpoint),
          CHILD_TIMEOUT_SECONDS, "open");
      assertThat(rr.exitCode()).as("recovering child halted at %s:\n%s", recoveryFailpoint, rr.output())
          .isEqualTo(137);
      graph = Omnigraph.open(config, OpenMode.READ_ONLY);
      assertThat(sidecarKeys()).containsExactly(SidecarStore.keyOf(s.operationId()));
    }
    reopen();

    boolean forward = kind.equals("RolledForward");
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(s.operationId());
      assertThat(e.kind()).isEqualTo(kind);
      assertThat(e.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.Revert.WIRE);
      assertThat(e.commitId()).isEqualTo(forward ? s.lineage().commitId() : kind.equals("RolledBack")
          ? s.lineage().rollbackCommitId() : null);
    });
    List<String> commits = commitIds("main");
    if (forward) {
      assertThat(content("main")).isEqualTo(target.content());
      assertThat(commits).hasSize(before.commits().size() + 1);
      assertThat(commits.get(0)).isEqualTo(s.lineage().commitId());
      assertThat(graph.commit(commits.get(0)).actorId()).isEqualTo(CrashChild.ACTOR);
    } else {
      assertThat(content("main")).isEqualTo(before.content());
      // A rollback publishes the restored pins under its pre-minted commit; a discard publishes nothing.
      assertThat(commits).hasSize(before.commits().size() + (kind.equals("RolledBack") ? 1 : 0));
    }
    assertThat(commits.subList(commits.size() - before.commits().size(), commits.size())).isEqualTo(before.commits());
    assertPinsEqualHeads("main");
    WriteResult next = graph.mutate("main", AbstractMutationTest.GQ, "add_person",
        new ObjectMapper().createObjectNode().put("name", "gil"), Optional.of("act-test"), Optional.empty());
    assertThat(next.commitId()).isPresent();
    assertThat(content("main")).isEqualTo(plus(forward ? target.content() : before.content(),
        Map.of("Person", Set.of("gil"))));
    assertPinsEqualHeads("main");
  }

  // ---------------------------------------------------------------------------------------------
  // 4c. A Blob cell write (PUT /blob) halts at each of its failpoints; a read-write reopen leaves
  //     the cell's bytes exactly before or after, never torn, with no sidecar and one audit row.

  /** Every Blob cell write failpoint and the audit kind recovery must record. */
  Stream<Arguments> blobWriteCrashCases() {
    return Stream.of(
        Arguments.of("blob_write.after_arm", "Discarded"),
        Arguments.of("write.after_table_commit", "RolledBack"),
        Arguments.of("blob_write.after_commits", "RolledBack"),
        Arguments.of("blob_write.after_confirm", "RolledForward"),
        Arguments.of("blob_write.before_publish", "RolledForward"),
        Arguments.of("blob_write.after_publish", "RolledForward"));
  }

  /** The Blob-bearing type the cases add to the template's schema (a new table: nothing is rewritten). */
  static final String WITH_DOC = "\nnode Doc {\n  slug: String @key\n  body: Blob?\n}\n";

  @ParameterizedTest(name = "blob write halts at {0} ({1})")
  @MethodSource("blobWriteCrashCases")
  void aHaltInsideABlobWriteLeavesTheCellBeforeOrAfter(String failpoint, String kind) throws Exception {
    graph.schemaApply(AbstractGraphEngineTest.schemaText() + WITH_DOC, false, Optional.of("act-test"));
    byte[] before = AbstractBlobTest.pattern(300_000, 1);
    byte[] after = AbstractBlobTest.pattern(5 * 1024 * 1024 + 7, 2); // over one 4 MiB read
    load("main", LoadMode.APPEND, doc("d1", before));
    Before was = capture("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "blob", "main", "Doc", "d1", "body", Integer.toString(after.length), "2");
    assertThat(r.exitCode()).as("blob child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(sidecarKeys()).hasSize(1);
    RecoverySidecar s = readSidecar(sidecarKeys().get(0));
    assertThat(s.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.BlobWrite.WIRE);
    assertThat(s.tables()).extracting(RecoverySidecar.TableIntent::tableKey).containsExactly(TableKey.node("Doc"));
    reopen();

    boolean forward = kind.equals("RolledForward");
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(s.operationId());
      assertThat(e.kind()).isEqualTo(kind);
      assertThat(e.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.BlobWrite.WIRE);
    });
    assertThat(AbstractBlobTest.sha256(cell("main", "d1"))).isEqualTo(AbstractBlobTest.sha256(forward ? after : before));
    assertThat(content("main")).isEqualTo(was.content());
    List<String> commits = commitIds("main");
    assertThat(commits).hasSize(was.commits().size() + (kind.equals("Discarded") ? 0 : 1));
    if (forward) {
      assertThat(commits.get(0)).isEqualTo(s.lineage().commitId());
      assertThat(graph.commit(commits.get(0)).actorId()).isEqualTo(CrashChild.ACTOR);
    }
    assertPinsEqualHeads("main");
  }

  // ---------------------------------------------------------------------------------------------
  // 5. Branch merge (issue 14) halts at each of its phase boundaries; a read-write reopen converges
  //    to exactly before or after on the target: rows, commit list, pins == HEADs, __recovery/
  //    empty, one audit row (none where nothing was armed), and the next merge agrees.

  /** Every merge failpoint with its target branch and whether the merge survives the halt. */
  Stream<Arguments> mergeCrashCases() {
    return Stream.of(
        Arguments.of("merge.after_capture", "main", "none"),
        Arguments.of("merge.after_arm", "main", "Discarded"),
        Arguments.of("merge.after_chunk_commit", "main", "RolledBack"),
        Arguments.of("merge.after_commits", "main", "RolledBack"),
        Arguments.of("merge.after_confirm", "main", "RolledForward"),
        Arguments.of("merge.before_publish", "main", "RolledForward"),
        Arguments.of("merge.after_publish", "main", "RolledForward"),
        Arguments.of("merge.after_ref_create", "second", "Discarded"),
        Arguments.of("merge.after_confirm", "second", "RolledForward"));
  }

  @ParameterizedTest(name = "merge into {1} halts at {0}")
  @MethodSource("mergeCrashCases")
  void aHaltInsideABranchMergeConvergesOnReadWriteReopen(String failpoint, String target, String audit)
      throws Exception {
    graph.branchCreate("second", "main", Optional.of("act-test"));
    graph.branchCreate("src", "main", Optional.of("act-test"));
    load("src", LoadMode.APPEND, person("cat", 41), "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}",
        "{\"edge\":\"WorksAt\",\"from\":\"cat\",\"to\":\"initech\"}");
    if (target.equals("main")) {
      load("main", LoadMode.APPEND, person("dan", 50)); // Person diverges: a three-way table
    }
    Before before = capture(target);
    String sourceHead = commitIds("src").get(0);
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "merge", "src", target);
    assertThat(r.exitCode()).as("merge child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(sidecarKeys()).as("sidecars after a halt at %s", failpoint).hasSize(audit.equals("none") ? 0 : 1);
    Optional<RecoverySidecar> s = sidecarKeys().isEmpty() ? Optional.empty()
        : Optional.of(readSidecar(sidecarKeys().get(0)));
    s.ifPresent(sc -> {
      assertThat(sc.writerKind()).isEqualTo("branch_merge");
      assertThat(sc.protocolV4().mergedParent()).isEqualTo(sourceHead);
    });
    reopen();

    assertThat(sidecarKeys()).as("__recovery/ after recovery").isEmpty();
    boolean landed = audit.equals("RolledForward");
    if (s.isPresent()) {
      assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
        assertThat(e.operationId()).isEqualTo(s.get().operationId());
        assertThat(e.kind()).isEqualTo(audit);
        assertThat(e.writerKind()).isEqualTo("branch_merge");
      });
    } else {
      assertThat(graph.recoveryAudit()).isEmpty();
    }
    Map<String, Set<String>> delta = Map.of("Person", Set.of("cat"), "Company", Set.of("initech"),
        "WorksAt", Set.of("cat->initech"));
    List<String> commits = commitIds(target);
    if (landed) {
      assertThat(content(target)).isEqualTo(plus(before.content(), delta));
      assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
      assertThat(commits.get(0)).isEqualTo(s.get().lineage().commitId());
      assertThat(graph.commit(commits.get(0)).mergedParentCommitId()).isEqualTo(sourceHead);
    } else {
      assertThat(content(target)).isEqualTo(before.content());
      // A rollback that restored a table publishes the restored pins as one commit; else nothing.
      assertThat(commits.subList(commits.size() - before.commits().size(), commits.size()))
          .isEqualTo(before.commits());
      assertThat(commits.size() - before.commits().size()).isLessThanOrEqualTo(1);
    }
    assertPinsEqualHeads(target);
    assertNoStrayRefs(target);
    // The next merge agrees with the outcome: up to date after a landed merge, else it lands now.
    dev.omnigraph.api.BranchMergeOutput again = graph.branchMerge("src", target, false, Optional.of("act-test"));
    assertThat(again.outcome() == dev.omnigraph.api.MergeOutcome.ALREADY_UP_TO_DATE).isEqualTo(landed);
    assertThat(content(target)).isEqualTo(plus(before.content(), delta));
    assertPinsEqualHeads(target);
    assertThat(sidecarKeys()).isEmpty();
  }

  /**
   * A load of managed Blob rows (each payload written into the table's data files with its row) halted
   * between its table commit and its confirm (rolled back: the rows are gone) and after its confirm
   * (rolled forward: both rows with their exact bytes). A committed cell is never touched.
   */
  Stream<Arguments> blobLoadCrashCases() {
    return Stream.of(Arguments.of("write.after_table_commit", "RolledBack"),
        Arguments.of("write.after_confirm", "RolledForward"));
  }

  @ParameterizedTest(name = "a Blob load halts at {0}")
  @MethodSource("blobLoadCrashCases")
  void aHaltInsideABlobLoadLeavesTheRowsBeforeOrAfter(String failpoint, String kind) throws Exception {
    graph.schemaApply(AbstractGraphEngineTest.schemaText() + WITH_DOC, false, Optional.of("act-test"));
    byte[] kept = AbstractBlobTest.pattern(50_000, 1);
    load("main", LoadMode.APPEND, doc("d1", kept));
    // Two payloads of 60 KB: their base64 lines stay under one command-line argument's 128 KiB.
    byte[] second = AbstractBlobTest.pattern(60_000, 2);
    byte[] third = AbstractBlobTest.pattern(60_001, 3);
    Before before = capture("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "load", "main", doc("d2", second), doc("d3", third));
    assertThat(r.exitCode()).as("load child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    reopen();

    boolean landed = kind.equals("RolledForward");
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo(kind));
    assertThat(AbstractBlobTest.sha256(cell("main", "d1"))).isEqualTo(AbstractBlobTest.sha256(kept));
    if (landed) {
      assertThat(content("main")).isEqualTo(plus(before.content(), Map.of("Doc", Set.of("d2", "d3"))));
      assertThat(AbstractBlobTest.sha256(cell("main", "d2"))).isEqualTo(AbstractBlobTest.sha256(second));
      assertThat(AbstractBlobTest.sha256(cell("main", "d3"))).isEqualTo(AbstractBlobTest.sha256(third));
    } else {
      assertThat(content("main")).isEqualTo(before.content());
    }
    assertPinsEqualHeads("main");
  }

  /**
   * A merge that carries Blob rows (docs/merge.md: a carried cell is read at the source pin and
   * written back as bytes): a halt between its chunk commit and its confirm rolls back to the
   * target's old bytes, a halt after its confirm rolls forward to the source's; never a torn cell.
   */
  Stream<Arguments> blobMergeCrashCases() {
    return Stream.of(Arguments.of("merge.after_chunk_commit", "RolledBack"),
        Arguments.of("merge.after_confirm", "RolledForward"));
  }

  @ParameterizedTest(name = "a merge carrying Blob rows halts at {0}")
  @MethodSource("blobMergeCrashCases")
  void aHaltInsideAMergeThatCarriesBlobRowsLeavesTheCellsBeforeOrAfter(String failpoint, String kind)
      throws Exception {
    graph.schemaApply(AbstractGraphEngineTest.schemaText() + WITH_DOC, false, Optional.of("act-test"));
    byte[] old = AbstractBlobTest.pattern(300_000, 1);
    load("main", LoadMode.APPEND, doc("d1", old));
    graph.branchCreate("src", "main", Optional.of("act-test"));
    byte[] rewritten = AbstractBlobTest.pattern(5 * 1024 * 1024 + 7, 2); // over one 4 MiB read
    byte[] added = AbstractBlobTest.pattern(70_000, 3);
    graph.writeBlob("src", "node", "Doc", "d1", "body", Optional.of(new java.io.ByteArrayInputStream(rewritten)),
        Optional.empty(), Optional.empty(), Optional.of("act-test"));
    load("src", LoadMode.APPEND, doc("d2", added));
    load("main", LoadMode.APPEND, doc("d3", new byte[] {9})); // Doc diverges: a three-way table
    Before before = capture("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "merge", "src", "main");
    assertThat(r.exitCode()).as("merge child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    reopen();

    boolean landed = kind.equals("RolledForward");
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(kind);
      assertThat(e.writerKind()).isEqualTo("branch_merge");
    });
    assertThat(AbstractBlobTest.sha256(cell("main", "d1"))).isEqualTo(AbstractBlobTest.sha256(landed ? rewritten : old));
    if (landed) {
      assertThat(AbstractBlobTest.sha256(cell("main", "d2"))).isEqualTo(AbstractBlobTest.sha256(added));
    } else {
      assertThat(content("main")).isEqualTo(before.content());
    }
    assertThat(cell("main", "d3")).containsExactly(9);
    assertPinsEqualHeads("main");
    // The next merge agrees: up to date after a landed merge, else it lands now with the source's bytes.
    dev.omnigraph.api.BranchMergeOutput again = graph.branchMerge("src", "main", false, Optional.of("act-test"));
    assertThat(again.outcome() == dev.omnigraph.api.MergeOutcome.ALREADY_UP_TO_DATE).isEqualTo(landed);
    assertThat(AbstractBlobTest.sha256(cell("main", "d1"))).isEqualTo(AbstractBlobTest.sha256(rewritten));
    assertThat(AbstractBlobTest.sha256(cell("main", "d2"))).isEqualTo(AbstractBlobTest.sha256(added));
    assertThat(sidecarKeys()).isEmpty();
  }

  private static String doc(String slug, byte[] body) {
    return "{\"type\":\"Doc\",\"data\":{\"slug\":\"" + slug + "\",\"body\":\"" + AbstractBlobTest.base64(body) + "\"}}";
  }

  private byte[] cell(String branch, String slug) {
    try (dev.omnigraph.api.BlobRead cell = graph.readBlob("node", "Doc", slug, "body", Optional.of(dev.omnigraph.api.BranchName.existing(branch)),
        Optional.empty(), Optional.empty())) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      cell.copyTo(0, cell.size(), out);
      return out.toByteArray();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 6. Schema apply (issue 15) halts at each of its phase boundaries (a rewrite of Company that
  //    drops a property hard and adds one, and a new type City): a read-write reopen converges to
  //    exactly the old schema and data or the new schema and migrated data — schema identity, rows,
  //    commit list, pins == HEADs, __recovery/ empty, one audit row (none where nothing was armed),
  //    the hard drop done only once the apply is visible.

  static final String SCHEMA_AFTER = AbstractGraphEngineTest.schemaText()
      .replace("  founded: Date?\n", "  city: String?\n") + "\nnode City {\n  name: String @key\n}\n";

  Stream<Arguments> schemaApplyCrashCases() {
    return Stream.of(
        Arguments.of("schema_apply.after_stage", "none"),
        Arguments.of("schema_apply.after_arm", "Discarded"),
        Arguments.of("schema_apply.after_table_commit", "RolledBack"),
        Arguments.of("schema_apply.after_commits", "RolledBack"),
        Arguments.of("schema_apply.after_confirm", "RolledForward"),
        Arguments.of("schema_apply.before_publish", "RolledForward"),
        Arguments.of("manifest.after_publish_commit", "RolledForward"),
        Arguments.of("schema_apply.after_publish", "RolledForward"),
        Arguments.of("schema_apply.before_promote", "RolledForward"),
        Arguments.of("schema_apply.after_promote_state", "RolledForward"),
        Arguments.of("schema_apply.before_hard_drop", "RolledForward"));
  }

  @ParameterizedTest(name = "schema apply halts at {0}")
  @MethodSource("schemaApplyCrashCases")
  void aHaltInsideASchemaApplyConvergesOnReadWriteReopen(String failpoint, String audit) throws Exception {
    load("main", LoadMode.APPEND, "{\"type\":\"Company\",\"data\":{\"name\":\"acme\",\"founded\":\"2001-02-03\"}}");
    Before before = capture("main");
    String oldIdentity = graph.schemaIdentity();
    SnapshotOutput.Dataset company = before.snapshot().datasets().stream()
        .filter(d -> d.typeName().equals("Company")).findFirst().orElseThrow();
    java.nio.file.Path desired = java.nio.file.Files.createTempFile("desired", ".pg");
    java.nio.file.Files.writeString(desired, SCHEMA_AFTER);
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "schema", desired.toString(), "true");
    assertThat(r.exitCode()).as("schema apply child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    assertThat(sidecarKeys()).as("sidecars after a halt at %s", failpoint).hasSize(audit.equals("none") ? 0 : 1);
    Optional<RecoverySidecar> s = sidecarKeys().isEmpty() ? Optional.empty()
        : Optional.of(readSidecar(sidecarKeys().get(0)));
    s.ifPresent(sc -> {
      assertThat(sc.writerKind()).isEqualTo("schema_apply");
      assertThat(sc.protocolV7().acceptedIdentity()).isEqualTo(oldIdentity);
      assertThat(sc.protocolV7().creates()).containsExactly(TableKey.node("City"));
    });
    boolean landed = audit.equals("RolledForward");
    DataTables tables = new DataTables(config);
    if (!landed) {
      // Nothing irreversible before the apply is visible: the old Company version still reads.
      assertThat(tables.versions().readable(TableRef.main(company.datasetPath()).at(company.publishedDatasetVersion())))
          .isTrue();
    }
    reopen();

    assertThat(sidecarKeys()).as("__recovery/ after recovery").isEmpty();
    if (s.isPresent()) {
      assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
        assertThat(e.operationId()).isEqualTo(s.get().operationId());
        assertThat(e.kind()).isEqualTo(audit);
        assertThat(e.writerKind()).isEqualTo("schema_apply");
      });
    } else {
      assertThat(graph.recoveryAudit()).isEmpty();
    }
    List<String> commits = commitIds("main");
    Map<String, Set<String>> content = content("main");
    if (landed) {
      assertThat(graph.schema().schemaSource()).isEqualTo(SCHEMA_AFTER);
      assertThat(graph.schemaIdentity()).isEqualTo(s.get().protocolV7().targetIdentity());
      assertThat(content).isEqualTo(plus(before.content(), Map.of("City", Set.of())));
      assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
      assertThat(commits.get(0)).isEqualTo(s.get().lineage().commitId());
      // The hard drop ran once the apply was visible: the pre-apply Company version is gone.
      assertThat(tables.versions().readable(TableRef.main(company.datasetPath()).at(company.publishedDatasetVersion())))
          .isFalse();
    } else {
      assertThat(graph.schemaIdentity()).isEqualTo(oldIdentity);
      assertThat(graph.schema().schemaSource()).isEqualTo(AbstractGraphEngineTest.schemaText());
      assertThat(content).isEqualTo(before.content());
      assertThat(commits.subList(commits.size() - before.commits().size(), commits.size()))
          .isEqualTo(before.commits());
      assertThat(commits.size() - before.commits().size()).isLessThanOrEqualTo(1);
      assertThat(tables.datasetExists(s.map(sc -> sc.tables().stream().filter(t -> t.tableKey().equals(TableKey.node("City")))
          .findFirst().orElseThrow().location()).orElse("nodes/none"))).isFalse();
    }
    assertPinsEqualHeads("main");
    // The next apply agrees with the outcome: nothing left to do after a landed one, else it lands now.
    dev.omnigraph.api.SchemaApplyOutput again = graph.schemaApply(SCHEMA_AFTER, true, Optional.of("act-test"));
    assertThat(again.applied()).isEqualTo(!landed);
    assertThat(graph.schema().schemaSource()).isEqualTo(SCHEMA_AFTER);
    assertPinsEqualHeads("main");
    assertThat(sidecarKeys()).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // 7. EnsureIndices (issue 16) halts at each of its phase boundaries, on main and on a fresh graph
  //    branch (every table first-touch): a read-write reopen converges to exactly before (no index,
  //    same rows, same pins or a restored pin under the rollback commit) or after (the indexes at
  //    the confirmed versions under the run's own commit), __recovery/ empty, one audit row (none
  //    where nothing was armed), and the next run agrees (nothing to do after a landed one).

  /**
   * people.pg with two indexed properties, Person.age and Knows.since (BTree); Person's String key
   * gets an inverted index too.
   */
  static final String SCHEMA_INDEXED = AbstractGraphEngineTest.schemaText()
      .replace("  age: I32?\n", "  age: I32? @index\n").replace("  since: I64?\n", "  since: I64? @index\n");

  /** Every ensure failpoint with its branch and how recovery settles it ("none": nothing armed). */
  Stream<Arguments> ensureCrashCases() {
    return Stream.of(
        Arguments.of("ensure_indices.after_plan", "main", "none"),
        Arguments.of("ensure_indices.after_arm", "main", "Discarded"),
        Arguments.of("ensure_indices.after_table_commit", "main", "RolledBack"),
        Arguments.of("ensure_indices.after_commits", "main", "RolledBack"),
        Arguments.of("ensure_indices.after_confirm", "main", "RolledForward"),
        Arguments.of("ensure_indices.before_publish", "main", "RolledForward"),
        Arguments.of("manifest.after_publish_commit", "main", "RolledForward"),
        Arguments.of("ensure_indices.after_publish", "main", "RolledForward"),
        Arguments.of("ensure_indices.after_arm", FEATURE, "Discarded"),
        Arguments.of("ensure_indices.after_ref_create", FEATURE, "Discarded"),
        Arguments.of("ensure_indices.after_table_commit", FEATURE, "RolledBack"),
        Arguments.of("ensure_indices.after_commits", FEATURE, "RolledBack"),
        Arguments.of("ensure_indices.after_confirm", FEATURE, "RolledForward"),
        Arguments.of("ensure_indices.after_publish", FEATURE, "RolledForward"));
  }

  Stream<Arguments> selectedEnsureCrashCases() {
    String filter = System.getProperty("omnigraph.crash.filter", "");
    return ensureCrashCases().filter(a -> ("ENSURE:" + a.get()[1] + ":" + a.get()[0]).contains(filter));
  }

  /** The index names the tables of {@code branch} have at their pins, per type. */
  private Map<String, Set<String>> indexes(String branch) {
    DataTables tables = new DataTables(config);
    Map<String, Set<String>> out = new TreeMap<>();
    for (SnapshotOutput.Dataset d : graph.snapshot(branch).datasets()) {
      out.put(d.typeName(), new TreeSet<>(tables.indexes().indexState(TableAt.of(d.datasetPath(), Optional.ofNullable(
          d.nativeDatasetBranch()), d.publishedDatasetVersion()), List.of()).indexes().keySet()));
    }
    return out;
  }

  @ParameterizedTest(name = "ensure_indices on {1} halts at {0}")
  @MethodSource("selectedEnsureCrashCases")
  void aHaltInsideAnIndexEnsureConvergesOnReadWriteReopen(String failpoint, String branch, String audit)
      throws Exception {
    graph.schemaApply(SCHEMA_INDEXED, false, Optional.of("act-test"));
    seed(branch);
    Before before = capture(branch);
    Map<String, Set<String>> indexesBefore = indexes(branch);
    assertThat(indexesBefore.get("Person")).containsExactly("id_idx");
    SnapshotOutput mainBefore = graph.snapshot("main");
    List<String> mainCommits = commitIds("main");
    graph.close();
    CrashChildProcess.Result r = CrashChildProcess.run(config, Optional.of(failpoint), CHILD_TIMEOUT_SECONDS,
        "ensure", branch);
    assertThat(r.exitCode()).as("ensure child halted at %s:\n%s", failpoint, r.output()).isEqualTo(137);
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(sidecarKeys()).as("sidecars after a halt at %s", failpoint).hasSize(audit.equals("none") ? 0 : 1);
    Optional<RecoverySidecar> s = sidecarKeys().isEmpty() ? Optional.empty()
        : Optional.of(readSidecar(sidecarKeys().get(0)));
    s.ifPresent(sc -> {
      assertThat(sc.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.EnsureIndices.WIRE);
      assertThat(sc.actor()).isEqualTo(CrashChild.ACTOR);
      assertThat(sc.tables()).extracting(RecoverySidecar.TableIntent::tableKey)
          .containsExactly(TableKey.edge("Knows"), TableKey.node("Person"));
      assertThat(sc.tables()).allSatisfy(t -> {
        assertThat(t.firstTouch()).isEqualTo(!branch.equals("main"));
        assertThat(t.postCommitVersion()).isEqualTo(t.readVersion() + 1);
      });
      assertThat(sc.protocolV8().indexes().get(TableKey.node("Person"))).extracting(RecoverySidecar.IndexEntry::name)
          .containsExactly("name_idx", "age_idx"); // name is the @key (a String: inverted)
      assertThat(sc.state()).isEqualTo(audit.equals("RolledForward") ? RecoverySidecar.State.EFFECTS_CONFIRMED
          : RecoverySidecar.State.ARMED);
      assertThat(sc.protocolV8().delta() != null).isEqualTo(audit.equals("RolledForward"));
    });
    reopen();

    assertThat(sidecarKeys()).as("__recovery/ after recovery").isEmpty();
    if (s.isPresent()) {
      assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
        assertThat(e.operationId()).isEqualTo(s.get().operationId());
        assertThat(e.kind()).isEqualTo(audit);
        assertThat(e.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.EnsureIndices.WIRE);
        assertThat(e.forActor()).isEqualTo(CrashChild.ACTOR);
      });
    } else {
      assertThat(graph.recoveryAudit()).isEmpty();
    }
    boolean landed = audit.equals("RolledForward");
    List<String> commits = commitIds(branch);
    assertThat(content(branch)).isEqualTo(before.content());
    Map<String, Set<String>> indexesNow = indexes(branch);
    if (landed) {
      assertThat(commits).hasSize(before.commits().size() + 1);
      assertThat(commits.get(0)).isEqualTo(s.get().lineage().commitId());
      assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
      assertThat(graph.commit(commits.get(0)).actorId()).isEqualTo(CrashChild.ACTOR);
      assertThat(indexesNow.get("Person")).containsExactly("age_idx", "id_idx", "name_idx");
      assertThat(indexesNow.get("Knows")).containsExactly("dst_idx", "id_idx", "since_idx", "src_idx");
      for (RecoverySidecar.TableIntent t : s.get().tables()) {
        SnapshotOutput.Dataset d = graph.snapshot(branch).datasets().stream()
            .filter(x -> x.datasetPath().equals(t.location())).findFirst().orElseThrow();
        assertThat(d.publishedDatasetVersion()).isEqualTo(t.postCommitVersion());
        assertThat(d.nativeDatasetBranch()).isEqualTo(t.nativeBranch());
      }
    } else {
      assertThat(indexesNow).isEqualTo(indexesBefore);
      // Before, exactly: a restored main table's pin moves under the pre-minted rollback commit
      // (same content, same indexes); anything else leaves the pins and commits as they were.
      boolean restored = audit.equals("RolledBack") && branch.equals("main");
      if (restored) {
        assertThat(commits).hasSize(before.commits().size() + 1);
        assertThat(commits.get(0)).isEqualTo(s.get().lineage().rollbackCommitId());
        assertThat(graph.commit(commits.get(0)).actorId()).isEqualTo(Recovery.RECOVERY_ACTOR);
        assertThat(commits.subList(1, commits.size())).isEqualTo(before.commits());
      } else {
        assertThat(commits).isEqualTo(before.commits());
        assertThat(graph.snapshot(branch).datasets()).isEqualTo(before.snapshot().datasets());
      }
    }
    assertPinsEqualHeads(branch);
    assertNoStrayRefs(branch);
    if (!branch.equals("main")) {
      assertThat(graph.snapshot("main").datasets()).isEqualTo(mainBefore.datasets());
      assertThat(commitIds("main")).isEqualTo(mainCommits);
    }
    // The next run agrees with the outcome: nothing left after a landed run, else it builds now.
    dev.omnigraph.api.EnsureIndicesOutput again = graph.ensureIndices(branch, Optional.of("act-test"));
    assertThat(again.changed()).isEqualTo(!landed);
    assertThat(indexes(branch).get("Person")).containsExactly("age_idx", "id_idx", "name_idx");
    assertThat(content(branch)).isEqualTo(before.content());
    assertPinsEqualHeads(branch);
    assertNoStrayRefs(branch);
    assertThat(sidecarKeys()).isEmpty();
    assertThat(graph.ensureIndices(branch, Optional.of("act-test")).changed()).isFalse();
  }
}
