package dev.omnigraph.manifest;

import dev.omnigraph.Versions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The Arrow shape of {@code __manifest} and the codec between its batches and {@link ManifestRow}s. */
final class ManifestColumns {

  /** Schema metadata key of the storage-format stamp, which a reader checks before it trusts the rows. */
  static final String STAMP_KEY = "omnigraph:internal_schema_version";

  /** Arrow field metadata that makes {@code object_id} Lance's unenforced primary key. */
  static final String PRIMARY_KEY = "lance-schema:unenforced-primary-key";

  static final String OBJECT_ID = "object_id";
  static final String OBJECT_TYPE = "object_type";
  static final String LOCATION = "location";
  static final String METADATA = "metadata";
  static final String BASE_OBJECTS = "base_objects";
  static final String TABLE_KEY = "table_key";
  static final String STABLE_TABLE_ID = "stable_table_id";
  static final String TABLE_INCARNATION_ID = "table_incarnation_id";
  static final String TABLE_VERSION = "table_version";
  static final String TABLE_BRANCH = "table_branch";
  static final String ROW_COUNT = "row_count";

  private ManifestColumns() {}

  /** The schema a new graph's {@code __manifest} is created with, stamped at {@code stamp}. */
  static Schema schema(int stamp) {
    List<Field> fields = List.of(
        new Field(OBJECT_ID, new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of(PRIMARY_KEY, "true")), null),
        utf8(OBJECT_TYPE, false),
        utf8(LOCATION, true),
        utf8(METADATA, true),
        utf8(BASE_OBJECTS, true),
        utf8(TABLE_KEY, true),
        int64(STABLE_TABLE_ID),
        int64(TABLE_INCARNATION_ID),
        int64(TABLE_VERSION),
        utf8(TABLE_BRANCH, true),
        int64(ROW_COUNT));
    return new Schema(fields, Map.of(STAMP_KEY, Integer.toString(stamp)));
  }

  /** The schema at the version this binary serves. */
  static Schema schema() {
    return schema(Versions.INTERNAL_SCHEMA_VERSION);
  }

  /** The data columns only (no schema metadata), as a write batch must carry them. */
  static Schema batchSchema() {
    return new Schema(schema().getFields());
  }

  /** Encodes rows into a new root the caller owns and closes. */
  static VectorSchemaRoot encode(List<ManifestRow> rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(batchSchema(), allocator);
    try {
      root.allocateNew();
      for (int i = 0; i < rows.size(); i++) {
        ManifestRow r = rows.get(i);
        setString(root, OBJECT_ID, i, r.objectId());
        setString(root, OBJECT_TYPE, i, r.objectType());
        setString(root, LOCATION, i, r.location());
        setString(root, METADATA, i, r.metadata());
        setString(root, BASE_OBJECTS, i, r.baseObjects());
        setString(root, TABLE_KEY, i, r.tableKey());
        setLong(root, STABLE_TABLE_ID, i, r.stableTableId());
        setLong(root, TABLE_INCARNATION_ID, i, r.tableIncarnationId());
        setLong(root, TABLE_VERSION, i, r.tableVersion());
        setString(root, TABLE_BRANCH, i, r.tableBranch());
        setLong(root, ROW_COUNT, i, r.rowCount());
      }
      root.setRowCount(rows.size());
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /** Rows decoded in this process: what the manifest's cost test (docs/write-path.md, "The history-flat manifest") gates decode work by (wall time is too noisy). */
  static final java.util.concurrent.atomic.LongAdder DECODED = new java.util.concurrent.atomic.LongAdder();

  /** Decodes every row of one batch. */
  static List<ManifestRow> decode(VectorSchemaRoot batch) {
    DECODED.add(batch.getRowCount());
    List<ManifestRow> rows = new ArrayList<>(batch.getRowCount());
    VarCharVector objectId = (VarCharVector) batch.getVector(OBJECT_ID);
    VarCharVector objectType = (VarCharVector) batch.getVector(OBJECT_TYPE);
    for (int i = 0; i < batch.getRowCount(); i++) {
      rows.add(new ManifestRow(
          str(objectId, i),
          str(objectType, i),
          str(batch.getVector(LOCATION), i),
          str(batch.getVector(METADATA), i),
          str(batch.getVector(BASE_OBJECTS), i),
          str(batch.getVector(TABLE_KEY), i),
          lng(batch.getVector(STABLE_TABLE_ID), i),
          lng(batch.getVector(TABLE_INCARNATION_ID), i),
          lng(batch.getVector(TABLE_VERSION), i),
          str(batch.getVector(TABLE_BRANCH), i),
          lng(batch.getVector(ROW_COUNT), i)));
    }
    return rows;
  }

  private static Field utf8(String name, boolean nullable) {
    return new Field(name, new FieldType(nullable, ArrowType.Utf8.INSTANCE, null), null);
  }

  private static Field int64(String name) {
    return new Field(name, new FieldType(true, new ArrowType.Int(64, true), null), null);
  }

  private static void setString(VectorSchemaRoot root, String column, int i, String value) {
    VarCharVector v = (VarCharVector) root.getVector(column);
    if (value == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void setLong(VectorSchemaRoot root, String column, int i, Long value) {
    BigIntVector v = (BigIntVector) root.getVector(column);
    if (value == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, value);
    }
  }

  private static String str(FieldVector v, int i) {
    if (v == null || v.isNull(i)) {
      return null;
    }
    return new String(((VarCharVector) v).get(i), StandardCharsets.UTF_8);
  }

  private static Long lng(FieldVector v, int i) {
    if (v == null || v.isNull(i)) {
      return null;
    }
    return ((BigIntVector) v).get(i);
  }
}
