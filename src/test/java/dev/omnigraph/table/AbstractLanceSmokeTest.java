package dev.omnigraph.table;

import dev.omnigraph.api.storage.LanceProbeReport;
import dev.omnigraph.api.storage.LanceProbeCheck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.BlobFile;
import org.lance.Branch;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Ref;
import org.lance.Transaction;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Update;
import org.lance.schema.LanceField;

/**
 * The Lance behaviours the write path is built on, run through {@link StorageConfig} against real
 * Lance on every backend: stable row ids, the primary-key annotation, staging without a commit, an
 * insertion-only {@code Update} committed with a pre-minted uuid and zero retries and confirmed
 * through {@code readTransaction()}, sync and async scans, and branch creation. Subclasses only name
 * a fresh, empty root.
 */
abstract class AbstractLanceSmokeTest {

  /** A fresh, empty graph root on the backend under test. */
  abstract StorageConfig newRoot();

  private static final String KEY = "nodes/0000000000000001-0000000000000001";

  private StorageConfig config;
  private BufferAllocator allocator;

  @BeforeEach
  void openRoot() {
    config = newRoot();
    allocator = new RootAllocator(Long.MAX_VALUE);
  }

  @AfterEach
  void closeAllocator() {
    // Fails the test if any Arrow buffer leaked: every handle must have been closed by now.
    allocator.close();
  }

  @Test
  void createsDatasetWithStableRowIdsAndPrimaryKey() {
    try (Dataset ds = LanceSupport.createEmpty(config, KEY, LanceProbe.schema(), allocator)) {
      assertThat(ds.hasStableRowIds()).isTrue();
      assertThat(ds.version()).isEqualTo(1L);
      assertThat(ds.countRows()).isZero();

      List<LanceField> fields = ds.getLanceSchema().fields();
      assertThat(fields).extracting(LanceField::getName).containsExactly("id", "n");
      assertThat(fields.get(0).isUnenforcedPrimaryKey()).isTrue();
      assertThat(fields.get(0).isNullable()).isFalse();
      assertThat(fields.get(1).isUnenforcedPrimaryKey()).isFalse();
      assertThat(LanceSupport.primaryKey(ds)).extracting(LanceField::getName).containsExactly("id");
    }
    // The settings are durable, not a property of the creating handle.
    try (Dataset reopened = LanceSupport.open(config, KEY, allocator)) {
      assertThat(reopened.hasStableRowIds()).isTrue();
      assertThat(LanceSupport.primaryKey(reopened)).extracting(LanceField::getName).containsExactly("id");
    }
  }

  @Test
  void insertOnlyUpdateCommitsExactlyOurTransaction() throws Exception {
    String uuid = UUID.randomUUID().toString();
    Map<String, String> properties = Map.of("omnigraph.insert_absence", "v1", "omnigraph.op", "test");
    long readVersion;
    long[] fieldIds;
    try (Dataset base = LanceSupport.createEmpty(config, KEY, LanceProbe.schema(), allocator)) {
      readVersion = base.version();
      fieldIds = LanceSupport.fieldIdsPreorder(base.getLanceSchema());
      assertThat(fieldIds).containsExactly(0L, 1L);

      List<FragmentMetadata> staged = stage(base, "a", "b", "c");
      assertThat(staged).isNotEmpty();
      assertThat(staged.stream().mapToLong(FragmentMetadata::getPhysicalRows).sum()).isEqualTo(3);

      // Staging writes data files only: HEAD, as any other reader sees it, has not moved.
      try (Dataset fresh = LanceSupport.open(config, KEY, allocator)) {
        assertThat(fresh.version()).isEqualTo(readVersion);
        assertThat(fresh.countRows()).isZero();
      }
      assertThat(base.latestVersion()).isEqualTo(readVersion);

      try (Dataset committed = LanceSupport.commit(
          base, LanceSupport.insertOnlyUpdate(staged, base.getLanceSchema()), uuid, properties)) {
        assertThat(committed.version()).isEqualTo(readVersion + 1);
      }
    }

    try (Dataset head = LanceSupport.open(config, KEY, allocator)) {
      assertThat(head.version()).isEqualTo(readVersion + 1);
      try (Transaction tx = LanceSupport.readTransaction(head).orElseThrow()) {
        assertThat(tx.uuid()).isEqualTo(uuid);
        assertThat(tx.readVersion()).isEqualTo(readVersion);
        assertThat(tx.transactionProperties()).contains(properties);
        assertThat(tx.operation()).isInstanceOf(Update.class);
        Update update = (Update) tx.operation();
        assertThat(update.updateMode()).contains(Update.UpdateMode.RewriteRows);
        assertThat(update.removedFragmentIds()).isEmpty();
        assertThat(update.updatedFragments()).isEmpty();
        assertThat(update.fieldsModified()).isEmpty();
        assertThat(update.fieldsForPreservingFragBitmap()).containsExactly(fieldIds);
        assertThat(update.newFragments().stream().mapToLong(FragmentMetadata::getPhysicalRows).sum())
            .isEqualTo(3);
      }

      List<Map<String, Object>> expected = List.of(
          Map.of("id", "a", "n", 1L), Map.of("id", "b", "n", 2L), Map.of("id", "c", "n", 3L));
      assertThat(sortById(LanceSupport.scan(head, new ScanOptions.Builder().build(), allocator)))
          .isEqualTo(expected);
      assertThat(sortById(LanceSupport.scanAsync(head, new ScanOptions.Builder().build(), allocator)))
          .isEqualTo(expected);
      assertThat(LanceSupport.scanAsync(
              head, new ScanOptions.Builder().filter("id = 'b'").columns(List.of("id")).build(), allocator))
          .containsExactly(Map.of("id", "b"));
    }
  }

