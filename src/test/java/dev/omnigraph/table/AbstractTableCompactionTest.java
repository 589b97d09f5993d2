package dev.omnigraph.table;

import static dev.omnigraph.table.TableFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.MetadataColumns;
import org.lance.ipc.ScanOptions;

/**
 * {@link TableCompaction#compact} and {@link TableCompaction#stats} against real Lance on every backend: what
 * versions a compaction adds and which transactions Lance records there, that rows, stable row ids
 * and time travel survive it, that deletion files are folded in, and the typed refusal when HEAD is
 * not the expected version. The facts are written down in docs/lance-write-layer.md, "Compaction".
 */
abstract class AbstractTableCompactionTest {

  abstract StorageConfig newRoot();

  static final String LOC = "nodes/0000000000000002-0000000000000001";
  static final Optional<String> MAIN = Optional.empty();

  StorageConfig config;
  DataTables tables;
  final Schema schema = TableFixtures.person();

  @BeforeEach
  void openRoot() {
    config = newRoot();
    tables = new DataTables(config);
  }

  long insert(Optional<String> branch, long readVersion, Map<String, Object>... rows) {
    CommitOutcome outcome = tables.commit(tables.staging().stageInsert(LOC, branch, readVersion, schema, List.of(rows), false));
    assertThat(outcome.kind()).as(outcome.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    return outcome.version();
  }

  /** id → stable row id ({@code _rowid}) at exactly {@code version}. */
  Map<String, Long> rowIds(Optional<String> branch, long version) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, LOC, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)))) {
      LanceSupport.scanBatches(at, new ScanOptions.Builder().columns(List.of("id")).withRowId(true).build(), allocator,
          batch -> {
            FieldVector id = batch.getVector("id");
            FieldVector rowId = batch.getVector(MetadataColumns.ROWID);
            for (int i = 0; i < batch.getRowCount(); i++) {
              out.put((String) RowCodec.get(id, i), (Long) RowCodec.get(rowId, i));
            }
          });
    }
    return out;
  }

  List<Map<String, Object>> rows(Optional<String> branch, long version) {
    List<Map<String, Object>> rows = new ArrayList<>();
    tables.scan(LOC, branch, version, Filter.TRUE, List.of(), rows::add);
    return TableFixtures.sorted(rows);
  }

  /** Three two-row inserts, then a delete and an upsert: 4 fragments, 2 of them with deletion files. */
  long fragmented(Optional<String> branch, long v) {
    for (int i = 0; i < 6; i += 2) {
      v = insert(branch, v, person("p" + i, "P" + i, (long) i), person("p" + (i + 1), "P" + (i + 1), (long) i + 1));
    }
    CommitOutcome deleted = tables.commit(tables.staging().stageDeleteIds(LOC, branch, v, List.of("p1")));
    assertThat(deleted.kind()).isEqualTo(CommitOutcome.Kind.LANDED);
    v = deleted.version();
    CommitOutcome upserted = tables.commit(tables.staging().stageUpsert(LOC, branch, v, schema,
        List.of(person("p2", "P2-new", 22L), person("q", "Q", 9L))));
    assertThat(upserted.kind()).isEqualTo(CommitOutcome.Kind.LANDED);
    return upserted.version();
  }

  @Test
  void compactionPreservesRowsRowIdsAndTimeTravelAndFoldsDeletions() throws Exception {
    long v1 = new TableStore(config).createEmpty(LOC, schema);
    long pin = fragmented(MAIN, v1);
    TableStats before = tables.compaction().stats(LOC, MAIN, OptionalLong.empty());
    assertThat(before.version()).isEqualTo(pin);
    assertThat(before.fragments()).as("%s", before).isEqualTo(4);
    assertThat(before.fragmentsWithDeletions()).as("%s", before).isEqualTo(2);
    assertThat(before.deletedRows()).as("%s", before).isEqualTo(2);
    List<Map<String, Object>> content = rows(MAIN, pin);
    Map<String, Long> ids = rowIds(MAIN, pin);

    CompactionOutcome out = tables.compaction().compact(LOC, MAIN, pin);
    System.out.println("[compaction] " + out);

    assertThat(out.kind()).as(out.detail()).isEqualTo(CompactionOutcome.Kind.COMPACTED);
    assertThat(out.expectedVersion()).isEqualTo(pin);
    assertThat(out.version()).isEqualTo(tables.head(LOC, MAIN)).isGreaterThan(pin);
    // ReserveFragments + Rewrite, then the key indexes folded in (derived, same content).
    assertThat(out.steps()).isNotEmpty().hasSizeLessThanOrEqualTo(2 + KeyIndexes.MAX_INDEX_COMMITS);
    assertThat(out.steps()).extracting(CompactionOutcome.Step::operation).contains("Rewrite");
    assertThat(out.steps().get(out.steps().size() - 1).operation()).isIn("Rewrite", "CreateIndex");
    assertThat(out.steps()).allSatisfy(s -> assertThat(s.uuid()).isNotBlank());
    assertThat(out.after().fragments()).isEqualTo(1);
    assertThat(out.after().fragmentsWithDeletions()).isZero();
    assertThat(out.after().deletedRows()).isZero();
    // Same rows, same stable row ids; the old version still reads its old content.
    assertThat(rows(MAIN, out.version())).isEqualTo(content);
    assertThat(rowIds(MAIN, out.version())).isEqualTo(ids);
    assertThat(tables.countRows(LOC, MAIN, out.version())).isEqualTo(content.size());
    assertThat(rows(MAIN, pin)).isEqualTo(content);
    assertThat(tables.compaction().stats(LOC, MAIN, OptionalLong.of(pin))).isEqualTo(before);
    // Recovery's view of the same history agrees.
    assertThat(tables.compaction().compactionSince(LOC, MAIN, pin).kind()).isEqualTo(CompactionOutcome.Kind.COMPACTED);
    assertThat(tables.compaction().compactionSince(LOC, MAIN, pin).version()).isEqualTo(out.version());
    // An ordinary staged write on top of the compacted head works and is foreign to the compaction.
    long next = insert(MAIN, out.version(), person("z", "Z", 1L));
    assertThat(tables.compaction().compactionSince(LOC, MAIN, pin).kind()).isEqualTo(CompactionOutcome.Kind.FOREIGN);
    assertThat(rows(MAIN, next)).hasSize(content.size() + 1);
  }

  @Test
  void compactionOfABranchLeavesMainAlone() throws Exception {
    long v1 = new TableStore(config).createEmpty(LOC, schema);
    long forkAt = insert(MAIN, v1, person("m", "M", 1L));
    tables.branches().create(LOC, "feature", MAIN, forkAt);
    Optional<String> b = Optional.of("feature");
    long pin = fragmented(b, forkAt);
    List<Map<String, Object>> content = rows(b, pin);
    Map<String, Long> ids = rowIds(b, pin);

    CompactionOutcome out = tables.compaction().compact(LOC, b, pin);
    System.out.println("[compaction on a branch] " + out);

    assertThat(out.kind()).as(out.detail()).isEqualTo(CompactionOutcome.Kind.COMPACTED);
    assertThat(tables.head(LOC, b)).isEqualTo(out.version());
    assertThat(rows(b, out.version())).isEqualTo(content);
    assertThat(rowIds(b, out.version())).isEqualTo(ids);
    assertThat(rows(b, pin)).isEqualTo(content);
    assertThat(tables.head(LOC, MAIN)).isEqualTo(forkAt);
    assertThat(rows(MAIN, forkAt)).extracting(r -> r.get("id")).containsExactly("m");
  }

  @Test
  void compactionRefusesWhenHeadIsNotTheExpectedVersion() {
    long v1 = new TableStore(config).createEmpty(LOC, schema);
    long pin = fragmented(MAIN, v1);
    long drifted = insert(MAIN, pin, person("x", "X", 1L));
    assertThatThrownBy(() -> tables.compaction().compact(LOC, MAIN, pin)).isInstanceOfSatisfying(TableHeadMoved.class, e -> {
      assertThat(e.expectedVersion()).isEqualTo(pin);
      assertThat(e.liveHead()).isEqualTo(drifted);
      assertThat(e.location()).isEqualTo(LOC);
    });
    assertThat(tables.head(LOC, MAIN)).isEqualTo(drifted);
  }

  @Test
  void aSingleFragmentTableHasNothingToCompact() {
    long v1 = new TableStore(config).createWithKeyIndexes(LOC, schema);
    long inserted = insert(MAIN, v1, person("a", "A", 1L), person("b", "B", 2L));
    // Index the one fragment first: then neither compaction nor the index fold has anything to do.
    long pin = tables.indexes().optimizeIndices(LOC, MAIN, inserted).version();
    CompactionOutcome out = tables.compaction().compact(LOC, MAIN, pin);
    System.out.println("[compaction of one fragment] " + out);
    assertThat(out.kind()).isEqualTo(CompactionOutcome.Kind.NOT_COMPACTED);
    assertThat(out.version()).isEqualTo(pin);
    assertThat(tables.head(LOC, MAIN)).isEqualTo(pin);
  }
}
