package dev.omnigraph.table;

import static dev.omnigraph.table.TableFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.FragmentMetadata;

/**
 * The key indexes (BTree on {@code id}, and {@code src}/{@code dst} on edge tables) against real
 * Lance on every backend: init builds them on the empty tables before the genesis pin; the key
 * probes return exactly the live rows whether a row sits in a fragment the index covers or in one
 * appended after it, after deletes and after upserts; {@link TableStatistics#fragmentStats} reads the
 * coverage from the manifest; {@link TableIndexes#optimizeIndices} folds unindexed fragments in and
 * classifies from the versions it re-reads.
 */
abstract class AbstractKeyIndexTest {

  abstract StorageConfig newRoot() throws Exception;

  static final String LOC = "nodes/00000000000000a1-0000000000000001";
  static final String EDGE_LOC = "edges/00000000000000a2-0000000000000001";
  static final Optional<String> MAIN = Optional.empty();

  StorageConfig config;
  DataTables tables;
  final Schema schema = TableFixtures.person();

  @BeforeEach
  void openRoot() throws Exception {
    config = newRoot();
    tables = new DataTables(config);
  }

  static Schema edgeSchema() {
    return new Schema(List.of(TableFixtures.idField(),
        new Field("src", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("dst", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
  }

  List<String> lanceIndexes(String location, Optional<String> branch) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, location, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.empty()))) {
      return at.listIndexes().stream().sorted().toList();
    }
  }