  @Test
  void branchCreationAndBranchCommitLeaveMainUntouched() throws Exception {
    long mainVersion;
    try (Dataset base = LanceSupport.createEmpty(config, KEY, LanceProbe.schema(), allocator);
        Dataset main = commitRows(base, "a", "b")) {
      mainVersion = main.version();

      try (Dataset branch = LanceSupport.createBranch(config, main, "agent/one", mainVersion)) {
        assertThat(branch.version()).isEqualTo(mainVersion);
        assertThat(branch.uri()).endsWith("/tree/agent/one");
        assertThat(branch.countRows()).isEqualTo(2);

        // A commit on the branch lands there only.
        try (Dataset branchHead = commitRows(branch, "x")) {
          assertThat(branchHead.version()).isEqualTo(mainVersion + 1);
          assertThat(branchHead.countRows()).isEqualTo(3);
        }
      }
    }

    try (Dataset main = LanceSupport.open(config, KEY, allocator)) {
      assertThat(main.version()).isEqualTo(mainVersion);
      assertThat(main.countRows()).isEqualTo(2);
      List<Branch> branches = LanceSupport.listBranches(main);
      assertThat(branches).extracting(Branch::getName).containsExactly("agent/one");
      assertThat(branches.get(0).getParentVersion()).isEqualTo(mainVersion);

      try (Dataset branch = main.checkout(Ref.ofBranch("agent/one"))) {
        assertThat(branch.version()).isEqualTo(mainVersion + 1);
        assertThat(sortById(LanceSupport.scanAsync(branch, new ScanOptions.Builder().build(), allocator)))
            .extracting(r -> r.get("id"))
            .containsExactly("a", "b", "x");
      }
    }
  }

  @Test
  void probePassesEveryCheck() {
    LanceProbeReport report = LanceProbe.run(config, "__doctor/" + UUID.randomUUID());

    assertThat(report.checks()).extracting(LanceProbeCheck::name).containsExactlyElementsOf(LanceProbe.CHECKS);
    assertThat(report.checks())
        .allSatisfy(c -> assertThat(c.passed()).as(c.name() + ": " + c.detail()).isTrue());
    assertThat(report.passed()).isTrue();
  }

  @Test
  void probeReportsAFailureInsteadOfThrowing() {
    String key = "__doctor/" + UUID.randomUUID();
    LanceProbe.run(config, key);

    // The second run finds the first run's dataset: creation must fail and nothing after it runs.
    LanceProbeReport again = LanceProbe.run(config, key);
    assertThat(again.passed()).isFalse();
    assertThat(again.checks().get(0).name()).isEqualTo("create-dataset");
    assertThat(again.checks().get(0).passed()).isFalse();
    assertThat(again.checks().subList(1, again.checks().size()))
        .allSatisfy(c -> assertThat(c.detail()).isEqualTo("not run: create-dataset failed"));
  }

