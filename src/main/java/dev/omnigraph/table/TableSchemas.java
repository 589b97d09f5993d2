package dev.omnigraph.table;

import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema of each graph dataset, derived from the catalog: nodes carry a non-null
 * {@code id} (Lance's unenforced primary key) and their properties; edges carry {@code id},
 * {@code src}, {@code dst} and theirs. Properties follow in catalog (name) order.
 */
public final class TableSchemas {

  /** Arrow field metadata that makes a column Lance's unenforced primary key. */
  public static final String PRIMARY_KEY = "lance-schema:unenforced-primary-key";

  private TableSchemas() {}

  public static Schema node(NodeType type) {
    List<Field> fields = new ArrayList<>();
    fields.add(idField());
    properties(fields, type.properties());
    return new Schema(fields);
  }

  public static Schema edge(EdgeType type) {
    List<Field> fields = new ArrayList<>();
    fields.add(idField());
    fields.add(new Field("src", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
    fields.add(new Field("dst", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
    properties(fields, type.properties());
    return new Schema(fields);
  }

  /**
   * Each property's field, and after a Blob property its URI companion
   * ({@link #blobUriColumn}): an external cell stores its URI there and no bytes, because the blob
   * encoding our tables use holds bytes only (docs/lance-write-layer.md, "Blob columns").
   */
  private static void properties(List<Field> fields, List<Property> properties) {
    for (Property p : properties) {
      fields.add(field(p.name(), p.type()));
      if (p.type().isBlob()) {
        fields.add(new Field(blobUriColumn(p.name()), FieldType.nullable(ArrowType.Utf8.INSTANCE), null));
      }
    }
  }

  /**
   * The prefix of a Blob property's URI companion column; property names starting with it are
   * reserved (the schema checker refuses them), so a companion never meets a property.
   */
  public static final String BLOB_URI_PREFIX = dev.omnigraph.schema.BlobValue.URI_COLUMN_PREFIX;

  /** The URI companion column of Blob property {@code property}. */
  public static String blobUriColumn(String property) {
    return BLOB_URI_PREFIX + property;
  }

  private static Field idField() {
    return new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of(PRIMARY_KEY, "true")), null);
  }

  /** Lance's field-metadata key that stores a {@code LargeBinary} column with the blob encoding. */
  static final String BLOB_ENCODING = "lance-encoding:blob";

  static Field field(String name, PropertyType type) {
    Field element = element(type.list() ? "item" : name, type, type.list() ? false : type.nullable());
    if (!type.list()) {
      return element;
    }
    return new Field(name, new FieldType(type.nullable(), ArrowType.List.INSTANCE, null), List.of(element));
  }

  private static Field element(String name, PropertyType type, boolean nullable) {
    ArrowType arrow = switch (type.kind()) {
      case STRING, ENUM -> ArrowType.Utf8.INSTANCE;
      case BOOL -> ArrowType.Bool.INSTANCE;
      case I32 -> new ArrowType.Int(32, true);
      case I64 -> new ArrowType.Int(64, true);
      case U32 -> new ArrowType.Int(32, false);
      case U64 -> new ArrowType.Int(64, false);
      case F32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case F64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case DATETIME -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC");
      case VECTOR -> new ArrowType.FixedSizeList(type.vectorDim());
      case BLOB -> ArrowType.LargeBinary.INSTANCE;
    };
    if (type.isBlob()) {
      // Lance's blob encoding: the bytes go out of line and a scan answers (position, size)
      // descriptions, so a row never carries its payload (docs/lance-write-layer.md, "Blob columns").
      return new Field(name, new FieldType(nullable, arrow, null, Map.of(BLOB_ENCODING, "true")), null);
    }
    if (type.kind() == dev.omnigraph.schema.ScalarKind.VECTOR) {
      Field f32 = new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
      return new Field(name, new FieldType(nullable, arrow, null), List.of(f32));
    }
    return new Field(name, new FieldType(nullable, arrow, null), null);
  }
}
