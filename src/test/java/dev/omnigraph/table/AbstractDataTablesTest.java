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
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.operation.Delete;
import org.lance.operation.Overwrite;
import org.lance.operation.Update;

/**
 * The {@link DataTables} contract against real Lance on every backend: staged writes of each kind,
 * exact rows and versions after commit, the transaction identity and certificate in Lance history,
 * what Lance does with two writes staged from the same read version, first-touch branch writes, and
 * the evidence-based commit classification. Subclasses name a fresh root and a way to make a key
 * prefix fail (fault injection).
 */
abstract class AbstractDataTablesTest {

  abstract StorageConfig newRoot();

  /**
   * Makes every storage request under {@code keyPrefix} (relative to the root) fail until closed.
   */
  abstract AutoCloseable breakStorageUnder(StorageConfig root, String keyPrefix) throws Exception;

  static final String LOC = "nodes/0000000000000001-0000000000000001";
  static final Optional<String> MAIN = Optional.empty();

  StorageConfig config;
  DataTables tables;
  final Schema schema = TableFixtures.person();

  @BeforeEach
  void openRoot() {
    config = newRoot();
    tables = new DataTables(config);
  }

  long create() {
    return new TableStore(config).createEmpty(LOC, schema);
  }

  long insert(long readVersion, Map<String, Object>... rows) {
    CommitOutcome outcome = tables.commit(tables.staging().stageInsert(TableAt.of(LOC, MAIN, readVersion), schema, List.of(rows), false));
    assertThat(outcome.kind()).as(outcome.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
    return outcome.version();
  }

  List<Map<String, Object>> rows(Optional<String> branch, long version) {
    List<Map<String, Object>> rows = new ArrayList<>();
    tables.scan(TableAt.of(LOC, branch, version), Filter.TRUE, List.of(), rows::add);
    return TableFixtures.sorted(rows);
  }

  static Map<String, String> certificate(long provenOn) {
    return Map.of(InsertCertificate.INSERT_ABSENCE, "v1", InsertCertificate.INSERT_ABSENCE_PARENT, Long.toString(provenOn));
  }

  /** Reads Lance's own transaction record of {@code version} (shape checks need Lance types). */
  void withTransaction(Optional<String> branch, long version, Consumer<Transaction> check) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, LOC, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)));
        Transaction tx = at.readTransaction().orElseThrow()) {
      check.accept(tx);
    }
  }

  // --- insert ---------------------------------------------------------------------------------

  private static Map<String, Object> everyType(String id, boolean nulls) {
    Map<String, Object> row = new java.util.HashMap<>();
    row.put("id", id);
    if (!nulls) {
      row.put("s", "s-" + id);
      row.put("b", true);
      row.put("i32", -7);
      row.put("i64", 1L << 40);
      row.put("u32", 4_000_000_000L);
      row.put("u64", -1L);
      row.put("f32", 1.5f);
      row.put("f64", -2.25);
      row.put("d", java.time.LocalDate.of(2024, 2, 29));
      row.put("ts", java.time.Instant.parse("2024-01-02T03:04:05.678Z"));
      row.put("vec", new float[] {1f, 2f, 3f});
      row.put("tags", List.of("x", "y"));
      row.put("nums", List.of(1L, 2L, 3L));
    }
    return row;
  }

  @Test
  void fragmentRowsCopiedAsArrowIntoAChunkBufferStageACertifiedInsertOfTheSameRows() {
    Schema all = TableFixtures.allTypes();
    String from = "nodes/0000000000000009-0000000000000001";
    String to = "nodes/000000000000000a-0000000000000001";
    TableStore store = new TableStore(config);
    long f1 = store.createEmpty(from, all);
    long t1 = store.createEmpty(to, all);
    List<Map<String, Object>> written = List.of(everyType("a", false), everyType("b", true), everyType("c", false));
    CommitOutcome loaded = tables.commit(tables.staging().stageInsert(TableAt.of(from, MAIN, f1), all, written, false));
    List<Integer> fragments = new ArrayList<>(tables.fragmentIds(TableAt.of(from, MAIN, loaded.version())));

    try (ChunkBuffer buffer = new ChunkBuffer(all);
        FragmentRows source = tables.fragmentRows(TableAt.of(from, MAIN, loaded.version()), fragments)) {
      List<String> ids = new ArrayList<>();
      while (source.next()) {
        ids.add(source.id());
        assertThat(source.value("s")).isEqualTo(source.id().equals("b") ? null : "s-" + source.id());
        assertThat(source.rowBytes()).isPositive();
        buffer.append(source);
      }
      assertThat(ids).containsExactlyInAnyOrder("a", "b", "c");
      assertThat(buffer.rows()).isEqualTo(3);
      assertThat(buffer.bytes()).isPositive();
      StagedWrite staged = tables.staging().stageInsert(TableAt.of(to, MAIN, t1), buffer, true, "11111111-2222-3333-4444-555555555555");
      CommitOutcome landed = tables.commit(staged);
      assertThat(landed.kind()).as(landed.detail()).isEqualTo(CommitOutcome.Kind.LANDED);
      assertThat(landed.version()).isEqualTo(t1 + 1);
      // Every column type survives the copy, and the output is re-certified.
      List<Map<String, Object>> copied = new ArrayList<>();
      tables.scan(TableAt.of(to, MAIN, landed.version()), Filter.TRUE, List.of(), copied::add);
      assertThat(TableFixtures.comparable(copied)).isEqualTo(TableFixtures.comparable(written.stream()
          .map(r -> {
            Map<String, Object> full = new java.util.HashMap<>();
            all.getFields().forEach(f -> full.put(f.getName(), r.get(f.getName())));
            return full;
          }).toList()));
      assertThat(tables.insertCertificate().violations(TableAt.of(to, MAIN, landed.version()))).isEmpty();

      // A buffer reused after clear() holds only what follows; a repeated id fails closed.
      buffer.clear();
      assertThat(buffer.rows()).isZero();
    }
    try (ChunkBuffer twice = new ChunkBuffer(all);
        FragmentRows source = tables.fragmentRows(TableAt.of(from, MAIN, loaded.version()), fragments)) {
      source.next();
      twice.append(source);
      twice.append(source);
      assertThatThrownBy(() -> tables.staging().stageInsert(TableAt.of(to, MAIN, t1 + 1), twice, true, "22222222-2222-3333-4444-555555555555"))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("not distinct");
    }
    try (ChunkBuffer other = new ChunkBuffer(schema);
        FragmentRows source = tables.fragmentRows(TableAt.of(from, MAIN, loaded.version()), fragments)) {
      source.next();
      assertThatThrownBy(() -> other.append(source)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not match the write schema");
    }
  }

  @Test
  void aChunkBufferCutAcrossScanBatchesStagesExactlyTheRowsAppendedToEachChunk() {
    // Two fragments scan as two batches; chunks cut at 4 and then 1 rows span the batch boundary,
    // and one row is skipped (a run is broken, not copied past).
    Schema all = TableFixtures.allTypes();
    String from = "nodes/000000000000000b-0000000000000001";
    String to = "nodes/000000000000000c-0000000000000001";
    TableStore store = new TableStore(config);
    long f1 = store.createEmpty(from, all);
    long t1 = store.createEmpty(to, all);
    long f2 = tables.commit(tables.staging().stageInsert(TableAt.of(from, MAIN, f1), all, List.of(everyType("a", false), everyType("b", true), everyType("c", false)), false)).version();
    long f3 = tables.commit(tables.staging().stageInsert(TableAt.of(from, MAIN, f2), all, List.of(everyType("d", true), everyType("e", false), everyType("f", false)), false)).version();
    List<Integer> fragments = new ArrayList<>(tables.fragmentIds(TableAt.of(from, MAIN, f3)));
    assertThat(fragments).hasSize(2);

    List<List<String>> chunks = List.of(new ArrayList<>(), new ArrayList<>());
    long at = t1;
    try (ChunkBuffer buffer = new ChunkBuffer(all);
        FragmentRows source = tables.fragmentRows(TableAt.of(from, MAIN, f3), fragments)) {
      int seen = 0;
      while (source.next()) {
        seen++;
        if (seen == 5) {
          continue; // skipped: the next row starts a new run
        }
        int chunk = seen <= 4 ? 0 : 1;
        chunks.get(chunk).add(source.id());
        buffer.append(source);
        if (chunk == 0 && buffer.rows() == 4 || chunk == 1 && seen == 6) {
          at = tables.commit(tables.staging().stageInsert(TableAt.of(to, MAIN, at), buffer, true, java.util.UUID.randomUUID().toString()))
              .version();
          buffer.clear();
        }
      }
      assertThat(buffer.rows()).isZero();
    }
    assertThat(at).isEqualTo(t1 + 2);
    assertThat(chunks.get(0)).hasSize(4);
    assertThat(chunks.get(1)).hasSize(1);
    Map<String, Map<String, Object>> expected = new java.util.TreeMap<>();
    for (String id : List.of("a", "b", "c", "d", "e", "f")) {
      expected.put(id, everyType(id, id.equals("b") || id.equals("d")));
    }
    List<Map<String, Object>> wanted = new ArrayList<>();
    chunks.stream().flatMap(List::stream).forEach(id -> {
      Map<String, Object> full = new java.util.HashMap<>();
      all.getFields().forEach(f -> full.put(f.getName(), expected.get(id).get(f.getName())));
      wanted.add(full);
    });
    List<Map<String, Object>> copied = new ArrayList<>();
    tables.scan(TableAt.of(to, MAIN, at), Filter.TRUE, List.of(), copied::add);
    assertThat(TableFixtures.comparable(copied)).isEqualTo(TableFixtures.comparable(wanted));
    assertThat(tables.insertCertificate().violations(TableAt.of(to, MAIN, at))).isEmpty();
  }

  @Test
  void certifiedInsertLandsExactRowsAtTheNextVersionWithItsUuidAndCertificate() {
    long v1 = create();
    List<Map<String, Object>> rows = List.of(person("a", "Ann", 31L), person("b", null, null), person("c", "Cy", 7L));
    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, rows, true);

    assertThat(staged.kind()).isEqualTo(StagedWrite.Kind.INSERT);
    assertThat(staged.isEmpty()).isFalse();
    assertThat(staged.location()).isEqualTo(LOC);
    assertThat(staged.nativeBranch()).isEmpty();
    assertThat(staged.readVersion()).isEqualTo(v1);
    assertThat(staged.insertedRows()).isEqualTo(3);
    assertThat(staged.updatedRows()).isZero();
    assertThat(staged.deletedRows()).isZero();
    assertThat(staged.properties()).isEqualTo(certificate(v1));
    assertThat(staged.arrowBytes()).isPositive();
    // Staged files are invisible: HEAD and content are unchanged until the commit.
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v1);
    assertThat(tables.countRows(TableAt.of(LOC, MAIN, v1))).isZero();

    CommitOutcome outcome = tables.commit(staged);
    assertThat(outcome).isEqualTo(CommitOutcome.landed(v1 + 1));
    assertThat(outcome.isLanded()).isTrue();
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v1 + 1);
    assertThat(rows(MAIN, v1 + 1)).isEqualTo(TableFixtures.sorted(rows));
    assertThat(tables.countRows(TableAt.of(LOC, MAIN, v1 + 1))).isEqualTo(3);

    TxInfo tx = tables.transactionAt(TableAt.of(LOC, MAIN, v1 + 1)).orElseThrow();
    assertThat(tx).isEqualTo(new TxInfo(staged.uuid(), v1, certificate(v1), "Update"));
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v1 + 1))).isEmpty();
    // The persisted Update has exactly the certified shape.
    withTransaction(MAIN, v1 + 1, t -> {
      Update update = (Update) t.operation();
      assertThat(update.updateMode()).contains(Update.UpdateMode.RewriteRows);
      assertThat(update.removedFragmentIds()).isEmpty();
      assertThat(update.updatedFragments()).isEmpty();
      assertThat(update.fieldsModified()).isEmpty();
      assertThat(update.fieldsForPreservingFragBitmap()).containsExactly(0L, 1L, 2L);
      assertThat(update.newFragments()).isNotEmpty();
      assertThat(update.newFragments().stream().mapToLong(FragmentMetadata::getPhysicalRows).sum()).isEqualTo(3);
    });
    // Version 1 is the dataset's creation, recorded by Lance as an Overwrite with no properties.
    TxInfo creation = tables.transactionAt(TableAt.of(LOC, MAIN, v1)).orElseThrow();
    assertThat(creation.operation()).isEqualTo("Overwrite");
    assertThat(creation.properties()).isEmpty();
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v1))).contains("version 1 has no parent version");
  }

  @Test
  void uncertifiedInsertCarriesNoPropertyAndFailsCertificateVerification() {
    long v1 = create();
    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(person("a", "Ann", 1L)), false);
    assertThat(staged.properties()).isEmpty();
    assertThat(tables.commit(staged).isLanded()).isTrue();
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, v1 + 1)).orElseThrow().properties()).isEmpty();
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v1 + 1))).containsExactly(
        "omnigraph.insert_absence is null, not v1", "absence was proven on version null, not the parent " + v1);
  }

  @Test
  void insertRejectsBadInputBeforeWritingAnything() {
    long v1 = create();
    // Strict insert fails closed when a certificate check fails (here: duplicate ids).
    assertThatThrownBy(() -> tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(person("a", "x", 1L), person("a", "y", 2L)), true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fails closed").hasMessageContaining("not distinct");
    assertThatThrownBy(() -> tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(Map.of("id", "a", "age", 3)), false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 0, column 'age'");
    Schema other = new Schema(List.of(TableFixtures.idField()));
    assertThatThrownBy(() -> tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), other, List.of(Map.of("id", "a")), false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not match the table schema");
    StagedWrite empty = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(), true);
    assertThat(empty.isEmpty()).isTrue();
    assertThatThrownBy(() -> tables.commit(empty)).isInstanceOf(IllegalArgumentException.class);
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v1);
  }

  // --- upsert ---------------------------------------------------------------------------------

  @Test
  void upsertReplacesExistingRowsAndInsertsNewOnes() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L), person("c", "Cy", 3L), person("d", "Di", 4L));
    StagedWrite staged = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v2), schema, List.of(person("b", "Bob", 20L), person("c", null, null), person("e", "Eve", 5L)));
    assertThat(staged.kind()).isEqualTo(StagedWrite.Kind.UPSERT);
    assertThat(staged.insertedRows()).isEqualTo(1);
    assertThat(staged.updatedRows()).isEqualTo(2);
    assertThat(staged.deletedRows()).isZero();
    assertThat(staged.properties()).isEmpty(); // mixed upsert: no certificate

    assertThat(tables.commit(staged)).isEqualTo(CommitOutcome.landed(v2 + 1));
    assertThat(rows(MAIN, v2 + 1)).isEqualTo(List.of(
        person("a", "Ann", 1L), person("b", "Bob", 20L), person("c", null, null), person("d", "Di", 4L),
        person("e", "Eve", 5L)));
    assertThat(rows(MAIN, v2)).hasSize(4); // the read version is untouched
    TxInfo tx = tables.transactionAt(TableAt.of(LOC, MAIN, v2 + 1)).orElseThrow();
    assertThat(tx.uuid()).isEqualTo(staged.uuid());
    assertThat(tx.readVersion()).isEqualTo(v2);
    assertThat(tx.properties()).isEmpty();
    assertThat(tx.operation()).isEqualTo("Update");
    withTransaction(MAIN, v2 + 1, t -> {
      Update update = (Update) t.operation();
      // One fragment kept a, d: it is updated with a deletion vector for b, c, not removed.
      assertThat(update.removedFragmentIds()).isEmpty();
      assertThat(update.updatedFragments()).hasSize(1);
      assertThat(update.updatedFragments().get(0).getNumDeletions()).isEqualTo(2);
      assertThat(update.newFragments().stream().mapToLong(FragmentMetadata::getPhysicalRows).sum()).isEqualTo(3);
      assertThat(update.updateMode()).contains(Update.UpdateMode.RewriteRows);
    });
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v2 + 1))).isNotEmpty();
  }

  @Test
  void upsertReplacingEveryRowOfAFragmentRemovesIt() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L));
    StagedWrite staged = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v2), schema, List.of(person("a", "A2", 10L), person("b", "B2", 20L)));
    assertThat(staged.updatedRows()).isEqualTo(2);
    assertThat(staged.insertedRows()).isZero();
    assertThat(tables.commit(staged).isLanded()).isTrue();
    assertThat(rows(MAIN, v2 + 1)).isEqualTo(List.of(person("a", "A2", 10L), person("b", "B2", 20L)));
    withTransaction(MAIN, v2 + 1, t -> {
      Update update = (Update) t.operation();
      assertThat(update.removedFragmentIds()).hasSize(1);
      assertThat(update.updatedFragments()).isEmpty();
    });
  }

  @Test
  void allNewUpsertCarriesTheCertificateAndDuplicateIdsAreRejected() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L));
    StagedWrite staged = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v2), schema, List.of(person("x", "X", 1L), person("y", "Y", 2L)));
    assertThat(staged.insertedRows()).isEqualTo(2);
    assertThat(staged.updatedRows()).isZero();
    assertThat(staged.properties()).isEqualTo(certificate(v2));
    assertThat(tables.commit(staged).isLanded()).isTrue();
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v2 + 1))).isEmpty();
    assertThatThrownBy(() -> tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v2 + 1), schema, List.of(person("x", "1", 1L), person("x", "2", 2L))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct ids");
    assertThat(tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v2 + 1), schema, List.of()).isEmpty()).isTrue();
  }

  // --- delete ---------------------------------------------------------------------------------

  @Test
  void deleteByIdsLeavesExactlyTheRest() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L), person("c", "Cy", 3L));
    long v3 = insert(v2, person("d", "Di", 4L));
    StagedWrite staged = tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v3), List.of("b", "d", "zz"));
    assertThat(staged.kind()).isEqualTo(StagedWrite.Kind.DELETE);
    assertThat(staged.isEmpty()).isFalse();
    assertThat(staged.deletedRows()).isEqualTo(2);
    assertThat(staged.insertedRows()).isZero();
    assertThat(staged.properties()).isEmpty();
    assertThat(tables.commit(staged)).isEqualTo(CommitOutcome.landed(v3 + 1));
    assertThat(rows(MAIN, v3 + 1)).isEqualTo(List.of(person("a", "Ann", 1L), person("c", "Cy", 3L)));
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, v3 + 1)).orElseThrow().operation()).isEqualTo("Delete");
    withTransaction(MAIN, v3 + 1, t -> {
      Delete delete = (Delete) t.operation();
      // b's fragment keeps a, c (deletion vector); d's fragment lost its only row (deleted).
      assertThat(delete.updatedFragments()).hasSize(1);
      assertThat(delete.updatedFragments().get(0).getNumDeletions()).isEqualTo(1);
      assertThat(delete.deletedFragmentIds()).hasSize(1);
      assertThat(delete.predicate()).isEqualTo("`id` IN ('b', 'd')");
    });
    // A second delete in the same fragment merges with its existing deletion vector.
    assertThat(tables.commit(tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v3 + 1), List.of("a")))).isEqualTo(CommitOutcome.landed(v3 + 2));
    assertThat(rows(MAIN, v3 + 2)).isEqualTo(List.of(person("c", "Cy", 3L)));
  }

  @Test
  void deleteMatchingNothingIsEmpty() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L));
    StagedWrite staged = tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v2), List.of("nope", "x' OR '1'='1"));
    assertThat(staged.isEmpty()).isTrue();
    assertThat(staged.deletedRows()).isZero();
    assertThat(tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v2), List.of()).isEmpty()).isTrue();
    assertThatThrownBy(() -> tables.commit(staged)).isInstanceOf(IllegalArgumentException.class);
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v2);
  }

  // --- overwrite ------------------------------------------------------------------------------

  @Test
  void overwriteReplacesTheTableContent() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L));
    StagedWrite staged = tables.staging().stageOverwrite(TableAt.of(LOC, MAIN, v2), schema, List.of(person("z", "Zed", 26L)));
    assertThat(staged.kind()).isEqualTo(StagedWrite.Kind.OVERWRITE);
    assertThat(staged.insertedRows()).isEqualTo(1);
    assertThat(tables.commit(staged)).isEqualTo(CommitOutcome.landed(v2 + 1));
    assertThat(rows(MAIN, v2 + 1)).isEqualTo(List.of(person("z", "Zed", 26L)));
    assertThat(rows(MAIN, v2)).hasSize(2);
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, v2 + 1)).orElseThrow().operation()).isEqualTo("Overwrite");
    withTransaction(MAIN, v2 + 1, t -> assertThat(((Overwrite) t.operation()).fragments()).hasSize(1));

    // An empty overwrite is a real zero-fragment transaction: the table becomes empty.
    StagedWrite empty = tables.staging().stageOverwrite(TableAt.of(LOC, MAIN, v2 + 1), schema, List.of());
    assertThat(empty.isEmpty()).isFalse();
    assertThat(tables.commit(empty)).isEqualTo(CommitOutcome.landed(v2 + 2));
    assertThat(tables.countRows(TableAt.of(LOC, MAIN, v2 + 2))).isZero();

    // The rewritten table keeps stable row ids and the primary key, and takes further writes.
    try (BufferAllocator allocator = new RootAllocator(); Dataset ds = LanceSupport.open(config, LOC, allocator)) {
      assertThat(ds.hasStableRowIds()).isTrue();
      assertThat(LanceSupport.primaryKey(ds)).extracting(f -> f.getName()).containsExactly("id");
    }
    assertThat(tables.commit(tables.staging().stageInsert(TableAt.of(LOC, MAIN, v2 + 2), schema, List.of(person("n", "New", 1L)), true)))
        .isEqualTo(CommitOutcome.landed(v2 + 3));
  }

  // --- two writes staged from the same read version -------------------------------------------
  //
  // lance-core 7.0.0 resolves a commit whose read version is stale against every transaction since
  // then, even with maxRetries(0) (zero retries only stops it from re-trying a lost manifest race):
  // a compatible transaction is rebased and lands at head + 1, an incompatible one fails with a
  // plain RuntimeException. DataTables.commit classifies both from the re-read history, and the
  // write path fences both before they happen (live HEAD == manifest pin under the table gate).

  /**
   * Insert vs insert: Lance rebases the stale insertion-only Update over the foreign one; the second
   * lands at readVersion + 2 with its recorded read version rewritten to readVersion + 1. With the
   * same id in both this is the duplicate the missing inserted-rows filter would have rejected:
   * REBASED maps to RecoveryRequired, and the certificate of the rebased transaction no longer
   * verifies (its proven parent is not its parent).
   */
  @Test
  void staleInsertIsRebasedOverAForeignInsertEvenWithTheSameId() {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L));
    StagedWrite first = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("dup", "first", 1L)), true);
    StagedWrite second = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("dup", "second", 2L)), true);

    assertThat(tables.commit(first)).isEqualTo(CommitOutcome.landed(v + 1));
    CommitOutcome outcome = tables.commit(second);
    assertThat(outcome.kind()).isEqualTo(CommitOutcome.Kind.REBASED);
    assertThat(outcome.version()).isEqualTo(v + 2);
    assertThat(outcome.detail()).contains(second.uuid()).contains("landed at version " + (v + 2));

    TxInfo rebased = tables.transactionAt(TableAt.of(LOC, MAIN, v + 2)).orElseThrow();
    assertThat(rebased.uuid()).isEqualTo(second.uuid());
    assertThat(rebased.readVersion()).isEqualTo(v + 1); // rewritten by Lance, not our v
    assertThat(tables.rowsById(TableAt.of(LOC, MAIN, v + 2), List.of("dup"), List.of("id", "name")))
        .extracting(r -> r.get("name")).containsExactlyInAnyOrder("first", "second");
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v + 1))).isEmpty();
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, MAIN, v + 2)))
        .containsExactly("absence was proven on version " + v + ", not the parent " + (v + 1));
  }

  /**
   * Delete vs delete in one fragment: the second is a retryable conflict in Lance (a plain
   * RuntimeException, "Retryable commit conflict … preempted by concurrent transaction Delete"),
   * so it does not land; head moved to the foreign delete.
   */
  @Test
  void staleDeleteInTheSameFragmentDoesNotLand() {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L), person("c", "Cy", 3L));
    StagedWrite first = tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v), List.of("a"));
    StagedWrite second = tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v), List.of("b"));
    assertThat(tables.commit(first)).isEqualTo(CommitOutcome.landed(v + 1));

    CommitOutcome outcome = tables.commit(second);
    assertThat(outcome.kind()).isEqualTo(CommitOutcome.Kind.NOT_LANDED);
    assertThat(outcome.version()).isEqualTo(v + 1);
    assertThat(outcome.headMoved(v)).isTrue();
    assertThat(outcome.detail()).contains("moved head from " + v + " to " + (v + 1));
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v + 1);
    assertThat(rows(MAIN, v + 1)).extracting(r -> r.get("id")).containsExactly("b", "c");
  }

  /** Upsert vs upsert of the same row: a retryable conflict in Lance; the second does not land. */
  @Test
  void staleUpsertOfTheSameRowDoesNotLand() {
    long v1 = create();
    long v = insert(v1, person("c", "Cy", 3L));
    StagedWrite first = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("c", "C1", 1L)));
    StagedWrite second = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("c", "C2", 2L)));
    assertThat(tables.commit(first).isLanded()).isTrue();
    CommitOutcome outcome = tables.commit(second);
    assertThat(outcome.kind()).isEqualTo(CommitOutcome.Kind.NOT_LANDED);
    assertThat(outcome.headMoved(v)).isTrue();
    assertThat(rows(MAIN, v + 1)).isEqualTo(List.of(person("c", "C1", 1L)));
  }

  /**
   * Deletes and upserts are rebased too when the foreign commit touched other fragments: a stale
   * delete over a foreign insert lands at readVersion + 2. Only the gate's HEAD check fences it.
   */
  @Test
  void staleDeleteAndUpsertAreRebasedOverADisjointForeignInsert() {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L), person("b", "Bo", 2L));
    StagedWrite delete = tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v), List.of("a"));
    StagedWrite upsert = tables.staging().stageUpsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("n", "New", 1L)));
    insert(v, person("z", "Zed", 26L));

    CommitOutcome deleted = tables.commit(delete);
    assertThat(deleted.kind()).isEqualTo(CommitOutcome.Kind.REBASED);
    assertThat(deleted.version()).isEqualTo(v + 2);
    CommitOutcome upserted = tables.commit(upsert);
    assertThat(upserted.kind()).isEqualTo(CommitOutcome.Kind.REBASED);
    assertThat(upserted.version()).isEqualTo(v + 3);
    assertThat(rows(MAIN, v + 3)).extracting(r -> r.get("id")).containsExactly("b", "n", "z");
  }

  /**
   * Overwrite vs insert: a stale insert after a foreign Overwrite is incompatible (not landed); a
   * stale Overwrite after a foreign insert is rebased and silently drops the foreign rows.
   */
  @Test
  void overwriteAndInsertFromTheSameReadVersion() {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L));
    StagedWrite overwrite = tables.staging().stageOverwrite(TableAt.of(LOC, MAIN, v), schema, List.of(person("o", "O", 1L)));
    StagedWrite staleInsert = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("p", "P", 1L)), false);
    assertThat(tables.commit(overwrite)).isEqualTo(CommitOutcome.landed(v + 1));
    CommitOutcome incompatible = tables.commit(staleInsert);
    assertThat(incompatible.kind()).isEqualTo(CommitOutcome.Kind.NOT_LANDED);
    assertThat(incompatible.headMoved(v)).isTrue();

    long w = v + 1;
    StagedWrite staleOverwrite = tables.staging().stageOverwrite(TableAt.of(LOC, MAIN, w), schema, List.of(person("o2", "O2", 2L)));
    insert(w, person("lost", "L", 1L));
    CommitOutcome rebased = tables.commit(staleOverwrite);
    assertThat(rebased.kind()).isEqualTo(CommitOutcome.Kind.REBASED);
    assertThat(rebased.version()).isEqualTo(w + 2);
    assertThat(rows(MAIN, w + 2)).extracting(r -> r.get("id")).containsExactly("o2");
    // Unlike a rebased Update/Delete, a rebased Overwrite keeps its original recorded read version.
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, w + 2)).orElseThrow().readVersion()).isEqualTo(w);
  }

  @Test
  void aStagedWriteIsCommittedAtMostOnce() {
    long v1 = create();
    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(person("a", "Ann", 1L)), true);
    assertThat(tables.commit(staged).isLanded()).isTrue();
    assertThatThrownBy(() -> tables.commit(staged)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already committed");
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v1 + 1);
  }

  // --- classification from evidence when the commit call fails --------------------------------

  /**
   * The commit fails before any manifest is written (Lance writes the transaction file first, and
   * those writes fail): nothing landed and nothing moved, so the outcome is effect-free.
   */
  @Test
  void failedCommitWithUnchangedHeadIsNotLandedAndEffectFree() throws Exception {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L));
    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v), schema, List.of(person("b", "Bo", 2L)), true);
    CommitOutcome outcome;
    try (AutoCloseable fault = breakStorageUnder(config, LOC + "/_transactions")) {
      outcome = tables.commit(staged);
    }
    assertThat(outcome.kind()).isEqualTo(CommitOutcome.Kind.NOT_LANDED);
    assertThat(outcome.version()).isEqualTo(v);
    assertThat(outcome.headMoved(v)).isFalse();
    assertThat(outcome.detail()).contains("effect-free").contains("the commit call failed");
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v);
    assertThat(rows(MAIN, v)).extracting(r -> r.get("id")).containsExactly("a");
  }

  /** When even the re-read fails, the outcome is unknown and says so with a typed exception. */
  @Test
  void unreadableEvidenceIsAnUnknownOutcome() throws Exception {
    long v1 = create();
    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, List.of(person("a", "Ann", 1L)), false);
    try (AutoCloseable fault = breakStorageUnder(config, LOC)) {
      assertThatThrownBy(() -> tables.commit(staged))
          .isInstanceOfSatisfying(TableCommitUnknownException.class, e -> {
            assertThat(e.uuid()).isEqualTo(staged.uuid());
            assertThat(e.readVersion()).isEqualTo(v1);
            assertThat(e.location()).isEqualTo(LOC);
            assertThat(e.nativeBranch()).isEmpty();
            assertThat(e.getSuppressed()).hasSize(1); // the commit's own failure
          });
    }
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(v1);
  }

  // --- branches -------------------------------------------------------------------------------

  /**
   * First touch: the table's branch is created from main at the pinned version, the insert is
   * staged on the branch (its files under the branch tree) and committed there; main is untouched.
   */
  @Test
  void firstTouchBranchWriteLeavesMainUntouched() {
    long v1 = create();
    long v = insert(v1, person("a", "Ann", 1L));
    long mainHead = insert(v, person("later", "L", 9L)); // main moves on past the fork point
    Optional<String> branch = Optional.of("agent/one");
    assertThat(tables.branches().exists(TableRef.branch(LOC, "agent/one"))).isFalse();

    tables.branches().create(TableAt.of(LOC, MAIN, v), "agent/one");
    assertThat(tables.branches().exists(TableRef.branch(LOC, "agent/one"))).isTrue();
    assertThat(tables.head(TableRef.of(LOC, branch))).isEqualTo(v);
    assertThat(rows(branch, v)).extracting(r -> r.get("id")).containsExactly("a");

    StagedWrite staged = tables.staging().stageInsert(TableAt.of(LOC, branch, v), schema, List.of(person("b", "Bo", 2L)), true);
    assertThat(staged.nativeBranch()).isEqualTo(branch);
    assertThat(tables.commit(staged)).isEqualTo(CommitOutcome.landed(v + 1));
    assertThat(rows(branch, v + 1)).extracting(r -> r.get("id")).containsExactly("a", "b");
    assertThat(tables.transactionAt(TableAt.of(LOC, branch, v + 1)).orElseThrow().uuid()).isEqualTo(staged.uuid());
    assertThat(tables.insertCertificate().violations(TableAt.of(LOC, branch, v + 1))).isEmpty();

    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(mainHead);
    assertThat(rows(MAIN, mainHead)).extracting(r -> r.get("id")).containsExactly("a", "later");
    // Main's own version v + 1 is a different transaction: versions are numbered per branch.
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, v + 1)).orElseThrow().uuid()).isNotEqualTo(staged.uuid());

    // Branch-local deletes, and a branch forked from the branch.
    assertThat(tables.commit(tables.staging().stageDeleteIds(TableAt.of(LOC, branch, v + 1), List.of("a"))))
        .isEqualTo(CommitOutcome.landed(v + 2));
    tables.branches().create(TableAt.of(LOC, branch, v + 2), "agent/one-child");
    assertThat(rows(Optional.of("agent/one-child"), v + 2)).extracting(r -> r.get("id")).containsExactly("b");
    assertThat(tables.countRows(TableAt.of(LOC, MAIN, mainHead))).isEqualTo(2);

    tables.branches().delete(TableRef.branch(LOC, "agent/one-child"));
    tables.branches().delete(TableRef.branch(LOC, "agent/one"));
    assertThat(tables.branches().exists(TableRef.branch(LOC, "agent/one"))).isFalse();
    assertThat(tables.head(TableRef.of(LOC, MAIN))).isEqualTo(mainHead);
  }

  // --- reads at scale -------------------------------------------------------------------------

  /** rowsById chunks its exact-id probes; scan streams more rows than one batch holds. */
  @Test
  void exactIdProbesChunkAndScansStream() {
    long v1 = create();
    List<Map<String, Object>> many = new ArrayList<>();
    for (int i = 0; i < 9_000; i++) {
      many.add(person(String.format("id-%05d", i), "n" + i, (long) i));
    }
    long v = tables.commit(tables.staging().stageInsert(TableAt.of(LOC, MAIN, v1), schema, many, true)).version();
    List<String> probe = new ArrayList<>();
    for (int i = 0; i < 2_600; i++) {
      probe.add(String.format("id-%05d", i * 3)); // 2,600 ids across three chunks
    }
    probe.add("missing");
    List<Map<String, Object>> found = tables.rowsById(TableAt.of(LOC, MAIN, v), probe, List.of("id", "age"));
    assertThat(found).hasSize(2_600);
    assertThat(found).allSatisfy(r -> assertThat(r.get("id")).isEqualTo(String.format("id-%05d", (Long) r.get("age"))));

    long[] count = {0};
    long[] ageSum = {0};
    tables.scan(TableAt.of(LOC, MAIN, v), Filter.TRUE, List.of("age"), r -> {
      count[0]++;
      ageSum[0] += (Long) r.get("age");
    });
    assertThat(count[0]).isEqualTo(9_000);
    assertThat(ageSum[0]).isEqualTo(9_000L * 8_999 / 2);
    assertThat(tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v), probe).deletedRows()).isEqualTo(2_600);
  }

  /**
   * Schema apply's rewrite: an Overwrite under a new schema (a column added, one renamed, one
   * dropped) lands exactly at read version + 1 with our uuid; every row is carried over with the
   * renamed column's values and nulls in the new one; the previous version still reads under its
   * own schema (time travel). An empty table rewrites as a zero-fragment overwrite.
   */
  @Test
  void schemaRewriteCarriesRowsAndKeepsThePreviousVersionReadable() {
    long v1 = create();
    long v2 = insert(v1, person("a", "Ada", 36L), person("b", "Bob", null));
    Schema next = new Schema(List.of(TableFixtures.idField(),
        TableSchemas.field("full_name", dev.omnigraph.schema.PropertyType.scalar(dev.omnigraph.schema.ScalarKind.STRING, true)),
        TableSchemas.field("city", dev.omnigraph.schema.PropertyType.scalar(dev.omnigraph.schema.ScalarKind.STRING, true))));
    String uuid = java.util.UUID.randomUUID().toString();
    StagedWrite staged = tables.staging().stageSchemaRewrite(TableRef.main(LOC).at(v2), next, Map.of("id", "id", "full_name", "name"), uuid);
    assertThat(staged.insertedRows()).isEqualTo(2);
    CommitOutcome outcome = tables.commit(staged);
    assertThat(outcome.kind()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(outcome.version()).isEqualTo(v2 + 1);
    assertThat(tables.transactionAt(TableAt.of(LOC, MAIN, v2 + 1)).orElseThrow().uuid()).isEqualTo(uuid);
    List<Map<String, Object>> now = new ArrayList<>();
    tables.scan(TableAt.of(LOC, MAIN, v2 + 1), Filter.TRUE, List.of(), now::add);
    now.sort(java.util.Comparator.comparing(r -> (String) r.get("id")));
    assertThat(now).hasSize(2);
    assertThat(now.get(0)).containsEntry("id", "a").containsEntry("full_name", "Ada").containsEntry("city", null)
        .doesNotContainKey("age").doesNotContainKey("name");
    assertThat(now.get(1)).containsEntry("full_name", "Bob");
    List<Map<String, Object>> before = new ArrayList<>();
    tables.scan(TableAt.of(LOC, MAIN, v2), Filter.TRUE, List.of(), before::add);
    assertThat(before).hasSize(2).allSatisfy(r -> assertThat(r).containsKeys("name", "age").doesNotContainKey("city"));

    // empty table: a zero-fragment overwrite, still a real version
    Schema wider = new Schema(List.of(TableFixtures.idField(),
        TableSchemas.field("full_name", dev.omnigraph.schema.PropertyType.scalar(dev.omnigraph.schema.ScalarKind.STRING, true))));
    long v3 = tables.commit(tables.staging().stageDeleteIds(TableAt.of(LOC, MAIN, v2 + 1), List.of("a", "b"))).version();
    CommitOutcome empty = tables.commit(tables.staging().stageSchemaRewrite(TableRef.main(LOC).at(v3), wider, Map.of("id", "id", "full_name",
        "full_name"), java.util.UUID.randomUUID().toString()));
    assertThat(empty.version()).isEqualTo(v3 + 1);
    assertThat(tables.countRows(TableAt.of(LOC, MAIN, v3 + 1))).isZero();
  }

  /**
   * The exact version-one create: lands at version 1 with our uuid where nothing exists; a second
   * create at the same path does not land and leaves the first untouched; only our own create is
   * removed by {@link TableVersions#dropOwnCreate}.
   */
  @Test
  void versionOneCreateIsStrictAndOnlyOurOwnIsDropped() {
    String at = "nodes/00000000000000aa-0000000000000001";
    assertThat(tables.datasetExists(at)).isFalse();
    String uuid = java.util.UUID.randomUUID().toString();
    CommitOutcome created = tables.commit(tables.staging().stageCreate(at, schema, uuid));
    assertThat(created.kind()).isEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(created.version()).isEqualTo(1);
    assertThat(tables.datasetExists(at)).isTrue();
    assertThat(tables.head(TableRef.of(at, MAIN))).isEqualTo(1);
    assertThat(tables.transactionAt(TableAt.of(at, MAIN, 1)).orElseThrow().uuid()).isEqualTo(uuid);
    assertThat(tables.countRows(TableAt.of(at, MAIN, 1))).isZero();
    // rows can be written into it like into any table
    long v2 = tables.commit(tables.staging().stageInsert(TableAt.of(at, MAIN, 1), schema, List.of(person("x", "X", 1L)), true)).version();
    assertThat(v2).isEqualTo(2);

    CommitOutcome again = tables.commit(tables.staging().stageCreate(at, schema, java.util.UUID.randomUUID().toString()));
    assertThat(again.kind()).isNotEqualTo(CommitOutcome.Kind.LANDED);
    assertThat(tables.head(TableRef.of(at, MAIN))).isEqualTo(2);
    assertThat(tables.versions().dropOwnCreate(at, uuid)).as("not only ours any more: a later version exists").isFalse();
    assertThat(tables.datasetExists(at)).isTrue();

    String other = "nodes/00000000000000bb-0000000000000001";
    String mine = java.util.UUID.randomUUID().toString();
    tables.commit(tables.staging().stageCreate(other, schema, mine));
    assertThat(tables.versions().dropOwnCreate(other, java.util.UUID.randomUUID().toString())).isFalse();
    assertThat(tables.versions().dropOwnCreate(other, mine)).isTrue();
    assertThat(tables.datasetExists(other)).isFalse();
  }
}
