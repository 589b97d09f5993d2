package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.Index;
import org.lance.index.IndexDescription;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * What lance-core 7.0.0 does for full-text and vector queries through {@code ScanOptions}
 * ({@code fullTextQuery}, {@code nearest}, {@code prefilter}), and how its BTree serves prefix
 * filters, pinned on a real dataset per backend. docs/lance-write-layer.md ("Search reads") cites
 * these tests; a Lance upgrade that changes a behaviour turns one red.
 */
abstract class AbstractLanceSearchTest {

  abstract StorageConfig newRoot() throws Exception;

  static final String LOC = "nodes/00000000000000c1-0000000000000001";
  static final Optional<String> MAIN = Optional.empty();

  StorageConfig config;
  DataTables tables;
  long version;

  static Schema schema() {
    return new Schema(List.of(TableFixtures.idField(),
        TableSchemas.field("status", PropertyType.scalar(ScalarKind.STRING, true)),
        TableSchemas.field("title", PropertyType.scalar(ScalarKind.STRING, true)),
        TableSchemas.field("vec", new PropertyType(ScalarKind.VECTOR, false, true, List.of(), 4))));
  }

  static Map<String, Object> row(String id, String status, String title, float[] vec) {
    Map<String, Object> r = new HashMap<>();
    r.put("id", id);
    r.put("status", status);
    r.put("title", title);
    r.put("vec", vec);
    return r;
  }

  static final float[] Q = {0.1f, 0.2f, 0.3f, 0.4f};

  @BeforeEach
  void fixture() throws Exception {
    config = newRoot();
    tables = new DataTables(config);
    version = new TableStore(config).createWithKeyIndexes(LOC, schema());
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(row("ml", "miss", "Introduction to Machine Learning", new float[] {0.1f, 0.2f, 0.3f, 0.4f}));
    rows.add(row("dl", "hit", "Deep Learning Basics", new float[] {0.5f, 0.6f, 0.7f, 0.8f}));
    rows.add(row("nlp", "hit", "Natural Language Processing Guide", new float[] {0.2f, 0.3f, 0.4f, 0.5f}));
    rows.add(row("cv", "miss", "Computer Vision Overview", new float[] {0.8f, 0.7f, 0.6f, 0.5f}));
    rows.add(row("rl", "hit", "Reinforcement Learning Introduction learning learning",
        new float[] {0.3f, 0.4f, 0.5f, 0.6f}));
    rows.add(row("nv", "hit", null, null));
    for (int i = 0; i < 300; i++) {
      rows.add(row(String.format("c%03d", i), i % 2 == 0 ? "hit" : "miss", "common word " + i,
          new float[] {1f, i, 0f, 1f}));
    }
    version = append(rows);
  }

  long append(List<Map<String, Object>> rows) {
    CommitOutcome out = tables.commit(tables.staging().stageInsert(LOC, MAIN, version, schema(), rows, false));
    assertThat(out.kind()).as(out.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    version = out.version();
    return version;
  }

  void index(String column, TestIndexes.Kind kind) {
    version = TestIndexes.build(config, LOC, MAIN, column, kind);
  }

  /** The scan's rows in order, as column → value, every {@code float[]} left out. */
  List<Map<String, Object>> scan(ScanOptions options) throws Exception {
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      List<Map<String, Object>> out = new ArrayList<>();
      for (Map<String, Object> r : LanceSupport.scan(ds, options, allocator)) {
        Map<String, Object> copy = new LinkedHashMap<>(r);
        copy.remove("vec");
        out.add(copy);
      }
      return out;
    }
  }

  static ScanOptions.Builder ids() {
    return new ScanOptions.Builder().columns(List.of("id"));
  }

  static List<Object> idsOf(List<Map<String, Object>> rows) {
    return rows.stream().map(r -> r.get("id")).toList();
  }

  static FullTextQuery fuzzy(String text, int edits) {
    return FullTextQuery.match(text, "title", 1f, Optional.of(edits), 50, FullTextQuery.Operator.OR, 0);
  }

  // --- full-text ------------------------------------------------------------------------------

