package dev.omnigraph.engine;

import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.InsertCertificate;
import dev.omnigraph.write.LoadInputError;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The direct-publish write path through NDJSON loads, against real Lance, once per backend. */
abstract class AbstractWritePathTest extends AbstractGraphFixture {

  /** Threads × writes per thread for the no-lost-write test (smaller on slow backends). */
  protected abstract int[] concurrency();

  @Test
  void appendPublishesOneCommitWithExactRowsAndNoSidecar() {
    WriteResult r = load("main", LoadMode.APPEND, person("alice", 30), person("bob", null),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}",
        "{\"edge\":\"WorksAt\",\"from\":\"alice\",\"to\":\"acme\",\"data\":{\"role\":\"eng\"}}");
    assertThat(r.commitId()).isPresent();
    assertThat(r.manifestVersion()).isEqualTo(3);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(2);
    // Init pins version 2 of a node table (creation + the id index), 4 of an edge table (+ src, dst).
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(3);
    assertThat(dataset("main", "Company").entityCount()).isEqualTo(1);
    assertThat(dataset("main", "WorksAt").entityCount()).isEqualTo(1);
    assertThat(dataset("main", "Knows").publishedDatasetVersion()).isEqualTo(4);
    assertThat(rows("main", "Person")).containsOnlyKeys("alice", "bob");
    assertThat(rows("main", "Person").get("alice").get("age")).isEqualTo(30);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).actorId()).isEqualTo("act-test");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aDuplicateAppendIsKeyConflictWithTheExactIdAndChangesNothing() {
    load("main", LoadMode.APPEND, person("alice", 30));
    long version = graph.snapshot("main").graphManifestVersion();
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("zoe", 1), person("alice", 99)))
        .isInstanceOfSatisfying(KeyConflict.class, e -> {
          assertThat(e.tableKey()).isEqualTo("node:Person");
          assertThat(e.key()).isEqualTo("alice");
        });
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);
    assertThat(rows("main", "Person")).containsOnlyKeys("alice");
    assertThat(rows("main", "Person").get("alice").get("age")).isEqualTo(30);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void mergeUpsertsByIdAndOverwriteReplaces() {
    load("main", LoadMode.APPEND, person("alice", 30), person("bob", 40));
    load("main", LoadMode.MERGE, person("alice", 31), person("carol", 50));
    Map<String, Map<String, Object>> after = rows("main", "Person");
    assertThat(after).containsOnlyKeys("alice", "bob", "carol");
    assertThat(after.get("alice").get("age")).isEqualTo(31);
    assertThat(after.get("bob").get("age")).isEqualTo(40);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(3);

    SnapshotOutput.Dataset merged = dataset("main", "Person");
    assertThat(new DataTables(config).transactionAt(merged.datasetPath(), Optional.empty(),
        merged.publishedDatasetVersion()).orElseThrow().properties())
        .as("a mixed upsert carries no insert-absence certificate")
        .doesNotContainKey(InsertCertificate.INSERT_ABSENCE);
    load("main", LoadMode.OVERWRITE, person("dave", 1));
    assertThat(rows("main", "Person")).containsOnlyKeys("dave");
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(1);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(4);
  }

  /**
   * Lance 7.0 restarts an Overwrite's fragment ids at 0 and caches a fragment's row ids by fragment
   * id alone, per dataset: a probe after an overwrite got the replaced fragment's row ids and failed
   * ("all columns in a record batch must have the same length"). Our overwrites take ids no version
   * of the table used, so the probe, the time travel before it and the new rows all read right.
   */
  @Test
  void anOverwriteTakesFragmentIdsNoEarlierVersionUsed() {
    load("main", LoadMode.APPEND, person("alice", 30), person("bob", 40));
    load("main", LoadMode.MERGE, person("alice", 31), person("carol", 50));
    SnapshotOutput.Dataset before = dataset("main", "Person");
    DataTables tables = new DataTables(config);
    java.util.Set<Integer> used = new java.util.TreeSet<>();
    for (long v = 1; v <= before.publishedDatasetVersion(); v++) {
      used.addAll(tables.fragmentIds(before.datasetPath(), Optional.empty(), v));
    }
    load("main", LoadMode.OVERWRITE, person("dave", 1), person("erin", 2), person("fay", 3));
    SnapshotOutput.Dataset overwritten = dataset("main", "Person");
    assertThat(tables.fragmentIds(overwritten.datasetPath(), Optional.empty(), overwritten.publishedDatasetVersion()))
        .isNotEmpty()
        .allSatisfy(id -> assertThat(id).isGreaterThan(java.util.Collections.max(used)));
    load("main", LoadMode.MERGE, person("dave", 9), person("gus", 4));
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("erin", 7)))
        .isInstanceOfSatisfying(KeyConflict.class, e -> assertThat(e.key()).isEqualTo("erin"));
    Map<String, Map<String, Object>> after = rows("main", "Person");
    assertThat(after).containsOnlyKeys("dave", "erin", "fay", "gus");
    assertThat(after.get("dave").get("age")).isEqualTo(9);
    Map<String, Object> old = new java.util.TreeMap<>();
    tables.scan(before.datasetPath(), Optional.empty(), before.publishedDatasetVersion(),
        dev.omnigraph.table.Filter.in("id", List.of("alice", "carol")), List.of("id", "age"),
        r -> old.put(String.valueOf(r.get("id")), r.get("age")));
    assertThat(old).containsExactlyInAnyOrderEntriesOf(Map.of("alice", 31, "carol", 50));
  }

  /**
   * An append over the keyed-plan bound is refused at the line that crosses it: the input is not
   * read to its end (issue 45: a 200,000-row file took 18-24 s to be refused), and nothing commits.
   */
  @Test
  void anAppendOverTheRowBoundIsRefusedAtTheLineThatCrossesIt() {
    long version = graph.snapshot("main").graphManifestVersion();
    int[] served = {0};
    java.io.Reader endless = new java.io.Reader() {
      private String pending = "";

      @Override
      public int read(char[] buf, int off, int len) {
        if (pending.isEmpty()) {
          if (served[0] >= 9_000) {
            throw new AssertionError("the load read past row 9,000 of an input it had to refuse at 8,193");
          }
          pending = person("bulk" + served[0]++, 1) + "\n";
        }
        int n = Math.min(len, pending.length());
        pending.getChars(0, n, buf, off);
        pending = pending.substring(n);
        return n;
      }

      @Override
      public void close() {}
    };
    assertThatThrownBy(() -> graph.load("main", endless, LoadMode.APPEND, Optional.of("act-test")))
        .isInstanceOfSatisfying(dev.omnigraph.api.ResourceLimitExceeded.class, e -> {
          assertThat(e.resource()).isEqualTo("rows:node:Person");
          assertThat(e.limit()).isEqualTo(8_192);
          assertThat(e.actual()).isEqualTo(8_193);
          assertThat(e.getMessage()).contains("refused at line 8193").contains("--mode overwrite");
        });
    assertThat(served[0]).isLessThan(9_000);
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void anEdgeLineMayNameItsIdAndAppendInsertsItStrictly() {
    load("main", LoadMode.APPEND, person("a", 1), person("b", 2));
    load("main", LoadMode.APPEND, "{\"edge\":\"Knows\",\"id\":\"k1\",\"from\":\"a\",\"to\":\"b\"}",
        "{\"edge\":\"Knows\",\"from\":\"b\",\"to\":\"a\",\"data\":{\"id\":\"k2\",\"since\":7}}");
    assertThat(edgeRows("main", "Knows")).containsOnlyKeys("k1", "k2");
    assertThat(edgeRows("main", "Knows").get("k2")).containsEntry("src", "b").containsEntry("since", 7L);
    long version = graph.snapshot("main").graphManifestVersion();
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"edge\":\"Knows\",\"id\":\"k9\",\"from\":\"a\",\"to\":\"a\"}",
        "{\"edge\":\"Knows\",\"id\":\"k1\",\"from\":\"b\",\"to\":\"b\"}"))
        .isInstanceOfSatisfying(KeyConflict.class, e -> {
          assertThat(e.tableKey()).isEqualTo("edge:Knows");
          assertThat(e.key()).isEqualTo("k1");
        });
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"edge\":\"Knows\",\"id\":\"k3\",\"from\":\"a\",\"to\":\"a\"}",
        "{\"edge\":\"Knows\",\"id\":\"k3\",\"from\":\"b\",\"to\":\"b\"}"))
        .isInstanceOf(LoadInputError.class).hasMessageContaining("appears twice");
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"edge\":\"Knows\",\"id\":\"k4\",\"from\":\"a\",\"to\":\"a\",\"data\":{\"id\":\"k5\"}}"))
        .isInstanceOf(LoadInputError.class).hasMessageContaining("two ids");
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, "{\"edge\":\"Knows\",\"id\":7,\"from\":\"a\",\"to\":\"a\"}"))
        .isInstanceOf(LoadInputError.class).hasMessageContaining("non-empty string");
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(version);
    assertThat(edgeRows("main", "Knows")).containsOnlyKeys("k1", "k2");
  }

  @Test
  void mergeUpsertsANamedEdgeByIdEndpointsIncluded() {
    load("main", LoadMode.APPEND, person("a", 1), person("b", 2), person("c", 3),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}", "{\"type\":\"Company\",\"data\":{\"name\":\"beta\"}}",
        "{\"edge\":\"Knows\",\"id\":\"k1\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"since\":1}}",
        "{\"edge\":\"WorksAt\",\"id\":\"w1\",\"from\":\"a\",\"to\":\"acme\"}");
    // The last line for an id wins inside a merge; WorksAt is @card(0..1): replacing w1 is no second job.
    load("main", LoadMode.MERGE, "{\"edge\":\"Knows\",\"id\":\"k1\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"since\":2}}",
        "{\"edge\":\"Knows\",\"id\":\"k1\",\"from\":\"a\",\"to\":\"c\",\"data\":{\"since\":3}}",
        "{\"edge\":\"WorksAt\",\"id\":\"w1\",\"from\":\"a\",\"to\":\"beta\"}");
    assertThat(edgeRows("main", "Knows")).containsOnlyKeys("k1");
    assertThat(edgeRows("main", "Knows").get("k1")).containsEntry("dst", "c").containsEntry("since", 3L);
    assertThat(dataset("main", "Knows").entityCount()).isEqualTo(1);
    assertThat(edgeRows("main", "WorksAt")).containsOnlyKeys("w1");
    assertThat(edgeRows("main", "WorksAt").get("w1")).containsEntry("dst", "beta");
    assertThat(dataset("main", "WorksAt").entityCount()).isEqualTo(1);
  }

  private Map<String, Map<String, Object>> edgeRows(String branch, String type) {
    SnapshotOutput.Dataset d = dataset(branch, type);
    Map<String, Map<String, Object>> out = new java.util.TreeMap<>();
    new DataTables(config).scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()),
        d.publishedDatasetVersion(), dev.omnigraph.table.Filter.TRUE, List.of(),
        r -> out.put(String.valueOf(r.get("id")), r));
    return out;
  }

  @Test
  void tooManyKeyedRowsIsResourceLimitExceededBeforeAnySidecar() {
    String[] lines = IntStream.range(0, 8_193).mapToObj(i -> person("p" + i, i)).toArray(String[]::new);
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, lines))
        .isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
          assertThat(e.limit()).isEqualTo(8_192);
          assertThat(e.actual()).isEqualTo(8_193);
          assertThat(e.resource()).isEqualTo("rows:node:Person");
        });
    assertThat(sidecars()).isEmpty();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(1);
  }

  @Test
  void badInputNamesItsLineAndWritesNothing() {
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("a", 1), "{\"type\":\"Person\",\"data\":{\"age\":\"x\"}}"))
        .isInstanceOfSatisfying(LoadInputError.class, e -> assertThat(e.line()).isEqualTo(2));
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("a", 1),
        "{\"edge\":\"Knows\",\"from\":\"a\",\"to\":\"ghost\"}"))
        .isInstanceOfSatisfying(LoadInputError.class, e -> {
          assertThat(e.line()).isEqualTo(2);
          assertThat(e.getMessage()).contains("ghost");
        });
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, "{\"type\":\"Nope\",\"data\":{}}"))
        .isInstanceOf(LoadInputError.class).hasMessageContaining("line 1");
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(1);
    assertThat(rows("main", "Person")).isEmpty();
  }

  @Test
  void declaredConstraintsAreEnforcedBeforeAnyEffect() {
    load("main", LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"email\":\"a@x.io\"}}",
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}",
        "{\"type\":\"Company\",\"data\":{\"name\":\"bigco\"}}",
        "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"acme\"}");
    long commits = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("old", 151)))
        .isInstanceOfSatisfying(dev.omnigraph.write.ConstraintViolation.class, e -> {
          assertThat(e.constraint()).isEqualTo("@range(age, 0..150)");
          assertThat(e.entityId()).isEqualTo("old");
        });
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"type\":\"Person\",\"data\":{\"name\":\"bo\",\"email\":\"not-an-email\"}}"))
        .isInstanceOfSatisfying(dev.omnigraph.write.ConstraintViolation.class,
            e -> assertThat(e.constraint()).startsWith("@check(email"));
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"type\":\"Person\",\"data\":{\"name\":\"cy\",\"email\":\"a@x.io\"}}"))
        .isInstanceOfSatisfying(dev.omnigraph.write.ConstraintViolation.class, e -> {
          assertThat(e.constraint()).isEqualTo("@unique(email)");
          assertThat(e.getMessage()).contains("ann");
        });
    assertThatThrownBy(() -> load("main", LoadMode.APPEND,
        "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"bigco\"}"))
        .isInstanceOfSatisfying(dev.omnigraph.write.ConstraintViolation.class,
            e -> assertThat(e.constraint()).isEqualTo("@card(0..1)"));
    // Rewriting ann's own email in a merge is not a collision with herself.
    load("main", LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"email\":\"a@x.io\",\"age\":3}}");
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize((int) commits + 1);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aBranchForksATableOnFirstWriteAndLeavesMainUntouched() {
    load("main", LoadMode.APPEND, person("alice", 30));
    graph.branchCreate("feature", "main", Optional.empty());
    load("feature", LoadMode.APPEND, person("bob", 40));
    load("feature", LoadMode.MERGE, person("alice", 31));

    assertThat(rows("main", "Person")).containsOnlyKeys("alice");
    assertThat(rows("main", "Person").get("alice").get("age")).isEqualTo(30);
    assertThat(rows("feature", "Person")).containsOnlyKeys("alice", "bob");
    assertThat(rows("feature", "Person").get("alice").get("age")).isEqualTo(31);
    assertThat(dataset("feature", "Person").nativeDatasetBranch()).isEqualTo("feature");
    assertThat(dataset("feature", "Company").nativeDatasetBranch()).isNull();
    assertThat(dataset("main", "Person").nativeDatasetBranch()).isNull();
    assertThat(graph.commits("feature", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(4);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void concurrentAppendsOnDistinctKeysAllLand() throws Exception {
    int threads = concurrency()[0];
    int each = concurrency()[1];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        go.await();
        for (int i = 0; i < each; i++) {
          load("main", LoadMode.APPEND, person("t" + thread + "-" + i, i));
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    int total = threads * each;
    assertThat(rows("main", "Person")).hasSize(total);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(total);
    // One commit per append (plus init); automatic compaction may add maintenance commits.
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits())
        .filteredOn(c -> !dev.omnigraph.maintenance.Optimize.ACTOR.equals(c.actorId())).hasSize(total + 1);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void racingStrictInsertsOfOneKeyExactlyOneWins() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<WriteResult>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int age = t;
      futures.add(pool.submit(() -> {
        go.await();
        return load("main", LoadMode.APPEND, person("same", age));
      }));
    }
    go.countDown();
    int wins = 0;
    List<String> conflicts = new ArrayList<>();
    for (Future<WriteResult> f : futures) {
      try {
        f.get();
        wins++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(KeyConflict.class);
        conflicts.add(((KeyConflict) e.getCause()).key());
      }
    }
    pool.shutdown();
    assertThat(wins).isEqualTo(1);
    assertThat(conflicts).hasSize(threads - 1).containsOnly("same");
    assertThat(rows("main", "Person")).containsOnlyKeys("same");
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aPublishFailureAfterConfirmedEffectsHealsAtTheNextWriteWithoutReopen() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput before = graph.snapshot("main");
    dev.omnigraph.api.RecoveryRequired failure;
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("write.before_publish")) {
      failure = org.assertj.core.api.Assertions.catchThrowableOfType(dev.omnigraph.api.RecoveryRequired.class,
          () -> load("main", LoadMode.APPEND, person("bob", 2)));
    }
    assertThat(failure).isNotNull();
    // The table effect landed, the graph did not move, and the sidecar names the operation.
    assertThat(graph.snapshot("main")).isEqualTo(before);
    SnapshotOutput.Dataset people = dataset("main", "Person");
    assertThat(new DataTables(config).head(people.datasetPath(), Optional.empty()))
        .isEqualTo(people.publishedDatasetVersion() + 1);
    assertThat(sidecars()).containsExactly("__recovery/" + failure.operationId() + ".json");
    // The next write on the same handle rolls the confirmed effect forward first, then runs.
    load("main", LoadMode.APPEND, person("cy", 3));
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob", "cy");
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.operationId()).isEqualTo(failure.operationId());
      assertThat(e.kind()).isEqualTo("RolledForward");
    });
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(4);
  }

  @Test
  void aWriteOnOneBranchNeitherWaitsForNorIsRefusedByALiveWriteOfTheSameTableOnAnother() throws Exception {
    load("main", LoadMode.APPEND, person("alice", 30));
    graph.branchCreate("left", "main", Optional.empty());
    graph.branchCreate("right", "main", Optional.empty());
    load("left", LoadMode.APPEND, person("l0", 1));
    load("right", LoadMode.APPEND, person("r0", 1));
    CountDownLatch armed = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Throwable[] outcome = new Throwable[1];
    Thread left;
    // The left write holds its gates with its sidecar armed (naming Person's location) until the
    // right write, on the same table's other ref, has landed.
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enable("write.after_arm", () -> {
      if (Thread.currentThread().getName().equals("left-writer")) {
        armed.countDown();
        try {
          release.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    })) {
      left = new Thread(() -> {
        try {
          load("left", LoadMode.APPEND, person("l1", 2));
        } catch (Throwable t) {
          outcome[0] = t;
        }
      }, "left-writer");
      left.start();
      assertThat(armed.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(sidecars()).hasSize(1);
      WriteResult right = load("right", LoadMode.APPEND, person("r1", 2));
      assertThat(right.commitId()).isPresent();
      release.countDown();
      left.join(60_000);
    }
    assertThat(outcome[0]).isNull();
    assertThat(rows("left", "Person")).containsOnlyKeys("alice", "l0", "l1");
    assertThat(rows("right", "Person")).containsOnlyKeys("alice", "r0", "r1");
    assertThat(rows("main", "Person")).containsOnlyKeys("alice");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aWriteCancelledBeforeItsEffectsLeavesNothingVisible() throws Exception {
    CountDownLatch prepared = new CountDownLatch(1);
    dev.omnigraph.gate.GateManager gates = GraphRoots.shared().peek(config.rootUri()).orElseThrow().gates();
    Thread writer;
    Throwable[] outcome = new Throwable[1];
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enable("write.after_prepare", prepared::countDown);
        dev.omnigraph.gate.GateManager.Held blocker = gates.acquire(List.of("main"), List.of())) {
      writer = new Thread(() -> {
        try {
          load("main", LoadMode.APPEND, person("zed", 9));
        } catch (Throwable t) {
          outcome[0] = t;
        }
      });
      writer.start();
      assertThat(prepared.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      Thread.sleep(200); // now waiting on the gates this test holds
      writer.interrupt();
      writer.join(60_000);
    }
    assertThat(outcome[0]).isNotNull().hasMessageContaining("interrupted");
    assertThat(rows("main", "Person")).isEmpty();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(1);
    assertThat(sidecars()).isEmpty();
    SnapshotOutput.Dataset people = dataset("main", "Person");
    assertThat(new DataTables(config).head(people.datasetPath(), Optional.empty()))
        .isEqualTo(people.publishedDatasetVersion());
  }

  @Test
  void aTableWrittenOutsideThePublisherIsUncoveredDriftPointingToRepair() {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput.Dataset people = dataset("main", "Person");
    DataTables tables = new DataTables(config);
    // A raw Lance commit nobody published: live HEAD moves past the manifest pin.
    org.apache.arrow.vector.types.pojo.Schema schema = dev.omnigraph.table.TableSchemas.node(
        dev.omnigraph.schema.SchemaParser.parse(AbstractGraphEngineTest.schemaText()).node("Person").orElseThrow());
    Map<String, Object> stray = new java.util.HashMap<>();
    stray.put("id", "stray");
    stray.put("name", "stray");
    stray.put("age", null);
    stray.put("email", null);
    tables.commit(tables.staging().stageInsert(people.datasetPath(), Optional.empty(), people.publishedDatasetVersion(), schema,
        List.of(stray), false));
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("bob", 2)))
        .isInstanceOfSatisfying(dev.omnigraph.api.UncoveredDrift.class, e -> {
          assertThat(e.tableKey()).isEqualTo("node:Person");
          assertThat(e.getMessage()).contains("omnigraph repair");
        });
    assertThat(sidecars()).isEmpty();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
  }

  @Test
  void readOnlyHandlesCannotWrite() {
    try (Omnigraph ro = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      assertThatThrownBy(() -> ro.load("main", new StringReader(person("x", 1)), LoadMode.APPEND, Optional.empty()))
          .isInstanceOf(dev.omnigraph.api.InvalidRequest.class);
    }
  }
}
