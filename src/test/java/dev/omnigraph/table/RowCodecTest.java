package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link RowCodec} in memory; the round-trip through Lance is in {@link AbstractDataTablesTest}. */
class RowCodecTest {

  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close(); // fails on a leaked buffer, including from a rejected encode
  }

  /** One row with every type at an edge, one with every nullable column null, one ordinary row. */
  static List<Map<String, Object>> everyTypeRows() {
    Map<String, Object> edge = new HashMap<>();
    edge.put("id", "edge");
    edge.put("s", "ünï€😀 'q' \\ \n");
    edge.put("b", false);
    edge.put("i32", Integer.MIN_VALUE);
    edge.put("i64", Long.MIN_VALUE);
    edge.put("u32", 4_294_967_295L);
    edge.put("u64", -1L); // 2^64 - 1 as unsigned bits
    edge.put("f32", -0.0f);
    edge.put("f64", Double.NaN);
    edge.put("d", LocalDate.of(-4000, 2, 29));
    edge.put("ts", Instant.parse("1969-12-31T23:59:59.999Z"));
    edge.put("vec", new float[] {Float.MIN_VALUE, -1.5f, Float.MAX_VALUE});
    edge.put("tags", List.of());
    edge.put("nums", List.of(Long.MAX_VALUE, 0L, Long.MIN_VALUE));

    Map<String, Object> nulls = new HashMap<>();
    nulls.put("id", "nulls"); // every other column absent: absent means null

    Map<String, Object> plain = new HashMap<>();
    plain.put("id", "plain");
    plain.put("s", "");
    plain.put("b", true);
    plain.put("i32", 42);
    plain.put("i64", 1L << 40);
    plain.put("u32", 0L);
    plain.put("u64", Long.MIN_VALUE); // exactly 2^63 unsigned
    plain.put("f32", 0.1f);
    plain.put("f64", 1e300);
    plain.put("d", LocalDate.of(2024, 2, 29));
    plain.put("ts", Instant.parse("2262-04-11T23:47:16.854Z"));
    plain.put("vec", new float[] {1f, 2f, 3f});
    plain.put("tags", List.of("x", "", "ünï"));
    plain.put("nums", List.of(7L));
    return List.of(edge, nulls, plain);
  }

  @Test
  void roundTripsEveryTypeIncludingNullsListsVectorsAndUnsigned() {
    Schema schema = TableFixtures.allTypes();
    List<Map<String, Object>> rows = everyTypeRows();
    try (VectorSchemaRoot root = RowCodec.encode(schema, rows, allocator)) {
      assertThat(root.getRowCount()).isEqualTo(3);
      List<Map<String, Object>> decoded = new ArrayList<>();
      for (int i = 0; i < root.getRowCount(); i++) {
        Map<String, Object> row = RowCodec.decode(root, i);
        assertThat(row.keySet()).containsExactlyElementsOf(
            schema.getFields().stream().map(f -> f.getName()).toList());
        decoded.add(row);
      }
      assertThat(decoded.get(1).entrySet()).allSatisfy(e -> {
        if (!e.getKey().equals("id")) {
          assertThat(e.getValue()).as(e.getKey()).isNull();
        }
      });
      assertThat(TableFixtures.comparable(decoded)).isEqualTo(TableFixtures.comparable(withNulls(schema, rows)));
      // The unsigned bits survive as such.
      assertThat(Long.toUnsignedString((Long) decoded.get(0).get("u64"))).isEqualTo("18446744073709551615");
      assertThat(decoded.get(0).get("u32")).isEqualTo(4_294_967_295L);
      assertThat(Float.floatToRawIntBits((Float) decoded.get(0).get("f32")))
          .isEqualTo(Float.floatToRawIntBits(-0.0f));
    }
  }

  static List<Map<String, Object>> withNulls(Schema schema, List<Map<String, Object>> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      Map<String, Object> full = new HashMap<>();
      schema.getFields().forEach(f -> full.put(f.getName(), row.get(f.getName())));
      out.add(full);
    }
    return out;
  }

  @Test
  void rejectsWrongTypesNamingColumnAndRow() {
    Schema schema = TableFixtures.allTypes();
    assertRejected(schema, Map.of("id", "a", "i64", 5), "row 1, column 'i64'", "expected Long");
    assertRejected(schema, Map.of("id", "a", "i32", 5L), "row 1, column 'i32'", "expected Integer");
    assertRejected(schema, Map.of("id", "a", "f64", 1.0f), "row 1, column 'f64'", "expected Double");
    assertRejected(schema, Map.of("id", "a", "d", Instant.EPOCH), "row 1, column 'd'", "expected LocalDate");
    assertRejected(schema, Map.of("id", 7), "row 1, column 'id'", "expected String");
    assertRejected(schema, Map.of("id", "a", "u32", 4_294_967_296L), "row 1, column 'u32'", "U32 range");
    assertRejected(schema, Map.of("id", "a", "u32", -1L), "row 1, column 'u32'", "U32 range");
    assertRejected(schema, Map.of("id", "a", "ts", Instant.ofEpochSecond(0, 1_000)),
        "row 1, column 'ts'", "sub-millisecond");
    assertRejected(schema, Map.of("id", "a", "vec", new float[2]), "row 1, column 'vec'", "3 floats but got 2");
    assertRejected(schema, Map.of("id", "a", "vec", List.of(1f, 2f, 3f)), "row 1, column 'vec'", "float[]");
    assertRejected(schema, Map.of("id", "a", "tags", Arrays.asList("x", null)),
        "row 1, column 'tags'", "list element 1");
    assertRejected(schema, Map.of("id", "a", "nums", List.of(1)), "row 1, column 'nums'", "list element 0");
    assertRejected(schema, Map.of("name", "no id"), "row 1", "unknown column 'name'");
    Map<String, Object> noId = new HashMap<>();
    noId.put("s", "x");
    assertRejected(schema, noId, "row 1, column 'id'", "non-nullable");
  }

  private void assertRejected(Schema schema, Map<String, Object> bad, String where, String why) {
    List<Map<String, Object>> rows = List.of(Map.of("id", "ok"), bad);
    assertThatThrownBy(() -> RowCodec.encode(schema, rows, allocator).close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(where)
        .hasMessageContaining(why);
  }

  @Test
  void arrowBytesIsTheExactBufferSizeInUse() {
    Schema schema = TableFixtures.person();
    List<Map<String, Object>> rows = List.of(
        TableFixtures.person("ab", null, 1L), TableFixtures.person("c", "xyz", null));
    try (VectorSchemaRoot root = RowCodec.encode(schema, rows, allocator)) {
      // id: 1 validity byte + 3 offsets * 4 + 3 data bytes; name: 1 + 12 + 3; age: 1 + 2 * 8.
      assertThat(RowCodec.arrowBytes(root)).isEqualTo(16 + 16 + 17);
      long sum = 0;
      for (FieldVector v : root.getFieldVectors()) {
        sum += v.getBufferSize();
      }
      assertThat(RowCodec.arrowBytes(root)).isEqualTo(sum);
    }
    // Nested columns count their children: the vectors' floats and the lists' elements.
    try (VectorSchemaRoot root = RowCodec.encode(TableFixtures.allTypes(), everyTypeRows(), allocator)) {
      long vec = root.getVector("vec").getBufferSize();
      assertThat(vec).isGreaterThanOrEqualTo(3 * 3 * 4);
      assertThat(RowCodec.arrowBytes(root)).isGreaterThan(vec);
    }
  }

  @Test
  void encodesNoRowsAsAnEmptyBatch() {
    try (VectorSchemaRoot root = RowCodec.encode(TableFixtures.allTypes(), List.of(), allocator)) {
      assertThat(root.getRowCount()).isZero();
    }
  }
}
