package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.EnsureIndicesOutput;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.schema.IndexKind;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TxInfo;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.write.EnsureIndicesAttempt;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The EnsureIndices contract on one backend (issue 16; docs/indexes-and-search.md, "Building
 * indexes: index ensure"): one run builds each kind (BTree on an indexed integer and enum, inverted
 * on an indexed string, vector on a {@code Vector(8)} with rows), a vector property with no vector
 * stays pending, and a second run publishes nothing; every read gives exactly the same rows before
 * and after; an index built on main is inherited by a branch without a copy, and a branch's own run
 * forks only the tables with work; a pending sidecar refuses the run; an unknown branch is typed.
 * Subclasses name the backend.
 */
abstract class AbstractEnsureIndicesTest {

  protected abstract StorageConfig newRoot() throws Exception;

  static final String SCHEMA = """
      node Doc {
        slug: String @key
        rank: I64? @index
        status: enum(draft, live)? @index
        body: String? @index
        emb: Vector(8)? @index
        note: String?
      }
      node Tiny {
        name: String @key
        emb: Vector(8)? @index
      }
      node Empty {
        name: String @key
        size: I32? @index
      }
      edge Cites: Doc -> Doc {
        weight: F64? @index
      }
      """;

  static final String QUERIES = """
      query by_rank($r: I64) {
        match { $d: Doc { rank: $r } }
        return { $d.slug, $d.rank, $d.status }
        order { $d.slug }
      }
      query low($r: I64) {
        match { $d: Doc  $d.rank < $r }
        return { $d.slug, $d.rank }
        order { $d.slug }
      }
      query live() {
        match { $d: Doc { status: "live" } }
        return { $d.slug }
        order { $d.slug }
      }
      query nulls() {
        match { $d: Doc  $d.status = null }
        return { $d.slug }
        order { $d.slug }
      }
      query text($t: String) {
        match { $d: Doc  $d.body contains $t }
        return { $d.slug, $d.body }
        order { $d.slug }
      }
      query prefix($p: String) {
        match { $d: Doc  $d.slug starts_with $p }
        return { $d.slug }
        order { $d.slug }
      }
      query one($s: String) {
        match { $d: Doc { slug: $s } }
        return { $d.slug, $d.note }
      }
      query heavy($w: F64) {
        match { $a: Doc  $a $c:cites $b  $c.weight >= $w }
        return { $a.slug, $b.slug, $c.weight }
        order { $a.slug, $b.slug }
      }
      query tiny() {
        match { $t: Tiny }
        return { $t.name }
        order { $t.name }
      }
      """;

  static final int DOCS = 300;
  static final String ACTOR = "act-index";

  StorageConfig config;
  Omnigraph graph;
  DataTables tables;

