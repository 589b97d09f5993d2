package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.schema.IndexKind;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * Property indexes (BTree, inverted, vector) against real Lance on every backend
 * (docs/lance-write-layer.md, "Property indexes: BTree, inverted, vector"): each kind builds
 * uncommitted over every fragment of a version; any mix of them commits as one {@code CreateIndex}
 * transaction with our pre-minted uuid at exactly read version + 1; rows read the same before and
 * after; a vector column without a non-null vector cannot train; a build on a Lance branch commits
 * on that branch only; an abandoned build changes nothing.
 */
abstract class AbstractPropertyIndexTest {

  abstract StorageConfig newRoot() throws Exception;

  static final String LOC = "nodes/00000000000000c1-0000000000000001";
  static final Optional<String> MAIN = Optional.empty();
  static final int DIM = 8;

  StorageConfig config;
  DataTables tables;

  @BeforeEach
  void openRoot() throws Exception {
    config = newRoot();
    tables = new DataTables(config);
  }

  static Schema schema() {
    return new Schema(List.of(TableFixtures.idField(),
        TableSchemas.field("age", PropertyType.scalar(ScalarKind.I64, true)),
        TableSchemas.field("kind", new PropertyType(ScalarKind.ENUM, false, true, List.of("a", "b"), 0)),
        TableSchemas.field("bio", PropertyType.scalar(ScalarKind.STRING, true)),
        TableSchemas.field("emb", new PropertyType(ScalarKind.VECTOR, false, true, List.of(), DIM))));
  }