  @Test
  void invertedIndexNeedsAnExplicitTokenizerAndIsListedWithItsAnalyzer() throws Exception {
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      // The builder's defaults serialize no base_tokenizer, which lance-core 7.0.0 requires.
      assertThatThrownBy(() -> ds.createIndex(IndexOptions.builder(List.of("title"), IndexType.INVERTED,
          IndexParams.builder().setScalarIndexParams(new InvertedIndexParams.Builder().build()).build()).build()))
          .hasMessageContaining("base_tokenizer");
    }
    index("title", TestIndexes.Kind.INVERTED);
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      Index fts = ds.getIndexes().stream().filter(i -> i.name().equals("title_fts")).findFirst().orElseThrow();
      assertThat(fts.indexType()).isEqualTo(IndexType.INVERTED);
      int titleField = ds.getLanceSchema().fields().stream().filter(f -> f.getName().equals("title")).findFirst()
          .orElseThrow().getId();
      assertThat(fts.fields()).containsExactly(titleField);
      IndexDescription d = ds.describeIndices().stream().filter(x -> x.getName().equals("title_fts")).findFirst()
          .orElseThrow();
      assertThat(d.getDetailsJson()).contains("\"lower_case\":true", "\"stem\":true", "\"with_position\":false");
    }
  }

  @Test
  void fullTextMatchReturnsEveryHitWithItsBm25ScoreBestFirst() throws Exception {
    index("title", TestIndexes.Kind.INVERTED);
    List<Map<String, Object>> hits = scan(ids().fullTextQuery(FullTextQuery.match("learning", "title")).build());
    assertThat(idsOf(hits)).hasSize(3).first().isEqualTo("rl");
    assertThat(new TreeSet<>(idsOf(hits))).containsExactly("dl", "ml", "rl");
    // The score column is _score (Float32), best first; equal term frequency and length, equal score.
    assertThat(hits.get(0)).containsOnlyKeys("id", "_score");
    float best = (Float) hits.get(0).get("_score");
    assertThat((Float) hits.get(1).get("_score")).isLessThan(best).isEqualTo((Float) hits.get(2).get("_score"));
    // No default limit: every one of 300 hits comes back.
    assertThat(scan(ids().fullTextQuery(FullTextQuery.match("common", "title")).build())).hasSize(300);
    // Stop words and blank text match nothing; empty text is refused by the Java binding itself.
    assertThat(scan(ids().fullTextQuery(FullTextQuery.match("to", "title")).build())).isEmpty();
    assertThat(scan(ids().fullTextQuery(FullTextQuery.match("  ", "title")).build())).isEmpty();
    assertThatThrownBy(() -> FullTextQuery.match("", "title")).isInstanceOf(IllegalArgumentException.class);
    // Phrase queries need positions in the index.
    assertThatThrownBy(() -> scan(ids().fullTextQuery(FullTextQuery.phrase("deep learning", "title")).build()))
        .hasMessageContaining("position");
  }

  @Test
  void prefilterAppliesTheFilterBeforeTheLimitAndLeavesScoresUnchanged() throws Exception {
    index("title", TestIndexes.Kind.INVERTED);
    FullTextQuery learning = FullTextQuery.match("learning", "title");
    String miss = Filter.eq("status", "miss").toSql();
    assertThat(idsOf(scan(ids().filter(miss).limit(1).prefilter(true).fullTextQuery(learning).build())))
        .containsExactly("ml");
    // Without prefilter the filter runs on the global top-1 (rl, a "hit"): nothing is left.
    assertThat(scan(ids().filter(miss).limit(1).prefilter(false).fullTextQuery(learning).build())).isEmpty();
    Map<Object, Object> all = new HashMap<>();
    scan(ids().fullTextQuery(learning).build()).forEach(r -> all.put(r.get("id"), r.get("_score")));
    for (Map<String, Object> r : scan(ids().filter(Filter.eq("status", "hit").toSql()).prefilter(true)
        .fullTextQuery(learning).build())) {
      assertThat(r.get("_score")).as("BM25 statistics come from the index, not the filtered rows")
          .isEqualTo(all.get(r.get("id")));
    }
  }

  @Test
  void fuzzyComparesTheRawQueryWordWithTheIndexedTerms() throws Exception {
    index("title", TestIndexes.Kind.INVERTED);
    assertThat(idsOf(scan(ids().fullTextQuery(fuzzy("vison", 1)).build()))).containsExactly("cv");
    assertThat(idsOf(scan(ids().fullTextQuery(fuzzy("compuetr", 2)).build()))).containsExactly("cv");
    assertThat(scan(ids().fullTextQuery(fuzzy("compuetr", 1)).build())).isEmpty();
    // The query word is neither lowercased nor stemmed: "Vison" is two edits from "vision", and
    // "learning" three from the indexed stem "learn"; "introductio" is two from "introduct".
    assertThat(scan(ids().fullTextQuery(fuzzy("Vison", 1)).build())).isEmpty();
    assertThat(scan(ids().fullTextQuery(fuzzy("learning", 1)).build())).isEmpty();
    assertThat(new TreeSet<>(idsOf(scan(ids().fullTextQuery(fuzzy("learn", 0)).build()))))
        .containsExactly("dl", "ml", "rl");
    assertThat(new TreeSet<>(idsOf(scan(ids().fullTextQuery(fuzzy("introductio", 2)).build()))))
        .containsExactly("ml", "rl");
  }

  @Test
  void rowsAppendedAfterTheBuildAreSearchedWithTheIndexAnalyzer() throws Exception {
    index("title", TestIndexes.Kind.INVERTED);
    append(List.of(row("late", "hit", "LEARNING UPPER Computers", null)));
    assertThat(new TreeSet<>(idsOf(scan(ids().fullTextQuery(FullTextQuery.match("computer", "title")).build()))))
        .containsExactly("cv", "late");
    assertThat(idsOf(scan(ids().fullTextQuery(FullTextQuery.match("learning", "title")).build()))).contains("late");
  }

  @Test
  void fullTextWithoutAnInvertedIndexIsAFlatSearchWithAnotherAnalyzer() throws Exception {
    // No error: Lance tokenizes on the fly, but without lowercasing or stemming, so "learning"
    // misses "Learning". The query layer therefore refuses full-text functions without an index.
    assertThat(idsOf(scan(ids().fullTextQuery(FullTextQuery.match("learning", "title")).build())))
        .containsExactly("rl");
  }

  // --- vectors --------------------------------------------------------------------------------

  static double cosineDistance(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return 1 - dot / Math.sqrt(na * nb);
  }

  static Query nearest(float[] key, int k) {
    return new Query.Builder().setColumn("vec").setKey(key).setK(k).setDistanceType(DistanceType.Cosine).build();
  }

  Map<String, float[]> vectors() {
    Map<String, float[]> out = new HashMap<>();
    tables.scan(LOC, MAIN, version, Filter.TRUE, List.of("id", "vec"), r -> {
      if (r.get("vec") != null) {
        out.put((String) r.get("id"), (float[]) r.get("vec"));
      }
    });
    return out;
  }

  @Test
  void flatNearestIsExactCosineWithItsDistanceAndSkipsNullVectors() throws Exception {
    Map<String, float[]> vectors = vectors();
    List<Map<String, Object>> top = scan(ids().nearest(nearest(Q, 4)).build());
    assertThat(idsOf(top)).containsExactly("ml", "nlp", "rl", "dl");
    for (Map<String, Object> r : top) {
      assertThat(r).containsOnlyKeys("id", "_distance");
      assertThat((double) (Float) r.get("_distance"))
          .isCloseTo(cosineDistance(Q, vectors.get((String) r.get("id"))), within(1e-6));
    }
    List<Map<String, Object>> everything = scan(ids().nearest(nearest(Q, 1000)).build());
    assertThat(everything).hasSize(305); // every row but the null vector
    assertThat(idsOf(everything)).doesNotContain("nv");
    // A zero query vector has no cosine: no rows.
    assertThat(scan(ids().nearest(nearest(new float[4], 3)).build())).isEmpty();
    // A query of the wrong dimension is silently ignored: a plain scan, no _distance column.
    List<Map<String, Object>> wrong = scan(ids().nearest(nearest(new float[] {0, 1, 0}, 3)).build());
    assertThat(wrong).hasSize(306);
    assertThat(wrong.get(0)).doesNotContainKey("_distance");
  }

  @Test
  void prefilteredNearestReturnsTheTopKOfTheMatchingRows() throws Exception {
    String miss = Filter.eq("status", "miss").toSql();
    assertThat(idsOf(scan(ids().filter(miss).prefilter(true).nearest(nearest(Q, 4)).build())))
        .containsExactly("ml", "cv", "c001", "c003");
    assertThat(idsOf(scan(ids().filter(miss).prefilter(false).nearest(nearest(Q, 4)).build())))
        .containsExactly("ml");
  }

  @Test
  void cosineIvfIndexAgreesWithFlatSearchAndCoversAppendedRows() throws Exception {
    List<Object> flat = idsOf(scan(ids().nearest(nearest(Q, 10)).build()));
    index("vec", TestIndexes.Kind.VECTOR);
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      assertThat(ds.getIndexes().stream().filter(i -> i.name().equals("vec_vec")).findFirst().orElseThrow()
          .indexType()).isEqualTo(IndexType.VECTOR);
      assertThat(ds.describeIndices().stream().filter(d -> d.getName().equals("vec_vec")).findFirst().orElseThrow()
          .getDetailsJson()).contains("\"metric_type\":\"COSINE\"");
    }
    Map<String, float[]> vectors = vectors();
    List<Map<String, Object>> ann = scan(ids().nearest(nearest(Q, 10)).build());
    assertThat(idsOf(ann)).isEqualTo(flat);
    for (Map<String, Object> r : ann) {
      // The index computes its own (not bit-identical) distances.
      assertThat((double) (Float) r.get("_distance"))
          .isCloseTo(cosineDistance(Q, vectors.get((String) r.get("id"))), within(1e-5));
    }
    String miss = Filter.eq("status", "miss").toSql();
    assertThat(idsOf(scan(ids().filter(miss).prefilter(true).nearest(nearest(Q, 4)).build())))
        .containsExactly("ml", "cv", "c001", "c003");
    append(List.of(row("late", "hit", "x", Q.clone())));
    assertThat(idsOf(scan(ids().nearest(nearest(Q, 2)).build()))).containsExactlyInAnyOrder("ml", "late");
    // A query asking for another metric gets that metric's distances (L2 here), not the index's.
    List<Map<String, Object>> l2 = scan(ids().nearest(new Query.Builder().setColumn("vec").setKey(Q).setK(3)
        .setDistanceType(DistanceType.L2).build()).build());
    assertThat((Float) l2.get(2).get("_distance")).isCloseTo(0.04f, within(1e-6f));
  }

  // --- BTree and prefixes ---------------------------------------------------------------------

  Set<Object> filtered(String sql) throws Exception {
    return new TreeSet<>(idsOf(scan(ids().filter(sql).useScalarIndex(true).build())));
  }

  @Test
  void btreePrefixSearchIgnoresLikeEscapesButRangesStayExact() throws Exception {
    append(List.of(row("pct", "s", "ab%c", null), row("und", "s", "ab_c\\x'q", null), row("abc", "s", "abcd", null)));
    String likeUnderscore = "`title` LIKE " + SqlLiteral.likePrefix("ab_") + " " + SqlLiteral.likeEscapeClause();
    String likeBackslash = "`title` LIKE " + SqlLiteral.likePrefix("ab_c\\") + " " + SqlLiteral.likeEscapeClause();
    String startsPercent = "starts_with(`title`, " + SqlLiteral.quote("ab%") + ")";
    String range = "`title` >= " + SqlLiteral.quote("ab_c\\") + " AND `title` < " + SqlLiteral.quote("ab_c]");
    // Without an index every form is exact.
    assertThat(filtered(likeUnderscore)).containsExactly("und");
    assertThat(filtered(likeBackslash)).containsExactly("und");
    assertThat(filtered(startsPercent)).containsExactly("pct");
    assertThat(filtered(range)).containsExactly("und");
    index("title", TestIndexes.Kind.BTREE);
    // With a BTree, Lance answers a prefix LIKE / starts_with from the index and drops the escapes:
    // "ab\_" and "ab%" both select every "ab…" title, and a backslash selects nothing.
    assertThat(filtered(likeUnderscore)).containsExactly("abc", "pct", "und");
    assertThat(filtered(startsPercent)).containsExactly("abc", "pct", "und");
    assertThat(filtered(likeBackslash)).isEmpty();
    // A range on the same index is exact; Filter.startsWith renders one.
    assertThat(filtered(range)).containsExactly("und");
  }

  // --- DataTables: the search API the query layer uses ------------------------------------------

  static List<Object> hitIds(List<ScoredRow> rows) {
    return rows.stream().map(r -> r.row().get("id")).toList();
  }

  @Test
  void fullTextSearchNeedsTheIndexScoresEveryMatchAndPrefilters() {
    assertThatThrownBy(() -> tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match("learning"),
        Filter.TRUE, List.of("id"))).isInstanceOf(MissingSearchIndex.class).hasMessageContaining("'title'");
    index("title", TestIndexes.Kind.INVERTED);
    List<ScoredRow> hits = tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match("learning"), Filter.TRUE,
        List.of("id"));
    // Best first, ties by id; the score column is not left in the row.
    assertThat(hitIds(hits)).containsExactly("rl", "dl", "ml");
    assertThat(hits.get(0).row()).containsOnlyKeys("id");
    assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    assertThat(tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match("common"), Filter.TRUE,
        List.of("id"))).hasSize(300);
    assertThat(hitIds(tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match("learning"),
        Filter.eq("status", "miss"), List.of("id", "status")))).containsExactly("ml");
    assertThat(tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match(""), Filter.TRUE, List.of()))
        .isEmpty();
    // A fuzzy query is lowercased for the lowercasing index ("Vison" is then one edit from "vision").
    assertThat(hitIds(tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.fuzzy("Vison", 1), Filter.TRUE,
        List.of("id")))).containsExactly("cv");
    // Every column when none is named.
    assertThat(tables.search().fullTextSearch(LOC, MAIN, version, "title", TextQuery.match("vision"), Filter.TRUE, List.of())
        .get(0).row()).containsOnlyKeys("id", "status", "title", "vec");
  }

  @Test
  void nearestIsExactL2WithAndWithoutAnIndexAndRefusesWhatLanceWouldIgnore() {
    Map<String, float[]> vectors = vectors();
    List<String> expected = vectors.keySet().stream()
        .sorted(java.util.Comparator.comparingDouble((String id) -> l2Distance(Q, vectors.get(id)))
            .thenComparing(id -> id)).limit(6).toList();
    for (boolean indexed : List.of(false, true)) {
      if (indexed) {
        index("vec", TestIndexes.Kind.VECTOR_L2);
      }
      List<ScoredRow> top = tables.search().nearest(LOC, MAIN, version, "vec", Q, 6, Filter.TRUE, List.of("id"));
      assertThat(hitIds(top)).as("indexed %s", indexed).isEqualTo(new ArrayList<Object>(expected));
      for (ScoredRow r : top) {
        assertThat(r.row()).containsOnlyKeys("id");
        assertThat(r.score()).isEqualTo(l2Distance(Q, vectors.get((String) r.row().get("id"))));
      }
      assertThat(hitIds(tables.search().nearest(LOC, MAIN, version, "vec", Q, 2, Filter.eq("status", "miss"), List.of("id"))))
          .containsExactly("ml", "cv");
      // A zero query is an ordinary point under L2 (issue 47 item 8): nearest to the origin first,
      // with its squared norm as the distance; cosine refused it.
      List<ScoredRow> origin = tables.search().nearest(LOC, MAIN, version, "vec", new float[4], 2, Filter.TRUE, List.of("id"));
      assertThat(hitIds(origin)).as("indexed %s", indexed).containsExactly("ml", "nlp");
      assertThat(origin.get(0).score()).isEqualTo(l2Distance(new float[4], vectors.get("ml")));
    }
    assertThatThrownBy(() -> tables.search().nearest(LOC, MAIN, version, "vec", new float[] {1, 0, 0}, 3, Filter.TRUE, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4 dimensions");
    assertThatThrownBy(() -> tables.search().nearest(LOC, MAIN, version, "vec", new float[] {Float.NaN, 0, 0, 0}, 3,
        Filter.TRUE, List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
    assertThatThrownBy(() -> tables.search().nearest(LOC, MAIN, version, "title", Q, 3, Filter.TRUE, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a vector column");
    // Rows keep every column when none is named, the vector included.
    assertThat(tables.search().nearest(LOC, MAIN, version, "vec", Q, 1, Filter.TRUE, List.of()).get(0).row())
        .containsOnlyKeys("id", "status", "title", "vec");
  }

  /** The squared Euclidean distance the engine reports, in double precision. */
  static double l2Distance(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double d = (double) a[i] - b[i];
      sum += d * d;
    }
    return sum;
  }
}