  long insert(Optional<String> branch, long readVersion, Map<String, Object>... rows) {
    CommitOutcome outcome =
        tables.commit(tables.staging().stageInsert(LOC, branch, readVersion, schema, List.of(rows), false));
    assertThat(outcome.kind()).as(outcome.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    return outcome.version();
  }

  /** id → name of the rows {@link DataTables#rowsById} returns (failing on a duplicate id). */
  Map<String, Object> probe(Optional<String> branch, long version, String... ids) {
    Map<String, Object> found = new TreeMap<>();
    for (Map<String, Object> row : tables.rowsById(LOC, branch, version, List.of(ids), List.of())) {
      assertThat(found.put((String) row.get("id"), row.get("name")))
          .as("id %s returned twice", row.get("id")).isNull();
    }
    return found;
  }

  /** The same answer from a full scan with the filter evaluated here, not by Lance. */
  Map<String, Object> byFullScan(Optional<String> branch, long version, String... ids) {
    Map<String, Object> found = new TreeMap<>();
    List<String> wanted = List.of(ids);
    tables.scan(LOC, branch, version, Filter.TRUE, List.of(), row -> {
      if (wanted.contains(row.get("id"))) {
        found.put((String) row.get("id"), row.get("name"));
      }
    });
    return found;
  }

  // --- creation -------------------------------------------------------------------------------

  @Test
  void keyIndexesAreCreatedOnEmptyTablesOneCreateIndexCommitEach() {
    long node = new TableStore(config).createWithKeyIndexes(LOC, schema);
    long edge = new TableStore(config).createWithKeyIndexes(EDGE_LOC, edgeSchema());

    assertThat(node).isEqualTo(2).isEqualTo(tables.head(LOC, MAIN));
    assertThat(edge).isEqualTo(4).isEqualTo(tables.head(EDGE_LOC, MAIN));
    assertThat(lanceIndexes(LOC, MAIN)).containsExactly("id_idx");
    assertThat(lanceIndexes(EDGE_LOC, MAIN)).containsExactly("dst_idx", "id_idx", "src_idx");
    for (long v = 2; v <= 4; v++) {
      TxInfo tx = tables.transactionAt(EDGE_LOC, MAIN, v).orElseThrow();
      assertThat(tx.operation()).isEqualTo("CreateIndex");
      assertThat(tx.readVersion()).isEqualTo(v - 1);
    }
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, node))
        .isEqualTo(new FragmentStats(node, 0, 0, 0, Map.of("id_idx", 0), List.of()));
    assertThat(tables.statistics().fragmentStats(EDGE_LOC, MAIN, edge).unindexedFragments())
        .isEqualTo(Map.of("id_idx", 0, "src_idx", 0, "dst_idx", 0));
    // A table without indexes reports every key column as missing.
    long bare = new TableStore(config).createEmpty("nodes/00000000000000a3-0000000000000001", schema);
    assertThat(tables.statistics().fragmentStats("nodes/00000000000000a3-0000000000000001", MAIN, bare).missingKeyIndexes())
        .containsExactly("id");
  }

  @Test
  void initPinsTablesWithTheirKeyIndexesAtTheirLiveHead() {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.of("act"))) {
      SnapshotOutput s = g.snapshot("main");
      assertThat(s.datasets()).hasSize(4);
      for (SnapshotOutput.Dataset d : s.datasets()) {
        boolean isEdge = d.entityKind().equals("edge");
        assertThat(d.publishedDatasetVersion()).as(d.typeName())
            .isEqualTo(tables.head(d.datasetPath(), MAIN))
            .isEqualTo(isEdge ? 4 : 2);
        assertThat(lanceIndexes(d.datasetPath(), MAIN)).as(d.typeName())
            .isEqualTo(isEdge ? List.of("dst_idx", "id_idx", "src_idx") : List.of("id_idx"));
        FragmentStats stats = tables.statistics().fragmentStats(d.datasetPath(), MAIN, d.publishedDatasetVersion());
        assertThat(stats.indexesCurrent()).isTrue();
        assertThat(stats.fragments()).isZero();
      }
    }
  }

  static String schemaText() {
    try (InputStream in = AbstractKeyIndexTest.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- probes ---------------------------------------------------------------------------------

  @Test
  void probesFindExactRowsInIndexedAndUnindexedFragmentsAfterDeletesAndUpserts() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    v = insert(MAIN, v, person("a", "Ann", 1L), person("b", "Bo", 2L));
    v = insert(MAIN, v, person("c", "Cy", 3L));
    IndexOptimization optimized = tables.indexes().optimizeIndices(LOC, MAIN, v);
    assertThat(optimized.kind()).as(optimized.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    v = optimized.version();
    // Two fragments the index does not cover.
    v = insert(MAIN, v, person("d", "Di", 4L));
    v = insert(MAIN, v, person("e", "Eve", 5L), person("f", "Fy", 6L));
    FragmentStats stats = tables.statistics().fragmentStats(LOC, MAIN, v);
    assertThat(stats.fragments()).isEqualTo(4);
    assertThat(stats.unindexedFragments()).isEqualTo(Map.of("id_idx", 2));

    String[] all = {"a", "b", "c", "d", "e", "f", "g", "zz"};
    assertThat(probe(MAIN, v, "a", "d", "zz")).isEqualTo(Map.of("a", "Ann", "d", "Di"));
    assertThat(probe(MAIN, v, "f")).isEqualTo(Map.of("f", "Fy"));
    assertThat(probe(MAIN, v, "zz")).isEmpty();
    assertThat(probe(MAIN, v, all)).isEqualTo(byFullScan(MAIN, v, all)).hasSize(6);

    // Upsert one id in an indexed fragment and one in an unindexed one: each found once, new value.
    StagedWrite upsert = tables.staging().stageUpsert(LOC, MAIN, v, schema,
        List.of(person("b", "Bob", 20L), person("e", "Eva", 50L), person("g", "Gus", 7L)));
    assertThat(upsert.updatedRows()).isEqualTo(2);
    assertThat(upsert.insertedRows()).isEqualTo(1);
    v = tables.commit(upsert).version();
    assertThat(probe(MAIN, v, "b", "e", "g")).isEqualTo(Map.of("b", "Bob", "e", "Eva", "g", "Gus"));
    assertThat(probe(MAIN, v, all)).isEqualTo(byFullScan(MAIN, v, all)).hasSize(7);

    // Delete one id from each kind of fragment (d's fragment loses its only row and is removed).
    StagedWrite delete = tables.staging().stageDeleteIds(LOC, MAIN, v, List.of("a", "d", "zz"));
    assertThat(delete.deletedRows()).isEqualTo(2);
    v = tables.commit(delete).version();
    assertThat(probe(MAIN, v, "a", "d")).isEmpty();
    assertThat(tables.staging().stageDeleteIds(LOC, MAIN, v, List.of("a", "d")).isEmpty()).isTrue();
    assertThat(probe(MAIN, v, all)).isEqualTo(byFullScan(MAIN, v, all))
        .isEqualTo(Map.of("b", "Bob", "c", "Cy", "e", "Eva", "f", "Fy", "g", "Gus"));
    stats = tables.statistics().fragmentStats(LOC, MAIN, v);
    assertThat(stats.fragmentsWithDeletions()).isPositive();
    assertThat(stats.deletedRows()).isPositive();

    // Folding everything in changes no answer.
    optimized = tables.indexes().optimizeIndices(LOC, MAIN, v);
    assertThat(optimized.kind()).as(optimized.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    v = optimized.version();
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, v).indexesCurrent()).isTrue();
    assertThat(probe(MAIN, v, all)).isEqualTo(byFullScan(MAIN, v, all)).hasSize(5);
    // Older versions still answer as they did (the index of each version is its own).
    assertThat(probe(MAIN, 3, all)).isEqualTo(Map.of("a", "Ann", "b", "Bo"));
  }

  @Test
  void probesStayExactAfterCompactionRemapsTheIndex() throws Exception {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    for (String id : List.of("a", "b", "c", "d")) {
      v = insert(MAIN, v, person(id, id.toUpperCase(), 1L));
    }
    v = tables.indexes().optimizeIndices(LOC, MAIN, v).version();
    v = tables.commit(tables.staging().stageDeleteIds(LOC, MAIN, v, List.of("b"))).version();
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      ds.compact();
      v = ds.version();
    }
    assertThat(tables.transactionAt(LOC, MAIN, v).orElseThrow().operation()).isEqualTo("Rewrite");
    FragmentStats stats = tables.statistics().fragmentStats(LOC, MAIN, v);
    assertThat(stats.fragments()).isEqualTo(1);
    // Lance remapped the index's fragment bitmap onto the rewritten fragment: still fully covered.
    assertThat(stats.unindexedFragments()).isEqualTo(Map.of("id_idx", 0));
    assertThat(probe(MAIN, v, "a", "b", "c", "d")).isEqualTo(Map.of("a", "A", "c", "C", "d", "D"));
    v = insert(MAIN, v, person("e", "E", 1L));
    assertThat(probe(MAIN, v, "a", "e")).isEqualTo(Map.of("a", "A", "e", "E"));
  }

  // --- optimizeIndices ------------------------------------------------------------------------

  @Test
  void optimizeIndicesClassifiesFromTheVersionsItReadsBack() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    IndexOptimization upToDate = tables.indexes().optimizeIndices(LOC, MAIN, v);
    assertThat(upToDate.kind()).isEqualTo(IndexOptimization.Kind.UP_TO_DATE);
    assertThat(upToDate.version()).isEqualTo(v);
    assertThat(tables.head(LOC, MAIN)).isEqualTo(v);

    long v1 = insert(MAIN, v, person("a", "Ann", 1L));
    long v2 = insert(MAIN, v1, person("b", "Bo", 2L));
    IndexOptimization moved = tables.indexes().optimizeIndices(LOC, MAIN, v1);
    assertThat(moved.kind()).isEqualTo(IndexOptimization.Kind.HEAD_MOVED);
    assertThat(moved.version()).isEqualTo(v2);
    assertThat(tables.head(LOC, MAIN)).isEqualTo(v2);

    IndexOptimization done = tables.indexes().optimizeIndices(LOC, MAIN, v2);
    assertThat(done.kind()).as(done.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    assertThat(done.readVersion()).isEqualTo(v2);
    assertThat(done.version()).isEqualTo(v2 + 1).isEqualTo(tables.head(LOC, MAIN));
    assertThat(done.transactions()).hasSize(1);
    TxInfo tx = done.transactions().get(0);
    assertThat(tx.operation()).isEqualTo("CreateIndex");
    assertThat(tx.readVersion()).isEqualTo(v2);
    assertThat(tx.uuid()).isNotEmpty();
    assertThat(tables.transactionAt(LOC, MAIN, v2 + 1)).contains(tx);
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, v2 + 1).unindexedFragments()).isEqualTo(Map.of("id_idx", 0));
    // Index work changes no row.
    assertThat(tables.countRows(LOC, MAIN, v2 + 1)).isEqualTo(2);
    assertThat(tables.indexes().optimizeIndices(LOC, MAIN, v2 + 1).kind()).isEqualTo(IndexOptimization.Kind.UP_TO_DATE);
  }

  @Test
  void optimizeIndicesFoldsEveryEdgeKeyIndexInOneCommit() {
    long v = new TableStore(config).createWithKeyIndexes(EDGE_LOC, edgeSchema());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      StagedWrite staged = tables.staging().stageInsert(EDGE_LOC, MAIN, v, edgeSchema(),
          List.of(Map.of("id", "e" + i, "src", "s" + i, "dst", "d" + i)), false);
      v = tables.commit(staged).version();
    }
    assertThat(tables.statistics().fragmentStats(EDGE_LOC, MAIN, v).unindexedFragments())
        .isEqualTo(Map.of("id_idx", 3, "src_idx", 3, "dst_idx", 3));
    IndexOptimization done = tables.indexes().optimizeIndices(EDGE_LOC, MAIN, v);
    assertThat(done.kind()).as(done.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    assertThat(done.transactions()).extracting(TxInfo::operation).containsExactly("CreateIndex");
    assertThat(tables.statistics().fragmentStats(EDGE_LOC, MAIN, done.version()).indexesCurrent()).isTrue();
    tables.scan(EDGE_LOC, MAIN, done.version(), Filter.or(Filter.in("src", List.of("s1")), Filter.in("dst", List.of("d2"))),
        List.of("id"), rows::add);
    assertThat(rows).extracting(r -> r.get("id")).containsExactlyInAnyOrder("e1", "e2");
  }

  @Test
  void optimizeIndicesRecreatesAKeyIndexAnOverwriteDropped() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    v = insert(MAIN, v, person("a", "Ann", 1L));
    CommitOutcome overwritten = tables.commit(
        tables.staging().stageOverwrite(LOC, MAIN, v, schema, List.of(person("b", "Bo", 2L))));
    v = overwritten.version();
    // Lance's Overwrite drops every index of the table.
    FragmentStats stats = tables.statistics().fragmentStats(LOC, MAIN, v);
    assertThat(stats.missingKeyIndexes()).containsExactly("id");
    assertThat(stats.unindexedFragments()).isEmpty();
    assertThat(lanceIndexes(LOC, MAIN)).isEmpty();
    assertThat(probe(MAIN, v, "a", "b")).isEqualTo(Map.of("b", "Bo"));
    IndexOptimization done = tables.indexes().optimizeIndices(LOC, MAIN, v);
    assertThat(done.kind()).as(done.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    assertThat(lanceIndexes(LOC, MAIN)).containsExactly("id_idx");
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, done.version()).indexesCurrent()).isTrue();
    assertThat(probe(MAIN, done.version(), "a", "b")).isEqualTo(Map.of("b", "Bo"));
  }

  @Test
  void aBranchInheritsTheKeyIndexAndIsOptimizedOnItsOwn() {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    v = insert(MAIN, v, person("a", "Ann", 1L));
    v = tables.indexes().optimizeIndices(LOC, MAIN, v).version();
    tables.branches().create(LOC, "feature", MAIN, v);
    Optional<String> feature = Optional.of("feature");
    long b = tables.head(LOC, feature);
    assertThat(lanceIndexes(LOC, feature)).containsExactly("id_idx");
    b = insert(feature, b, person("b", "Bo", 2L));
    assertThat(probe(feature, b, "a", "b", "zz")).isEqualTo(Map.of("a", "Ann", "b", "Bo"));
    assertThat(tables.statistics().fragmentStats(LOC, feature, b).unindexedFragments()).isEqualTo(Map.of("id_idx", 1));

    long mainHead = tables.head(LOC, MAIN);
    IndexOptimization done = tables.indexes().optimizeIndices(LOC, feature, b);
    assertThat(done.kind()).as(done.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    assertThat(done.version()).isEqualTo(tables.head(LOC, feature));
    assertThat(tables.head(LOC, MAIN)).isEqualTo(mainHead);
    assertThat(tables.statistics().fragmentStats(LOC, feature, done.version()).indexesCurrent()).isTrue();
    assertThat(probe(feature, done.version(), "a", "b")).isEqualTo(Map.of("a", "Ann", "b", "Bo"));
    assertThat(probe(MAIN, mainHead, "a", "b")).isEqualTo(Map.of("a", "Ann"));
  }

  // --- helpers for subclasses -----------------------------------------------------------------

  /**
   * Adds {@code count} one-row fragments (ids {@code k<from>}…) in one insertion-only commit: a
   * table with a long write history, in one step.
   */
  long addOneRowFragments(int from, int count) {
    return addOneRowFragments(config, schema, LOC, from, count);
  }

  static long addOneRowFragments(StorageConfig config, Schema schema, String location, int from, int count) {
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, location, allocator)) {
      List<FragmentMetadata> fragments = new ArrayList<>();
      for (int i = from; i < from + count; i++) {
        try (VectorSchemaRoot batch = RowCodec.encode(schema, List.of(person("k" + i, "n" + i, (long) i)), allocator)) {
          fragments.addAll(LanceSupport.stage(config, ds, batch, allocator));
        }
      }
      try (Dataset after = LanceSupport.commit(ds, LanceSupport.insertOnlyUpdate(fragments, ds.getLanceSchema()),
          java.util.UUID.randomUUID().toString(), Map.of())) {
        return after.version();
      }
    }
  }
}
