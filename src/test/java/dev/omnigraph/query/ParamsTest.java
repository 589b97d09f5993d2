package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** JSON parameters to typed values, and every way they can fail to fit. */
class ParamsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final CheckedQuery ALL = Fixtures.check("""
      query all($s: String, $b: Bool, $i: I32, $l: I64, $u: U32, $w: U64, $f: F32, $g: F64,
                $d: Date, $t: DateTime, $xs: [I64], $v: Vector(3), $opt: String?, $optList: [String]?) {
        match { $p: Person { name: $s } }
        return { $p.name }
      }""");

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static BoundParams bind(String params) {
    return Params.bind(ALL, json(params));
  }

  private static final String VALID = """
      {"s": "Alice", "b": true, "i": -7, "l": 9007199254740993, "u": 4294967295, "w": 9223372036854775807,
       "f": 1.5, "g": 2, "d": "2024-02-29", "t": "2024-01-31T09:30:00.125+01:00", "xs": [1, 2, 3],
       "v": [0.5, 1, -2], "opt": null}""";

  @Test
  void everyTypeConverts() {
    BoundParams p = bind(VALID);
    assertThat(p.query()).isEqualTo("all");
    assertThat(p.get("s")).isEqualTo("Alice");
    assertThat(p.get("b")).isEqualTo(true);
    assertThat(p.get("i")).isEqualTo(-7);
    assertThat(p.get("l")).isEqualTo(9007199254740993L);
    assertThat(p.get("u")).isEqualTo(4294967295L);
    assertThat(p.get("w")).isEqualTo(Long.MAX_VALUE);
    // Above 2^63-1 a U64 is carried by value, never as negative Long bits (issue 47 item 9).
    assertThat(bind(VALID.replace("9223372036854775807", "18446744073709551615")).get("w"))
        .isEqualTo(new java.math.BigInteger("18446744073709551615"));
    assertThat(p.get("f")).isEqualTo(1.5f);
    assertThat(p.get("g")).isEqualTo(2.0d);
    assertThat(p.get("d")).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(p.get("t")).isEqualTo(Instant.parse("2024-01-31T08:30:00.125Z"));
    assertThat(p.get("xs")).isEqualTo(List.of(1L, 2L, 3L));
    assertThat((float[]) p.get("v")).containsExactly(0.5f, 1f, -2f);
    assertThat(p.get("opt")).isNull();
    assertThat(p.get("optList")).isNull();
    assertThat(p.values()).containsOnlyKeys("s", "b", "i", "l", "u", "w", "f", "g", "d", "t", "xs", "v", "opt",
        "optList");
    assertThat(p.get(new Value.Param("s", ALL.param("s").orElseThrow().type()))).isEqualTo("Alice");
  }

  @Test
  void dateTimeFromEpochMillis() {
    BoundParams p = bind(VALID.replace("\"2024-01-31T09:30:00.125+01:00\"", "1706693400125"));
    assertThat(p.get("t")).isEqualTo(Instant.parse("2024-01-31T09:30:00.125Z"));
  }

  @Test
  void listsAreUnmodifiable() {
    @SuppressWarnings("unchecked")
    List<Object> xs = (List<Object>) bind(VALID).get("xs");
    assertThatThrownBy(() -> xs.add(4L)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void noParamsAcceptsNullOrEmpty() {
    CheckedQuery q = Fixtures.check("query none() { match { $p: Person } return { $p.name } }");
    assertThat(Params.bind(q, null).values()).isEmpty();
    assertThat(Params.bind(q, json("null")).values()).isEmpty();
    assertThat(Params.bind(q, json("{}")).values()).isEmpty();
  }

  @Test
  void getOfAnUndeclaredNameIsAProgrammingError() {
    assertThatThrownBy(() -> bind(VALID).get("zz")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("query 'all' declares no parameter $zz");
  }

  static Stream<Arguments> misfits() {
    return Stream.of(
        misfit("missing required", VALID.replace("\"s\": \"Alice\", ", ""), "s",
            "query 'all': parameter $s: missing; it is required (String)"),
        misfit("null for required", VALID.replace("\"Alice\"", "null"), "s",
            "query 'all': parameter $s: null; it is required (String)"),
        misfit("undeclared", VALID.replace("{", "{\"nmae\": 1, "), "nmae",
            "query 'all': parameter $nmae: not declared by the query; it declares $s, $b, $i, $l, $u, $w, $f, $g, $d,"
                + " $t, $xs, $v, $opt, $optList"),
        misfit("undeclared with a hint", VALID.replace("{", "{\"opts\": 1, "), "opts",
            "query 'all': parameter $opts: not declared by the query (did you mean opt?); it declares $s, $b, $i, $l,"
                + " $u, $w, $f, $g, $d, $t, $xs, $v, $opt, $optList"),
        misfit("not an object", "[1]", null, "query 'all': parameters must be a JSON object, got array [1]"),
        misfit("number for a String", VALID.replace("\"Alice\"", "3"), "s",
            "query 'all': parameter $s: expected a String (a JSON string), got number 3"),
        misfit("string for a Bool", VALID.replace("true", "\"true\""), "b",
            "query 'all': parameter $b: expected a Bool (true or false), got string \"true\""),
        misfit("I32 overflow", VALID.replace("-7", "2147483648"), "i",
            "query 'all': parameter $i: 2147483648 is out of range for I32 (-2147483648 to 2147483647)"),
        misfit("fraction for I32", VALID.replace("-7", "1.0"), "i",
            "query 'all': parameter $i: expected an I32 (a JSON integer), got number 1.0"),
        misfit("string for I32", VALID.replace("-7", "\"7\""), "i",
            "query 'all': parameter $i: expected an I32 (a JSON integer), got string \"7\""),
        misfit("I64 overflow", VALID.replace("9007199254740993", "9223372036854775808"), "l",
            "query 'all': parameter $l: 9223372036854775808 is out of range for I64 (-9223372036854775808 to"
                + " 9223372036854775807)"),
        misfit("U32 overflow", VALID.replace("4294967295", "4294967296"), "u",
            "query 'all': parameter $u: 4294967296 is out of range for U32 (0 to 4294967295)"),
        misfit("negative U32", VALID.replace("4294967295", "-1"), "u",
            "query 'all': parameter $u: -1 is out of range for U32 (0 to 4294967295)"),
        // U64 takes its whole range (issue 47 item 9); one past it is refused.
        misfit("U64 overflow", VALID.replace("9223372036854775807", "18446744073709551616"), "w",
            "query 'all': parameter $w: 18446744073709551616 is out of range for U64 (0 to 18446744073709551615)"),
        misfit("negative U64", VALID.replace("9223372036854775807", "-1"), "w",
            "query 'all': parameter $w: -1 is out of range for U64 (0 to 18446744073709551615)"),
        misfit("F32 overflow", VALID.replace("1.5", "1e39"), "f",
            "query 'all': parameter $f: 1.0E+39 is out of range for F32".replace("1.0E+39", "1000000000000000000000000000000000000000")),
        misfit("bad Date", VALID.replace("2024-02-29", "2023-02-29"), "d",
            "query 'all': parameter $d: '2023-02-29' is not a Date; write it as YYYY-MM-DD, e.g. 2024-01-31"),
        misfit("Date as a number", VALID.replace("\"2024-02-29\"", "19782"), "d",
            "query 'all': parameter $d: expected a Date (a \"YYYY-MM-DD\" string), got number 19782"),
        misfit("DateTime without offset", VALID.replace("+01:00", ""), "t",
            "query 'all': parameter $t: '2024-01-31T09:30:00.125' is not a DateTime; write ISO-8601 with an offset,"
                + " e.g. 2024-01-31T09:30:00Z"),
        misfit("DateTime below milliseconds", VALID.replace(".125", ".1255"), "t",
            "query 'all': parameter $t: '2024-01-31T09:30:00.1255+01:00' is more precise than DateTime, which stores"
                + " milliseconds"),
        misfit("list element of the wrong type", VALID.replace("[1, 2, 3]", "[1, \"2\"]"), "xs",
            "query 'all': parameter $xs: element 1: expected an I64 (a JSON integer), got string \"2\""),
        misfit("null list element", VALID.replace("[1, 2, 3]", "[1, null]"), "xs",
            "query 'all': parameter $xs: element 1 is null; list elements cannot be null"),
        misfit("scalar for a list", VALID.replace("[1, 2, 3]", "1"), "xs",
            "query 'all': parameter $xs: expected [I64], a JSON array, got number 1"),
        misfit("vector of the wrong size", VALID.replace("[0.5, 1, -2]", "[1, 2]"), "v",
            "query 'all': parameter $v: expected Vector(3), an array of 3 numbers, got array [1,2]"),
        misfit("vector of strings", VALID.replace("[0.5, 1, -2]", "[1, 2, \"x\"]"), "v",
            "query 'all': parameter $v: element 2 of the vector: expected a number, got string \"x\""));
  }

  private static Arguments misfit(String name, String params, String param, String message) {
    return Arguments.of(name, params, param, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("misfits")
  void rejected(String name, String params, String param, String message) {
    assertThatThrownBy(() -> bind(params))
        .isInstanceOfSatisfying(QueryParamException.class, e -> {
          assertThat(e.param()).isEqualTo(param);
          assertThat(e.query()).isEqualTo("all");
        })
        .hasMessage(message);
  }
}
