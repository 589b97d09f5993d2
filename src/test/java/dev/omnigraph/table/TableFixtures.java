package dev.omnigraph.table;

import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Schemas and rows shared by the data-table tests, built with the production field mapping. */
final class TableFixtures {

  private TableFixtures() {}

  static Field idField() {
    return new Field("id",
        new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of(TableSchemas.PRIMARY_KEY, "true")), null);
  }

  /** {@code id}, {@code name: String?}, {@code age: I64?}. */
  static Schema person() {
    return new Schema(List.of(
        idField(),
        TableSchemas.field("name", PropertyType.scalar(ScalarKind.STRING, true)),
        TableSchemas.field("age", PropertyType.scalar(ScalarKind.I64, true))));
  }

  static Map<String, Object> person(String id, String name, Long age) {
    Map<String, Object> row = new HashMap<>();
    row.put("id", id);
    row.put("name", name);
    row.put("age", age);
    return row;
  }

  /** Every column type {@link TableSchemas} produces, all nullable but {@code id}. */
  static Schema allTypes() {
    return new Schema(List.of(
        idField(),
        TableSchemas.field("s", PropertyType.scalar(ScalarKind.STRING, true)),
        TableSchemas.field("b", PropertyType.scalar(ScalarKind.BOOL, true)),
        TableSchemas.field("i32", PropertyType.scalar(ScalarKind.I32, true)),
        TableSchemas.field("i64", PropertyType.scalar(ScalarKind.I64, true)),
        TableSchemas.field("u32", PropertyType.scalar(ScalarKind.U32, true)),
        TableSchemas.field("u64", PropertyType.scalar(ScalarKind.U64, true)),
        TableSchemas.field("f32", PropertyType.scalar(ScalarKind.F32, true)),
        TableSchemas.field("f64", PropertyType.scalar(ScalarKind.F64, true)),
        TableSchemas.field("d", PropertyType.scalar(ScalarKind.DATE, true)),
        TableSchemas.field("ts", PropertyType.scalar(ScalarKind.DATETIME, true)),
        TableSchemas.field("vec", new PropertyType(ScalarKind.VECTOR, false, true, List.of(), 3)),
        TableSchemas.field("tags", new PropertyType(ScalarKind.STRING, true, true, List.of(), 0)),
        TableSchemas.field("nums", new PropertyType(ScalarKind.I64, true, true, List.of(), 0))));
  }

  /** {@code row} with every {@code float[]} replaced by a {@code List<Float>}, so maps compare by value. */
  static Map<String, Object> comparable(Map<String, Object> row) {
    Map<String, Object> out = new HashMap<>();
    row.forEach((k, v) -> {
      if (v instanceof float[] floats) {
        List<Float> list = new ArrayList<>();
        for (float f : floats) {
          list.add(f);
        }
        out.put(k, list);
      } else {
        out.put(k, v);
      }
    });
    return out;
  }

  static List<Map<String, Object>> comparable(List<Map<String, Object>> rows) {
    return sorted(rows).stream().map(TableFixtures::comparable).toList();
  }

  /** Rows sorted by id, for order-insensitive comparison. */
  static List<Map<String, Object>> sorted(List<Map<String, Object>> rows) {
    List<Map<String, Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(r -> (String) r.get("id")));
    return copy;
  }
}
