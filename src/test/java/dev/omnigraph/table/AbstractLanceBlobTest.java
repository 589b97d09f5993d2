package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.storage.StorageConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * What lance-java 7.0.0 writes and reads back for a blob column (docs/lance-write-layer.md, "Blob columns"), on every
 * backend: a {@code LargeBinary} field marked with the field metadata {@code lance-encoding:blob} =
 * {@code true} in a dataset of the default data storage version. Subclasses only name a fresh root.
 */
abstract class AbstractLanceBlobTest {

  abstract StorageConfig newRoot();

  private static final String KEY = "nodes/00000000000000b1-0000000000000001";

  private StorageConfig config;
  private BufferAllocator allocator;

  @BeforeEach
  void openRoot() {
    config = newRoot();
    allocator = new RootAllocator(Long.MAX_VALUE);
  }

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  static Schema schema() {
    Field id = new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
        Map.of(LanceSupport.PRIMARY_KEY_METADATA, "true")), List.of());
    Field body = new Field("body", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), List.of());
    return new Schema(List.of(id, body));
  }

  @Test
  void blobColumnScansAsDescriptionsAndReadsRangesThroughTakeBlobs() throws Exception {
    byte[] big = new byte[3 * 1024 * 1024 + 17];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 31 + 7);
    }
    byte[] small = "hello blob".getBytes(StandardCharsets.UTF_8);
    try (Dataset base = LanceSupport.createEmpty(config, KEY, schema(), allocator)) {
      List<FragmentMetadata> staged;
      try (VectorSchemaRoot rows = VectorSchemaRoot.create(schema(), allocator)) {
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
      }
    }
  }
}