  /** A key column and a Blob column: {@code LargeBinary} with Lance's blob encoding. */
  static Schema blobSchema() {
    Field id = new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
        Map.of(LanceSupport.PRIMARY_KEY_METADATA, "true")), List.of());
    Field body = new Field("body", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), List.of());
    return new Schema(List.of(id, body));
  }

  /**
   * What lance-java 7.0.0 writes and reads back for a blob column (docs/lance-write-layer.md, "Blob
   * columns"): the scan answers descriptions, takeBlobs answers lazy ranged files.
   */
  @Test
  void blobColumnScansAsDescriptionsAndReadsRangesThroughTakeBlobs() throws Exception {
    byte[] big = new byte[3 * 1024 * 1024 + 17];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31 + 7);
    }
    byte[] small = "hello blob".getBytes(StandardCharsets.UTF_8);
    try (Dataset base = LanceSupport.createEmpty(config, KEY, blobSchema(), allocator)) {
      List<FragmentMetadata> staged;
      try (VectorSchemaRoot rows = VectorSchemaRoot.create(blobSchema(), allocator)) {
        VarCharVector id = (VarCharVector) rows.getVector("id");
        LargeVarBinaryVector body = (LargeVarBinaryVector) rows.getVector("body");
        id.setSafe(0, "a".getBytes(StandardCharsets.UTF_8));
        body.setSafe(0, big);
        id.setSafe(1, "b".getBytes(StandardCharsets.UTF_8));
        body.setSafe(1, small);
        id.setSafe(2, "c".getBytes(StandardCharsets.UTF_8));
        body.setNull(2);
        rows.setRowCount(3);
        staged = LanceSupport.stage(config, base, rows, allocator);
      }
      try (Dataset head = LanceSupport.commit(base, LanceSupport.insertOnlyUpdate(staged,
          base.getLanceSchema()), UUID.randomUUID().toString(), Map.of())) {
        // The dataset's schema keeps the logical type; the scanner never materialises the bytes:
        // it answers Lance's descriptions struct (position, size), and a null cell stays null.
        assertThat(head.getSchema().findField("body").getType()).isEqualTo(ArrowType.LargeBinary.INSTANCE);
        List<Long> rowIds = new ArrayList<>();
        List<String> descriptions = new ArrayList<>();
        try (LanceScanner scanner = LanceScanner.create(head, new ScanOptions.Builder()
                .columns(List.of("id", "body")).withRowId(true).build(), allocator);
            ArrowReader reader = scanner.scanBatches()) {
          while (reader.loadNextBatch()) {
            VectorSchemaRoot batch = reader.getVectorSchemaRoot();
            StructVector body = (StructVector) batch.getVector("body");
            assertThat(body.getField().getChildren()).extracting(Field::getName)
                .containsExactly("position", "size");
            for (int r = 0; r < batch.getRowCount(); r++) {
              rowIds.add(((Number) batch.getVector("_rowid").getObject(r)).longValue());
              descriptions.add(body.isNull(r) ? "null"
                  : "size=" + body.getChild("size").getObject(r));
            }
          }
        }
        assertThat(descriptions).containsExactly("size=" + big.length, "size=" + small.length, "null");

        // takeBlobs(row ids) answers one lazy BlobFile per row (a null cell reads as size 0),
        // with ranged reads that fetch only the bytes asked for.
        List<BlobFile> files = head.takeBlobs(rowIds, "body");
        try {
          assertThat(files).extracting(BlobFile::size).containsExactly((long) big.length, (long) small.length, 0L);
          assertThat(files.get(0).readRange(1024 * 1024, 100))
              .isEqualTo(Arrays.copyOfRange(big, 1024 * 1024, 1024 * 1024 + 100));
          assertThat(files.get(0).readRange(big.length - 5, 5))
              .isEqualTo(Arrays.copyOfRange(big, big.length - 5, big.length));
          assertThat(files.get(1).read()).isEqualTo(small);
        } finally {
          for (BlobFile f : files) {
            f.close();
          }
        }

        // On a branch, a forked fragment's file stays in main's data folder and is marked with a
        // base id. Scans follow the mark, takeBlobs does not: it looks in the branch's own folder.
        // BlobHomes takes such payloads through main's version (docs/lance-write-layer.md). When
        // this pin breaks, Lance has fixed it and BlobHomes can go.
        try (Dataset branch = LanceSupport.createBranch(config, head, "blobs", head.version())) {
          assertThat(branch.getFragments()).allSatisfy(f -> assertThat(f.metadata().getFiles())
              .allSatisfy(file -> assertThat(file.getBaseId()).isPresent()));
          assertThat(head.getFragments()).allSatisfy(f -> assertThat(f.metadata().getFiles())
              .allSatisfy(file -> assertThat(file.getBaseId()).isEmpty()));
          List<BlobFile> forked = branch.takeBlobs(rowIds.subList(1, 2), "body");
          try {
            assertThatThrownBy(() -> forked.get(0).read()).isInstanceOf(java.io.IOException.class);
          } finally {
            for (BlobFile f : forked) {
              f.close();
            }
          }
        }
      }
    }
  }

  private List<FragmentMetadata> stage(Dataset target, String... ids) {
    try (VectorSchemaRoot rows = rows(ids)) {
      return LanceSupport.stage(config, target, rows, allocator);
    }
  }

  private Dataset commitRows(Dataset base, String... ids) {
    List<FragmentMetadata> staged = stage(base, ids);
    return LanceSupport.commit(
        base,
        LanceSupport.insertOnlyUpdate(staged, base.getLanceSchema()),
        UUID.randomUUID().toString(),
        Map.of());
  }

  private VectorSchemaRoot rows(String... ids) {
    VectorSchemaRoot root = VectorSchemaRoot.create(LanceProbe.schema(), allocator);
    VarCharVector id = (VarCharVector) root.getVector("id");
    BigIntVector n = (BigIntVector) root.getVector("n");
    for (int i = 0; i < ids.length; i++) {
      id.setSafe(i, ids[i].getBytes(StandardCharsets.UTF_8));
      n.setSafe(i, i + 1L);
    }
    root.setRowCount(ids.length);
    return root;
  }

  private static List<Map<String, Object>> sortById(List<Map<String, Object>> rows) {
    return rows.stream().sorted(Comparator.comparing(r -> String.valueOf(r.get("id")))).toList();
  }
}