  @BeforeEach
  void init() throws Exception {
    config = RootTemplates.copyOf(getClass(), "ensure", this::newRoot, root -> {
      try (Omnigraph g = Omnigraph.init(root, SCHEMA, Optional.of("act-test"))) {
        g.load("main", new StringReader(String.join("\n", seed())), LoadMode.APPEND, Optional.of("act-test"));
      }
    });
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    tables = new DataTables(config);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  /** 300 docs (every 13th without a vector, every 7th without a rank, every 5th without a status), 2 tiny, 40 cites. */
  static List<String> seed() {
    List<String> lines = new ArrayList<>();
    Random random = new Random(16);
    for (int i = 0; i < DOCS; i++) {
      StringBuilder b = new StringBuilder("{\"type\":\"Doc\",\"data\":{\"slug\":\"d" + String.format("%03d", i) + "\"");
      if (i % 7 != 0) {
        b.append(",\"rank\":").append(i % 50);
      }
      if (i % 5 != 0) {
        b.append(",\"status\":\"").append(i % 2 == 0 ? "live" : "draft").append("\"");
      }
      b.append(",\"body\":\"doc ").append(i).append(i % 3 == 0 ? " about graphs" : " about cats").append("\"");
      if (i % 13 != 0) {
        b.append(",\"emb\":[");
        for (int k = 0; k < 8; k++) {
          b.append(k == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.4f", random.nextFloat() - 0.5f));
        }
        b.append("]");
      }
      lines.add(b.append("}}").toString());
    }
    lines.add("{\"type\":\"Tiny\",\"data\":{\"name\":\"t1\"}}");
    lines.add("{\"type\":\"Tiny\",\"data\":{\"name\":\"t2\"}}");
    for (int i = 0; i < 40; i++) {
      lines.add("{\"edge\":\"Cites\",\"from\":\"d" + String.format("%03d", i) + "\",\"to\":\"d"
          + String.format("%03d", (i * 7 + 1) % DOCS) + "\",\"data\":{\"weight\":" + (i % 10) / 2.0 + "}}");
    }
    return lines;
  }

  EnsureIndicesOutput ensure(String branch) {
    return graph.ensureIndices(branch, Optional.of(ACTOR));
  }

  List<String> commits(String branch) {
    return graph.commits(branch, CommitPage.first(CommitPage.MAX_LIMIT)).commits().stream()
        .map(CommitOutput::graphCommitId).toList();
  }

  SnapshotOutput.Dataset dataset(String branch, String type) {
    return graph.snapshot(branch).datasets().stream().filter(d -> d.typeName().equals(type)).findFirst().orElseThrow();
  }

  Map<String, IndexKind> indexesOf(SnapshotOutput.Dataset d) {
    return tables.indexes().indexState(TableAt.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion()), List.of()).indexes();
  }

  /** Every query of {@link #QUERIES} with its parameters, as rows. */
  Map<String, List<Map<String, Object>>> reads(String branch) {
    ObjectMapper json = new ObjectMapper();
    Map<String, String> params = new TreeMap<>(Map.of("by_rank", "{\"r\":17}", "low", "{\"r\":3}", "live", "{}",
        "nulls", "{}", "text", "{\"t\":\"graphs\"}", "prefix", "{\"p\":\"d2\"}", "one", "{\"s\":\"d123\"}",
        "heavy", "{\"w\":3.5}", "tiny", "{}"));
    Map<String, List<Map<String, Object>>> out = new TreeMap<>();
    params.forEach((name, p) -> {
      try {
        ReadOutput r = graph.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), QUERIES, name, json.readTree(p));
        out.put(name, r.rows());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    return out;
  }

  static List<EnsureIndicesOutput.Index> idx(String... propertyKindName) {
    List<EnsureIndicesOutput.Index> out = new ArrayList<>();
    for (String s : propertyKindName) {
      String[] p = s.split(":");
      out.add(new EnsureIndicesOutput.Index(p[0], p[1], p[0] + "_idx"));
    }
    return out;
  }

  static final EnsureIndicesOutput.Pending TINY_EMB =
      new EnsureIndicesOutput.Pending("node:Tiny", "emb", EnsureIndicesAttempt.UNTRAINABLE);

  /**
   * Issue 47: a full-text index on a table of one row whose text holds no word (null, empty, only a
   * stop word). lance-core 7.0.0 cannot build an inverted index holding no token: before the fix
   * the whole run failed with "No partition metadata files found in index directory" (its path
   * printed without the leading '/', as Lance prints object-store paths). Now the column is
   * reported pending, the table's other indexes are built, and the index is built once a row holds
   * a word. A row with words builds at once.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "body {0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"\"graphs on lance\"", "null", "\"\"", "\"the\""})
  void aFullTextIndexOnATableOfOneRowIsBuiltOrPendingUntilItHasAWord(String body) throws Exception {
    StorageConfig root = newRoot();
    String find = "query q() { match { $n: Note  search($n.body, \"graphs\") } return { $n.slug } order { $n.slug } }";
    try (Omnigraph one = Omnigraph.init(root, "node Note {\n  slug: String @key\n  body: String? @index\n}\n",
        Optional.of("act-test"))) {
      one.load("main", new StringReader("{\"type\":\"Note\",\"data\":{\"slug\":\"n1\",\"body\":" + body + "}}"),
          LoadMode.APPEND, Optional.of("act-test"));
      EnsureIndicesOutput out = one.ensureIndices("main", Optional.of(ACTOR));
      boolean words = body.contains("graphs");
      assertThat(out.tables()).singleElement().satisfies(t -> assertThat(t.indexes())
          .containsExactlyInAnyOrderElementsOf(words ? idx("slug:inverted", "body:inverted") : idx("slug:inverted")));
      assertThat(out.pending()).isEqualTo(words ? List.of()
          : List.of(new EnsureIndicesOutput.Pending("node:Note", "body", EnsureIndicesAttempt.NO_TEXT)));
      if (!words) {
        assertThat(one.ensureIndices("main", Optional.of(ACTOR)).changed()).isFalse();
        one.load("main", new StringReader("{\"type\":\"Note\",\"data\":{\"slug\":\"n2\",\"body\":\"graphs\"}}"),
            LoadMode.APPEND, Optional.of("act-test"));
        EnsureIndicesOutput later = one.ensureIndices("main", Optional.of(ACTOR));
        assertThat(later.tables()).singleElement().satisfies(t -> assertThat(t.indexes())
            .containsExactlyElementsOf(idx("body:inverted")));
        assertThat(later.pending()).isEmpty();
      }
      assertThat(one.query(Optional.empty(), Optional.empty(), find, "q", null).rows())
          .containsExactly(Map.of("n.slug", words ? "n1" : "n2"));
      assertThat(one.ensureIndices("main", Optional.of(ACTOR)).changed()).isFalse();
    }
  }

  @Test
  void ensureBuildsEveryKindInOneCommitAndASecondRunPublishesNothing() {
    SnapshotOutput before = graph.snapshot("main");
    List<String> commitsBefore = commits("main");
    Map<String, Long> pins = new TreeMap<>();
    before.datasets().forEach(d -> pins.put(d.typeName(), d.publishedDatasetVersion()));
    assertThat(indexesOf(dataset("main", "Doc"))).isEqualTo(Map.of("id_idx", IndexKind.BTREE));

    EnsureIndicesOutput out = ensure("main");

    assertThat(out.changed()).isTrue();
    assertThat(out.branch()).isEqualTo("main");
    assertThat(out.graphCommitId()).isNotNull();
    assertThat(out.tables()).containsExactly(
        new EnsureIndicesOutput.Table("edge:Cites", null, pins.get("Cites"), pins.get("Cites") + 1, false,
            idx("weight:btree")),
        new EnsureIndicesOutput.Table("node:Doc", null, pins.get("Doc"), pins.get("Doc") + 1, false,
            idx("slug:inverted", "body:inverted", "emb:vector", "rank:btree", "status:btree")),
        new EnsureIndicesOutput.Table("node:Tiny", null, pins.get("Tiny"), pins.get("Tiny") + 1, false,
            idx("name:inverted")));
    // Tiny has rows but no vector; Empty has no row at all: nothing to index there, nothing pending.
    assertThat(out.pending()).containsExactly(TINY_EMB);

    // One commit, by the caller, on top of the previous head; touched pins +1, the rest unchanged.
    List<String> commitsAfter = commits("main");
    assertThat(commitsAfter).hasSize(commitsBefore.size() + 1).startsWith(out.graphCommitId());
    assertThat(commitsAfter.subList(1, commitsAfter.size())).isEqualTo(commitsBefore);
    CommitOutput c = graph.commit(out.graphCommitId());
    assertThat(c.actorId()).isEqualTo(ACTOR);
    assertThat(c.parentCommitId()).isEqualTo(commitsBefore.get(0));
    assertThat(out.graphManifestVersion()).isEqualTo(c.graphManifestVersion());
    SnapshotOutput after = graph.snapshot("main");
    for (SnapshotOutput.Dataset d : after.datasets()) {
      boolean touched = List.of("Cites", "Doc", "Tiny").contains(d.typeName());
      assertThat(d.publishedDatasetVersion()).as(d.typeName()).isEqualTo(pins.get(d.typeName()) + (touched ? 1 : 0));
      assertThat(tables.head(TableRef.main(d.datasetPath()))).isEqualTo(d.publishedDatasetVersion());
      SnapshotOutput.Dataset was = before.datasets().stream().filter(x -> x.typeName().equals(d.typeName()))
          .findFirst().orElseThrow();
      assertThat(d.entityCount()).isEqualTo(was.entityCount());
      if (touched) {
        // Exactly one CreateIndex transaction, planned on the old pin.
        TxInfo tx = tables.transactionAt(TableRef.main(d.datasetPath()).at(d.publishedDatasetVersion())).orElseThrow();
        assertThat(tx.operation()).isEqualTo("CreateIndex");
        assertThat(tx.readVersion()).isEqualTo(pins.get(d.typeName()));
      }
    }
    assertThat(indexesOf(dataset("main", "Doc"))).isEqualTo(Map.of("id_idx", IndexKind.BTREE,
        "slug_idx", IndexKind.INVERTED, "rank_idx", IndexKind.BTREE, "status_idx", IndexKind.BTREE,
        "body_idx", IndexKind.INVERTED, "emb_idx", IndexKind.VECTOR));
    assertThat(indexesOf(dataset("main", "Cites"))).containsOnlyKeys("id_idx", "src_idx", "dst_idx", "weight_idx");
    assertThat(indexesOf(dataset("main", "Tiny"))).containsOnlyKeys("id_idx", "name_idx");
    assertThat(indexesOf(dataset("main", "Empty"))).containsOnlyKeys("id_idx");
    assertThat(sidecars()).isEmpty();

    // Idempotent: nothing to build, nothing published, nothing moved.
    EnsureIndicesOutput again = ensure("main");
    assertThat(again.changed()).isFalse();
    assertThat(again.graphCommitId()).isNull();
    assertThat(again.tables()).isEmpty();
    assertThat(again.pending()).containsExactly(TINY_EMB);
    assertThat(again.graphManifestVersion()).isEqualTo(out.graphManifestVersion());
    assertThat(commits("main")).isEqualTo(commitsAfter);
    assertThat(graph.snapshot("main")).isEqualTo(after);

    // Once Tiny has a vector, the pending index is built (and only it).
    graph.load("main", new StringReader("{\"type\":\"Tiny\",\"data\":{\"name\":\"t3\",\"emb\":[1,0,0,0,0,0,0,0]}}"),
        LoadMode.APPEND, Optional.of("act-test"));
    long tinyPin = dataset("main", "Tiny").publishedDatasetVersion();
    EnsureIndicesOutput third = ensure("main");
    assertThat(third.pending()).isEmpty();
    assertThat(third.tables()).containsExactly(new EnsureIndicesOutput.Table("node:Tiny", null, tinyPin,
        tinyPin + 1, false, idx("emb:vector")));
  }

  @Test
  void rowsReadExactlyTheSameBeforeAndAfterEnsure() {
    Map<String, List<Map<String, Object>>> before = reads("main");
    assertThat(before.get("by_rank")).hasSize(5);
    assertThat(before.get("one")).hasSize(1);
    assertThat(before.get("text")).hasSize(DOCS / 3);
    assertThat(before.get("heavy")).isNotEmpty();
    assertThat(before.values()).allSatisfy(rows -> assertThat(rows).isNotEmpty());
    ensure("main");
    assertThat(reads("main")).isEqualTo(before);
    // Rows appended after the build sit outside the indexes and are still found.
    graph.load("main", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"d900\",\"rank\":17,"
        + "\"status\":\"live\",\"body\":\"late graphs\"}}"), LoadMode.APPEND, Optional.of("act-test"));
    Map<String, List<Map<String, Object>>> later = reads("main");
    assertThat(later.get("by_rank")).hasSize(6);
    assertThat(later.get("text")).hasSize(DOCS / 3 + 1);
    assertThat(later.get("live")).hasSize(before.get("live").size() + 1);
  }

  static final String SEARCHES = """
      query near($q: Vector(8)) {
        match { $d: Doc }
        return { $d.slug, nearest($d.emb, $q) as distance }
        order { nearest($d.emb, $q) }
        limit 5
      }
      query relevant($t: String) {
        match { $d: Doc }
        return { $d.slug, bm25($d.body, $t) as score }
        order { bm25($d.body, $t), $d.slug }
        limit 10
      }
      """;

  /** The search queries' rows ({@code nearest} and {@code bm25}, both served by the property indexes). */
  Map<String, List<Map<String, Object>>> searches(String branch) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<String, List<Map<String, Object>>> out = new TreeMap<>();
    out.put("near", graph.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), SEARCHES, "near",
        json.readTree("{\"q\":[0.4,-0.1,0.2,0.3,-0.2,0.1,0.0,0.5]}")).rows());
    out.put("relevant", graph.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), SEARCHES, "relevant",
        json.readTree("{\"t\":\"graphs\"}")).rows());
    return out;
  }

  /**
   * Issue 16 Deliver 3: Optimize folds the fragments appended since EnsureIndices into every index
   * (BTree, inverted, vector, key), not only the key indexes, and leaves the table in one
   * fragment; the indexes are remapped, not dropped (ensure finds nothing to build); rows,
   * searches, time travel and earlier pins are unchanged; a second run publishes nothing; a pending
   * (never built) vector index is not created. (Also covers what the former
   * compactionAfterEnsureKeepsTheIndexesAndTheRows pinned, on one fixture: S3 time is tight.)
   */
  @Test
  void optimizeFoldsLaterWritesIntoEveryIndexAndKeepsRowsAndHistory() throws Exception {
    ensure("main");
    for (int i = 0; i < 3; i++) {
      // Single-row writes: one fragment each, outside every index (below the automatic thresholds).
      graph.load("main", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"late" + i + "\",\"rank\":17,"
          + "\"status\":\"live\",\"body\":\"late graphs " + i + "\""
          + (i == 1 ? "" : ",\"emb\":[0.4,-0.1,0.2,0.3,-0.2,0.1,0.0," + (0.5 - i / 10.0) + "]") + "}}"),
          LoadMode.APPEND, Optional.of("act-test"));
    }
    SnapshotOutput.Dataset doc = dataset("main", "Doc");
    Optional<String> own = Optional.ofNullable(doc.nativeDatasetBranch());
    assertThat(tables.statistics().fragmentStats(TableAt.of(doc.datasetPath(), own, doc.publishedDatasetVersion())).unindexedFragments())
        .as("every property index leaves the three new fragments uncovered (id_idx, built on the empty"
            + " table at init, the seed's fragment too)")
        .isEqualTo(Map.of("id_idx", 4, "slug_idx", 3, "rank_idx", 3, "status_idx", 3, "body_idx", 3, "emb_idx", 3));
    Map<String, List<Map<String, Object>>> reads = reads("main");
    Map<String, List<Map<String, Object>>> searches = searches("main");
    assertThat(reads.get("by_rank")).hasSize(8);
    assertThat(searches.get("near").get(0)).containsEntry("d.slug", "late0");
    assertThat(searches.get("relevant")).extracting(r -> r.get("d.slug")).contains("late0", "late1", "late2");
    SnapshotOutput before = graph.snapshot("main");
    List<String> history = commits("main");

    dev.omnigraph.api.maintenance.OptimizeReport report = graph.optimize("main");

    assertThat(report.commitId()).isPresent();
    // Cites and Tiny have one fragment each, but their key indexes (built on the empty tables at
    // init) cover none of it: an explicit run brings those current too. Empty has no fragment.
    assertThat(report.tables()).extracting(t -> t.tableKey()).containsExactly("edge:Cites", "node:Doc", "node:Tiny");
    assertThat(report.tables()).allSatisfy(t -> assertThat(t.indexesPending()).isEmpty());
    for (SnapshotOutput.Dataset d : graph.snapshot("main").datasets()) {
      assertThat(tables.statistics().fragmentStats(TableAt.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion())).indexesCurrent()).as(d.typeName()).isTrue();
    }
    SnapshotOutput.Dataset after = dataset("main", "Doc");
    dev.omnigraph.table.FragmentStats stats = tables.statistics().fragmentStats(TableAt.of(after.datasetPath(), own, after.publishedDatasetVersion()));
    assertThat(stats.unindexedFragments()).as("every index covers every fragment")
        .isEqualTo(Map.of("id_idx", 0, "slug_idx", 0, "rank_idx", 0, "status_idx", 0, "body_idx", 0, "emb_idx", 0));
    assertThat(stats.indexesCurrent()).isTrue();
    // Folded before the compaction, every fragment was covered alike, so they merged into one.
    assertThat(stats.fragments()).isEqualTo(1);
    assertThat(indexesOf(after)).isEqualTo(indexesOf(doc));
    assertThat(after.entityCount()).isEqualTo(doc.entityCount());
    assertThat(tables.head(TableRef.of(after.datasetPath(), own))).isEqualTo(after.publishedDatasetVersion());
    assertThat(reads("main")).isEqualTo(reads);
    Map<String, List<Map<String, Object>>> searchesAfter = searches("main");
    assertThat(searchesAfter.get("near")).isEqualTo(searches.get("near"));
    // Same documents in the same order; BM25 scores are not compared: they come from the index's
    // corpus statistics, which the fold extends by the new documents (docs/lance-write-layer.md).
    assertThat(searchesAfter.get("relevant")).extracting(r -> r.get("d.slug"))
        .isEqualTo(searches.get("relevant").stream().map(r -> r.get("d.slug")).toList());
    // History: one maintenance commit on top; the pre-optimize commit still pins and reads as before.
    assertThat(commits("main")).hasSize(history.size() + 1).endsWith(history.toArray(String[]::new));
    assertThat(graph.snapshotAtCommit(history.get(0)).datasets()).isEqualTo(before.datasets());
    assertThat(graph.query(Optional.empty(), Optional.of(dev.omnigraph.api.CommitId.existing(history.get(0))), QUERIES, "by_rank",
        new ObjectMapper().readTree("{\"r\":17}")).rows()).isEqualTo(reads.get("by_rank"));
    // Tiny's vector index was pending at ensure time: optimize does not build it.
    assertThat(indexesOf(dataset("main", "Tiny"))).doesNotContainKey("emb_idx");
    assertThat(sidecars()).isEmpty();
    // Nothing is missing after the fold and the compaction: ensure has nothing to build.
    EnsureIndicesOutput again = ensure("main");
    assertThat(again.changed()).isFalse();
    assertThat(again.pending()).containsExactly(TINY_EMB);

    // Nothing stale is left: a second optimize publishes nothing.
    String head = commits("main").get(0);
    assertThat(graph.optimize("main").commitId()).isEmpty();
    assertThat(commits("main").get(0)).isEqualTo(head);
    assertThat(dataset("main", "Doc").publishedDatasetVersion()).isEqualTo(after.publishedDatasetVersion());
  }

  @Test
  void anIndexOnMainIsInheritedByABranchWithoutACopy() {
    EnsureIndicesOutput built = ensure("main");
    assertThat(built.changed()).isTrue();
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    SnapshotOutput main = graph.snapshot("main");
    SnapshotOutput feature = graph.snapshot("feature");
    assertThat(feature.datasets()).isEqualTo(main.datasets());
    for (SnapshotOutput.Dataset d : feature.datasets()) {
      assertThat(tables.branches().exists(TableRef.branch(d.datasetPath(), "feature"))).as(d.typeName()).isFalse();
    }
    assertThat(indexesOf(dataset("feature", "Doc"))).containsKeys("rank_idx", "emb_idx", "body_idx");
    List<String> featureCommits = commits("feature");

    // The branch has nothing of its own to build: no fork, no commit.
    EnsureIndicesOutput onBranch = ensure("feature");
    assertThat(onBranch.changed()).isFalse();
    assertThat(onBranch.pending()).containsExactly(TINY_EMB);
    assertThat(commits("feature")).isEqualTo(featureCommits);
    for (SnapshotOutput.Dataset d : graph.snapshot("feature").datasets()) {
      assertThat(tables.branches().exists(TableRef.branch(d.datasetPath(), "feature"))).as(d.typeName()).isFalse();
    }
    assertThat(reads("feature")).isEqualTo(reads("main"));

    // The branch's first write forks Doc from the indexed version: the fork keeps the indexes.
    graph.load("feature", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"f1\",\"rank\":17}}"),
        LoadMode.APPEND, Optional.of("act-test"));
    SnapshotOutput.Dataset forked = dataset("feature", "Doc");
    assertThat(forked.nativeDatasetBranch()).isEqualTo("feature");
    assertThat(indexesOf(forked)).containsKeys("rank_idx", "emb_idx", "body_idx", "status_idx", "slug_idx");
    assertThat(reads("feature").get("by_rank")).hasSize(6);
    assertThat(ensure("feature").changed()).isFalse();
  }

  /**
   * An upstream Lance limit (lance-format/lance#7840, also pinned by the reference's
   * {@code second_generation_branch_index_reads_fail_upstream}): a second-generation fork (a table
   * forked onto branch {@code b} from branch {@code a}'s fork of main) resolves the index files it
   * inherits from main under {@code a}'s tree, so a read that uses such an index fails. A
   * first-generation fork reads them fine. Not specific to EnsureIndices: a key index that Optimize
   * folded fragments into on main breaks the same way. {@code DataTables} therefore scans a
   * second-generation fork without scalar indexes: the reads (and the key probes of a write there)
   * answer exactly, as on a first-generation fork.
   */
  @Test
  void aSecondGenerationForkReadsExactlyDespiteTheUpstreamIndexLimit() {
    ensure("main");
    Map<String, List<Map<String, Object>>> mainReads = reads("main");
    graph.branchCreate("a", "main", Optional.of("act-test"));
    graph.load("a", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"a1\",\"rank\":17,"
        + "\"status\":\"live\",\"body\":\"branch graphs\"}}"), LoadMode.APPEND, Optional.of("act-test"));
    assertThat(dataset("a", "Doc").nativeDatasetBranch()).isEqualTo("a");
    assertThat(reads("a").get("by_rank")).hasSize(mainReads.get("by_rank").size() + 1);
    graph.branchCreate("b", "a", Optional.of("act-test"));
    graph.load("b", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"b1\",\"rank\":17}}"),
        LoadMode.APPEND, Optional.of("act-test"));
    SnapshotOutput.Dataset docB = dataset("b", "Doc");
    assertThat(docB.nativeDatasetBranch()).isEqualTo("b");
    assertThat(indexesOf(docB)).containsKeys("rank_idx", "status_idx", "body_idx", "emb_idx", "slug_idx");
    Map<String, List<Map<String, Object>>> onA = reads("a");
    Map<String, List<Map<String, Object>>> onB = reads("b");
    assertThat(onB.get("by_rank")).hasSize(onA.get("by_rank").size() + 1);
    // A keyed write on b probes ids through the same reads.
    graph.load("b", new StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"b2\",\"rank\":18}}"),
        LoadMode.APPEND, Optional.of("act-test"));
    assertThat(reads("b").get("by_rank")).hasSize(onB.get("by_rank").size());
  }

  @Test
  void onALazyBranchOnlyTablesWithIndexWorkAreForked() {
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    SnapshotOutput mainBefore = graph.snapshot("main");
    List<String> mainCommits = commits("main");
    Map<String, List<Map<String, Object>>> readsBefore = reads("feature");
    List<String> featureCommits = commits("feature");

    EnsureIndicesOutput out = ensure("feature");

    assertThat(out.changed()).isTrue();
    assertThat(out.tables()).extracting(EnsureIndicesOutput.Table::tableKey)
        .containsExactly("edge:Cites", "node:Doc", "node:Tiny");
    assertThat(out.tables()).allSatisfy(t -> {
      assertThat(t.firstTouch()).isTrue();
      assertThat(t.nativeBranch()).isEqualTo("feature");
      assertThat(t.toVersion()).isEqualTo(t.fromVersion() + 1);
    });
    assertThat(commits("feature")).hasSize(featureCommits.size() + 1).startsWith(out.graphCommitId());
    for (SnapshotOutput.Dataset d : graph.snapshot("feature").datasets()) {
      boolean worked = List.of("Cites", "Doc", "Tiny").contains(d.typeName());
      assertThat(tables.branches().exists(TableRef.branch(d.datasetPath(), "feature"))).as(d.typeName()).isEqualTo(worked);
      assertThat(d.nativeDatasetBranch()).as(d.typeName()).isEqualTo(worked ? "feature" : null);
      assertThat(tables.head(TableRef.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()))))
          .isEqualTo(d.publishedDatasetVersion());
    }
    assertThat(indexesOf(dataset("feature", "Doc"))).containsKeys("rank_idx", "emb_idx", "body_idx");
    // Main is untouched: same pins, same commits, no index of the branch's.
    assertThat(graph.snapshot("main")).isEqualTo(mainBefore);
    assertThat(commits("main")).isEqualTo(mainCommits);
    assertThat(indexesOf(dataset("main", "Doc"))).containsOnlyKeys("id_idx");
    assertThat(reads("feature")).isEqualTo(readsBefore);
    assertThat(ensure("feature").changed()).isFalse();
    // Main builds its own later; the branch is not affected.
    SnapshotOutput feature = graph.snapshot("feature");
    assertThat(ensure("main").changed()).isTrue();
    assertThat(graph.snapshot("feature")).isEqualTo(feature);
  }

  @Test
  void aPendingSidecarNeedingRollbackRefusesTheRunUntilRecovered() throws Exception {
    SnapshotOutput before = graph.snapshot("main");
    RecoveryRequired failed;
    try (AutoCloseable fp = FailpointControl.enableError("ensure_indices.after_table_commit")) {
      failed = (RecoveryRequired) catchRecovery(() -> ensure("main"));
    }
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failed.operationId()));
    RecoverySidecar s = readSidecar(failed.operationId());
    assertThat(s.writerKind()).isEqualTo(dev.omnigraph.recovery.WriterKind.EnsureIndices.WIRE);
    assertThat(s.state()).isEqualTo(RecoverySidecar.State.ARMED);
    assertThat(s.protocolV8().delta()).isNull();
    assertThat(s.protocolV8().indexes()).containsOnlyKeys(TableKey.edge("Cites"), TableKey.node("Doc"), TableKey.node("Tiny"));
    assertThat(s.tables()).extracting(RecoverySidecar.TableIntent::tableKey)
        .containsExactly(TableKey.edge("Cites"), TableKey.node("Doc"), TableKey.node("Tiny"));
    // The first table's batch landed; the manifest still pins the old versions.
    SnapshotOutput.Dataset cites = dataset("main", "Cites");
    assertThat(tables.head(TableRef.main(cites.datasetPath()))).isEqualTo(cites.publishedDatasetVersion() + 1);
    assertThat(graph.snapshot("main")).isEqualTo(before);

    // The barrier: an armed intent with an owned effect needs a restore, which a live run never does.
    RecoveryRequired refused = (RecoveryRequired) catchRecovery(() -> ensure("main"));
    assertThat(refused.operationId()).isEqualTo(failed.operationId());
    assertThat(tables.head(TableRef.main(cites.datasetPath()))).isEqualTo(cites.publishedDatasetVersion() + 1);
    assertThat(tables.head(TableRef.main(dataset("main", "Doc").datasetPath())))
        .isEqualTo(dataset("main", "Doc").publishedDatasetVersion());

    // A read-write reopen rolls it back; then the run builds everything.
    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.openRecovery()).singleElement().satisfies(o -> assertThat(o.auditKind()).isEqualTo("RolledBack"));
    assertThat(sidecars()).isEmpty();
    assertThat(indexesOf(dataset("main", "Cites"))).containsOnlyKeys("id_idx", "src_idx", "dst_idx");
    EnsureIndicesOutput out = ensure("main");
    assertThat(out.tables()).extracting(EnsureIndicesOutput.Table::tableKey)
        .containsExactly("edge:Cites", "node:Doc", "node:Tiny");
    assertThat(indexesOf(dataset("main", "Cites"))).containsKey("weight_idx");
  }

  @Test
  void aConfirmedPredecessorIsCompletedByTheNextRunsBarrier() throws Exception {
    List<String> commitsBefore = commits("main");
    RecoveryRequired failed;
    try (AutoCloseable fp = FailpointControl.enableError("ensure_indices.before_publish")) {
      failed = (RecoveryRequired) catchRecovery(() -> ensure("main"));
    }
    RecoverySidecar s = readSidecar(failed.operationId());
    assertThat(s.state()).isEqualTo(RecoverySidecar.State.EFFECTS_CONFIRMED);
    assertThat(s.protocolV8().delta()).hasSize(3);
    assertThat(commits("main")).isEqualTo(commitsBefore);

    // Same handle, no reopen: the barrier publishes the confirmed run, which leaves nothing to do.
    EnsureIndicesOutput next = ensure("main");
    assertThat(next.changed()).isFalse();
    assertThat(sidecars()).isEmpty();
    List<String> commitsAfter = commits("main");
    assertThat(commitsAfter).hasSize(commitsBefore.size() + 1).startsWith(s.lineage().commitId());
    assertThat(graph.commit(s.lineage().commitId()).actorId()).isEqualTo(ACTOR);
    assertThat(indexesOf(dataset("main", "Doc"))).containsKeys("rank_idx", "emb_idx");
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo("RolledForward");
      assertThat(e.writerKind()).isEqualTo("ensure_indices");
    });
  }

  @Test
  void anUnknownBranchIsNotFoundAndAReadOnlyHandleRefuses() throws Exception {
    assertThatThrownBy(() -> ensure("nope")).isInstanceOf(NotFound.class);
    assertThat(commits("main")).hasSize(2);
    try (Omnigraph ro = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      assertThatThrownBy(() -> ro.ensureIndices("main", Optional.empty()))
          .isInstanceOf(dev.omnigraph.api.InvalidRequest.class);
    }
    assertThat(sidecars()).isEmpty();
  }

  private static Throwable catchRecovery(Runnable r) {
    try {
      r.run();
    } catch (RecoveryRequired e) {
      return e;
    }
    throw new AssertionError("expected RecoveryRequired");
  }

  List<String> sidecars() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return GraphRoots.shared().pendingSidecars(s); // background deletes of the open root are not pending
    }
  }

  RecoverySidecar readSidecar(String operationId) {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return new SidecarStore(s).read(SidecarStore.keyOf(operationId)).orElseThrow();
    }
  }
}