  static List<Map<String, Object>> rows(int from, int n, boolean vectors) {
    Random random = new Random(from);
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      Map<String, Object> m = new HashMap<>();
      m.put("id", "p" + i);
      m.put("age", i % 7 == 0 ? null : (long) i);
      m.put("kind", i % 5 == 0 ? null : i % 2 == 0 ? "a" : "b");
      m.put("bio", i % 11 == 0 ? null : "person number " + i + (i % 3 == 0 ? " likes graphs" : " likes cats"));
      if (vectors && i % 13 != 0) {
        float[] v = new float[DIM];
        for (int k = 0; k < DIM; k++) {
          v[k] = random.nextFloat() - 0.5f;
        }
        m.put("emb", v);
      }
      out.add(m);
    }
    return out;
  }

  long insert(Optional<String> branch, long v, List<Map<String, Object>> rows) {
    CommitOutcome o = tables.commit(tables.staging().stageInsert(LOC, branch, v, schema(), rows, false));
    assertThat(o.kind()).as(o.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    return o.version();
  }

  static final List<IndexSpec> ALL = List.of(new IndexSpec("age", IndexKind.BTREE),
      new IndexSpec("kind", IndexKind.BTREE), new IndexSpec("bio", IndexKind.INVERTED),
      new IndexSpec("emb", IndexKind.VECTOR));

  TreeSet<String> ids(Optional<String> branch, long version, Filter filter) {
    TreeSet<String> out = new TreeSet<>();
    tables.scan(LOC, branch, version, filter, List.of("id"), r -> out.add((String) r.get("id")));
    return out;
  }

  List<Map<String, Object>> lance(Optional<String> branch, long version, ScanOptions options) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, LOC, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)))) {
      return LanceSupport.scan(at, options, allocator);
    }
  }

  List<String> lanceIndexes(Optional<String> branch) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, LOC, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.empty()))) {
      return at.listIndexes().stream().sorted().toList();
    }
  }

  @Test
  void everyKindBuildsUncommittedAndLandsAsOneCreateIndexWithOurUuid() throws Exception {
    long v0 = new TableStore(config).createWithKeyIndexes(LOC, schema());
    long v = insert(MAIN, insert(MAIN, v0, rows(0, 150, true)), rows(150, 150, true)); // two fragments
    TableIndexState before = tables.indexes().indexState(LOC, MAIN, v, List.of("emb"));
    assertThat(before.rows()).isEqualTo(300);
    assertThat(before.indexes()).isEqualTo(Map.of("id_idx", IndexKind.BTREE));
    long nonNull = rows(0, 300, true).stream().filter(r -> r.get("emb") != null).count();
    assertThat(before.vectors()).isEqualTo(Map.of("emb", nonNull));

    Map<String, TreeSet<String>> unindexed = new HashMap<>();
    Map<String, Filter> filters = Map.of("age", Filter.eq("age", 150L), "range", Filter.lt("age", 20L),
        "kind", Filter.eq("kind", "a"), "null", Filter.isNull("kind"), "bio", Filter.contains("bio", "graphs"),
        "prefix", Filter.startsWith("bio", "person number 1"), "bioEq", Filter.eq("bio", "person number 2 likes cats"));
    filters.forEach((name, f) -> unindexed.put(name, ids(MAIN, v, f)));

    String uuid = UUID.randomUUID().toString();
    StagedWrite staged = tables.indexes().stageCreateIndices(LOC, MAIN, v, ALL, before.vectors(), uuid);
    // Staging moved nothing: same head, same indexes.
    assertThat(tables.head(LOC, MAIN)).isEqualTo(v);
    assertThat(lanceIndexes(MAIN)).containsExactly("id_idx");
    assertThat(staged.kind()).isEqualTo(StagedWrite.Kind.INDEX);
    assertThat(staged.indexNames()).containsExactly("age_idx", "kind_idx", "bio_idx", "emb_idx");

    CommitOutcome outcome = tables.commit(staged);
    assertThat(outcome.kind()).as(outcome.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(outcome.version()).isEqualTo(v + 1);
    TxInfo tx = tables.transactionAt(LOC, MAIN, v + 1).orElseThrow();
    assertThat(tx.operation()).isEqualTo("CreateIndex");
    assertThat(tx.uuid()).isEqualTo(uuid);
    assertThat(tx.readVersion()).isEqualTo(v);
    assertThat(tx.properties()).containsEntry(TableIndexes.INDEX_BATCH, "age_idx,kind_idx,bio_idx,emb_idx");
    TableIndexState after = tables.indexes().indexState(LOC, MAIN, v + 1, List.of());
    assertThat(after.indexes()).isEqualTo(Map.of("id_idx", IndexKind.BTREE, "age_idx", IndexKind.BTREE,
        "kind_idx", IndexKind.BTREE, "bio_idx", IndexKind.INVERTED, "emb_idx", IndexKind.VECTOR));
    assertThat(after.rows()).isEqualTo(300);

    // Rows read identically with the indexes (and the old version still reads without them).
    filters.forEach((name, f) -> assertThat(ids(MAIN, v + 1, f)).as(name).isEqualTo(unindexed.get(name))
        .isNotEmpty());
    assertThat(unindexed.get("age")).containsExactly("p150");

    // The inverted index answers full-text queries (tokenised, lower-cased).
    List<Map<String, Object>> hits = lance(MAIN, v + 1, new ScanOptions.Builder()
        .fullTextQuery(FullTextQuery.match("GRAPHS", "bio")).columns(List.of("id")).build());
    TreeSet<String> matched = new TreeSet<>();
    hits.forEach(r -> matched.add((String) r.get("id")));
    assertThat(matched).isEqualTo(unindexed.get("bio"));

    // The vector index (L2, the engine's metric), probed in every partition, gives the exact top-k.
    float[] q = new float[DIM];
    java.util.Arrays.fill(q, 0.25f);
    q[0] = -1f;
    int k = 10;
    List<Map<String, Object>> nearest = lance(MAIN, v + 1, new ScanOptions.Builder().nearest(new Query.Builder()
        .setColumn("emb").setKey(q).setK(k).setNprobes(PropertyIndexes.partitions(nonNull))
        .setDistanceType(DistanceType.L2).build()).columns(List.of("id")).build());
    List<Map<String, Object>> inserted = new ArrayList<>(rows(0, 150, true));
    inserted.addAll(rows(150, 150, true));
    List<String> exact = inserted.stream().filter(r -> r.get("emb") != null)
        .sorted(Comparator.comparingDouble(r -> l2Distance((float[]) r.get("emb"), q)))
        .limit(k).map(r -> (String) r.get("id")).toList();
    assertThat(nearest.stream().map(r -> (String) r.get("id")).toList()).isEqualTo(exact);
  }

  static double l2Distance(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double d = (double) a[i] - b[i];
      sum += d * d;
    }
    return sum;
  }

  @Test
  void aVectorColumnWithoutANonNullVectorCannotTrain() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema());
    v = insert(MAIN, v, rows(0, 20, false));
    TableIndexState state = tables.indexes().indexState(LOC, MAIN, v, List.of("emb"));
    assertThat(state.vectors()).isEqualTo(Map.of("emb", 0L));
    long at = v;
    assertThatThrownBy(() -> tables.indexes().stageCreateIndices(LOC, MAIN, at, List.of(new IndexSpec("emb", IndexKind.VECTOR)),
        state.vectors(), UUID.randomUUID().toString()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-null vector");
    // What Lance itself says when asked anyway (the planner never asks: it reports the column pending).
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      List<Integer> fragments = ds.getFragments().stream().map(f -> f.getId()).toList();
      assertThatThrownBy(() -> PropertyIndexes.build(ds, new IndexSpec("emb", IndexKind.VECTOR), fragments, 1))
          .hasMessageContaining("KMeans cannot train 1 centroids with 0 vectors");
    }
    // One non-null vector is enough for Lance (one IVF partition).
    List<Map<String, Object>> one = rows(100, 1, true);
    v = insert(MAIN, v, one);
    TableIndexState trainable = tables.indexes().indexState(LOC, MAIN, v, List.of("emb"));
    assertThat(trainable.vectors()).isEqualTo(Map.of("emb", 1L));
    CommitOutcome o = tables.commit(tables.indexes().stageCreateIndices(LOC, MAIN, v,
        List.of(new IndexSpec("emb", IndexKind.VECTOR)), trainable.vectors(), UUID.randomUUID().toString()));
    assertThat(o.kind()).as(o.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(tables.indexes().indexState(LOC, MAIN, o.version(), List.of()).indexes()).containsKey("emb_idx");
  }

  @Test
  void partitionsAreAboutTheSquareRootOfTheVectors() {
    assertThat(PropertyIndexes.partitions(1)).isEqualTo(1);
    assertThat(PropertyIndexes.partitions(2)).isEqualTo(1);
    assertThat(PropertyIndexes.partitions(3)).isEqualTo(2);
    assertThat(PropertyIndexes.partitions(300)).isEqualTo(17);
    assertThat(PropertyIndexes.partitions(100_000)).isEqualTo(316);
    assertThat(PropertyIndexes.partitions(10_000_000)).isEqualTo(PropertyIndexes.MAX_PARTITIONS);
  }

  @Test
  void aBuildOnALanceBranchCommitsOnThatBranchOnly() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema());
    v = insert(MAIN, v, rows(0, 40, true));
    tables.branches().create(LOC, "feature", MAIN, v);
    Optional<String> feature = Optional.of("feature");
    long b = insert(feature, v, rows(40, 40, true));
    TableIndexState state = tables.indexes().indexState(LOC, feature, b, List.of("emb"));
    assertThat(state.rows()).isEqualTo(80);
    String uuid = UUID.randomUUID().toString();
    CommitOutcome o = tables.commit(tables.indexes().stageCreateIndices(LOC, feature, b, ALL, state.vectors(), uuid));
    assertThat(o.kind()).as(o.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(o.version()).isEqualTo(b + 1);
    assertThat(tables.transactionAt(LOC, feature, b + 1).orElseThrow().uuid()).isEqualTo(uuid);
    assertThat(lanceIndexes(feature)).containsExactly("age_idx", "bio_idx", "emb_idx", "id_idx", "kind_idx");
    assertThat(lanceIndexes(MAIN)).containsExactly("id_idx");
    assertThat(tables.head(LOC, MAIN)).isEqualTo(v);
    assertThat(ids(feature, b + 1, Filter.eq("age", 45L))).containsExactly("p45");
  }

  @Test
  void anAbandonedBuildChangesNothingAndTheNextBuildLands() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema());
    v = insert(MAIN, v, rows(0, 30, true));
    TableIndexState state = tables.indexes().indexState(LOC, MAIN, v, List.of("emb"));
    StagedWrite abandoned = tables.indexes().stageCreateIndices(LOC, MAIN, v, ALL, state.vectors(), UUID.randomUUID().toString());
    assertThat(abandoned.indexNames()).hasSize(4);
    assertThat(tables.head(LOC, MAIN)).isEqualTo(v);
    assertThat(tables.indexes().indexState(LOC, MAIN, v, List.of()).indexes()).containsOnlyKeys("id_idx");
    CommitOutcome o = tables.commit(tables.indexes().stageCreateIndices(LOC, MAIN, v, ALL, state.vectors(),
        UUID.randomUUID().toString()));
    assertThat(o.kind()).as(o.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(tables.indexes().indexState(LOC, MAIN, o.version(), List.of()).indexes())
        .containsOnlyKeys("id_idx", "age_idx", "kind_idx", "bio_idx", "emb_idx");
  }

  @Test
  void aStagedIndexBatchAfterAForeignCommitIsNotLandedExactly() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema());
    v = insert(MAIN, v, rows(0, 30, true));
    TableIndexState state = tables.indexes().indexState(LOC, MAIN, v, List.of("emb"));
    StagedWrite staged = tables.indexes().stageCreateIndices(LOC, MAIN, v, ALL, state.vectors(), UUID.randomUUID().toString());
    long foreign = insert(MAIN, v, rows(30, 5, true));
    CommitOutcome o = tables.commit(staged);
    // Lance rebases a CreateIndex over a compatible insert: never LANDED at v + 1, so the writer
    // (which also checks live HEAD == pin under its gate first) answers RecoveryRequired.
    assertThat(foreign).isEqualTo(v + 1);
    assertThat(o.kind()).as(o.detail()).isEqualTo(CommitOutcome.Kind.REBASED);
    assertThat(o.version()).isEqualTo(v + 2);
  }

  @Test
  void emptyAndDuplicateRequestsAreRefused() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema());
    assertThatThrownBy(() -> tables.indexes().stageCreateIndices(LOC, MAIN, v, List.of(), Map.of(), "u"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tables.indexes().stageCreateIndices(LOC, MAIN, v,
        List.of(new IndexSpec("age", IndexKind.BTREE), new IndexSpec("age", IndexKind.BTREE)), Map.of(), "u"))
        .isInstanceOf(IllegalArgumentException.class);
    // A version with no fragment: nothing to index.
    assertThatThrownBy(() -> tables.indexes().stageCreateIndices(LOC, MAIN, v, List.of(new IndexSpec("age", IndexKind.BTREE)),
        Map.of(), "u")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no fragment");
  }
}
