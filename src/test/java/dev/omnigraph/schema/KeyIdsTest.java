package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.schema.InvalidKeyException.Reason;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Expected spellings are what the Rust reference derives for the same typed value. */
class KeyIdsTest {

  private static final Catalog CATALOG = SchemaParser.parse("""
      node S { k: String @key }      node E { k: enum(red, green) @key }
      node B { k: Bool @key }
      node I32k { k: I32 @key }       node I64k { k: I64 @key }
      node U32k { k: U32 @key }       node U64k { k: U64 @key }
      node F32k { k: F32 @key }       node F64k { k: F64 @key }
      node D { k: Date @key }         node T { k: DateTime @key }
      node Pair { org: String  n: U32  label: String?  @key(org, n) }
      node Triple { c: String  b: I64  a: Bool  @key(c, b, a) }
      node Free { x: String }
      """);

  private static NodeType type(String name) {
    return CATALOG.node(name).orElseThrow();
  }

  private static String id(String typeName, Object value) {
    Map<String, Object> row = new HashMap<>();
    row.put("k", value);
    return KeyIds.nodeId(type(typeName), row);
  }

  static Stream<Arguments> spellings() {
    return Stream.of(
        Arguments.of("S", "Alice", "Alice"),
        Arguments.of("S", "a,b \"q\" é 😀", "a,b \"q\" é 😀"),
        Arguments.of("S", new StringBuilder("built"), "built"),
        Arguments.of("S", "", ""),
        Arguments.of("E", "green", "green"),
        Arguments.of("B", true, "true"),
        Arguments.of("B", false, "false"),
        Arguments.of("I32k", -32, "-32"),
        Arguments.of("I32k", Integer.MIN_VALUE, "-2147483648"),
        Arguments.of("I32k", 7L, "7"),
        Arguments.of("I32k", (short) 12, "12"),
        Arguments.of("I64k", Long.MIN_VALUE, "-9223372036854775808"),
        Arguments.of("I64k", BigInteger.valueOf(Long.MAX_VALUE), "9223372036854775807"),
        Arguments.of("U32k", 4294967295L, "4294967295"),
        Arguments.of("U32k", 0, "0"),
        Arguments.of("U64k", new BigInteger("18446744073709551615"), "18446744073709551615"),
        Arguments.of("U64k", Long.MAX_VALUE, "9223372036854775807"),
        // F32: shortest spelling at f32 width.
        Arguments.of("F32k", 1.25f, "1.25"),
        Arguments.of("F32k", 0.1f, "0.1"),
        Arguments.of("F32k", 0.1d, "0.1"),
        Arguments.of("F32k", 1.0f, "1"),
        Arguments.of("F32k", -0.0f, "0"),
        Arguments.of("F32k", 0.0f, "0"),
        Arguments.of("F32k", 1f / 3, "0.33333334"),
        Arguments.of("F32k", 16777216f, "16777216"),
        Arguments.of("F32k", 16777218f, "16777218"),
        Arguments.of("F32k", 1e10f, "10000000000"),
        Arguments.of("F32k", Float.MAX_VALUE, "340282350000000000000000000000000000000"),
        Arguments.of("F32k", Float.MIN_NORMAL, "0.000000000000000000000000000000000000011754944"),
        Arguments.of("F32k", Float.MIN_VALUE, "0.000000000000000000000000000000000000000000001"),
        Arguments.of("F32k", 3, "3"),
        // F64: the same value widened from f32 is a different, longer spelling.
        Arguments.of("F64k", (double) 0.1f, "0.10000000149011612"),
        Arguments.of("F64k", 0.1f, "0.10000000149011612"),
        Arguments.of("F64k", 0.1, "0.1"),
        Arguments.of("F64k", -2.5, "-2.5"),
        Arguments.of("F64k", 1.0, "1"),
        Arguments.of("F64k", -0.0, "0"),
        Arguments.of("F64k", 0.1 + 0.2, "0.30000000000000004"),
        Arguments.of("F64k", 1e21, "1000000000000000000000"),
        Arguments.of("F64k", 1e23, "100000000000000000000000"),
        Arguments.of("F64k", 1e-7, "0.0000001"),
        Arguments.of("F64k", 123456789.125, "123456789.125"),
        Arguments.of("F64k", 9007199254740992.0, "9007199254740992"),
        Arguments.of("F64k", 9007199254740994.0, "9007199254740994"),
        Arguments.of("F64k", 0x1p63, "9223372036854776000"),
        // JDK 17's Double.toString gives 2.82879384806159008E17 here: not shortest.
        Arguments.of("F64k", 2.82879384806159E17, "282879384806159000"),
        Arguments.of("F64k", Math.ulp(1.0), "0.0000000000000002220446049250313"),
        Arguments.of("F64k", Double.MAX_VALUE, "17976931348623157" + "0".repeat(292)),
        Arguments.of("F64k", Double.MIN_VALUE, "0." + "0".repeat(323) + "5"),
        Arguments.of("F64k", Double.MIN_NORMAL, "0." + "0".repeat(307) + "22250738585072014"),
        Arguments.of("F64k", -1e300, "-1" + "0".repeat(300)),
        Arguments.of("F64k", 42L, "42"),
        // Date: epoch days; DateTime: epoch milliseconds.
        Arguments.of("D", LocalDate.of(2024, 1, 1), "19723"),
        Arguments.of("D", LocalDate.of(1969, 12, 31), "-1"),
        Arguments.of("D", 19723, "19723"),
        Arguments.of("T", Instant.parse("2024-01-01T00:00:00Z"), "1704067200000"),
        Arguments.of("T", OffsetDateTime.of(2024, 1, 1, 1, 0, 0, 0, ZoneOffset.ofHours(1)), "1704067200000"),
        Arguments.of("T", ZonedDateTime.parse("2024-01-01T00:00:00.123Z"), "1704067200123"),
        Arguments.of("T", Instant.parse("1969-12-31T23:59:59.999900Z"), "-1"),
        Arguments.of("T", 1704067200000L, "1704067200000"));
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @MethodSource("spellings")
  void singleKeyIdIsTheCanonicalSpelling(String typeName, Object value, String expected) {
    assertThat(id(typeName, value)).isEqualTo(expected);
  }

  @Test
  void compositeKeyIsACompactJsonArrayInKeyOrder() {
    assertThat(KeyIds.nodeId(type("Pair"), Map.of("org", "acme", "n", 7, "label", "ignored")))
        .isEqualTo("[\"acme\",\"7\"]");
    assertThat(KeyIds.nodeId(type("Triple"), Map.of("a", true, "b", -3L, "c", "x")))
        .isEqualTo("[\"x\",\"-3\",\"true\"]");
    // A nullable non-key property may be absent.
    assertThat(KeyIds.nodeId(type("Pair"), Map.of("org", "o", "n", 1))).isEqualTo("[\"o\",\"1\"]");
  }

  @Test
  void compositeKeyEscapesExactlyAsSerdeJson() {
    assertThat(KeyIds.nodeId(type("Pair"), Map.of("org", "a,b", "n", 7))).isEqualTo("[\"a,b\",\"7\"]");
    assertThat(KeyIds.tupleId(java.util.List.of("a,b", "7", "quote\"and\\slash")))
        .isEqualTo("[\"a,b\",\"7\",\"quote\\\"and\\\\slash\"]");
    assertThat(KeyIds.tupleId(java.util.List.of("\n\r\t\b\f", "\u0000\u001f\u007f", "/é😀")))
        .isEqualTo("[\"\\n\\r\\t\\b\\f\",\"\\u0000\\u001f\u007f\",\"/é😀\"]");
    // Tuples that a separator would collapse stay distinct.
    assertThat(KeyIds.tupleId(java.util.List.of("x|y", "z"))).isNotEqualTo(KeyIds.tupleId(java.util.List.of("x", "y|z")));
  }

  @Test
  void aSingleValueTupleIsTheValueItself() {
    assertThat(KeyIds.tupleId(java.util.List.of("[\"not\",\"an array\"]"))).isEqualTo("[\"not\",\"an array\"]");
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        Arguments.of("S", null, Reason.NULL),
        Arguments.of("F32k", Float.NaN, Reason.NON_FINITE),
        Arguments.of("F32k", Float.POSITIVE_INFINITY, Reason.NON_FINITE),
        Arguments.of("F32k", Float.NEGATIVE_INFINITY, Reason.NON_FINITE),
        Arguments.of("F32k", 1e39, Reason.NON_FINITE),
        Arguments.of("F64k", Double.NaN, Reason.NON_FINITE),
        Arguments.of("F64k", Double.POSITIVE_INFINITY, Reason.NON_FINITE),
        Arguments.of("F64k", Double.NEGATIVE_INFINITY, Reason.NON_FINITE),
        Arguments.of("F64k", "1.5", Reason.TYPE_MISMATCH),
        Arguments.of("I32k", 2147483648L, Reason.OUT_OF_RANGE),
        Arguments.of("I32k", 1.0, Reason.TYPE_MISMATCH),
        Arguments.of("U32k", -1, Reason.OUT_OF_RANGE),
        Arguments.of("U32k", 4294967296L, Reason.OUT_OF_RANGE),
        Arguments.of("U64k", -1L, Reason.OUT_OF_RANGE),
        Arguments.of("U64k", BigInteger.ONE.shiftLeft(64), Reason.OUT_OF_RANGE),
        Arguments.of("I64k", "12", Reason.TYPE_MISMATCH),
        Arguments.of("B", "true", Reason.TYPE_MISMATCH),
        Arguments.of("S", 12, Reason.TYPE_MISMATCH),
        Arguments.of("S", "bad \uD800 surrogate", Reason.MALFORMED_STRING),
        Arguments.of("E", "blue", Reason.NOT_A_VARIANT),
        Arguments.of("D", LocalDate.MAX, Reason.OUT_OF_RANGE),
        Arguments.of("D", true, Reason.TYPE_MISMATCH),
        Arguments.of("T", Instant.MAX, Reason.OUT_OF_RANGE),
        Arguments.of("T", java.time.LocalDateTime.of(2024, 1, 1, 0, 0), Reason.TYPE_MISMATCH));
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @MethodSource("refusals")
  void unusableValuesAreRefusedNamingTheProperty(String typeName, Object value, Reason reason) {
    InvalidKeyException e = catchThrowableOfType(InvalidKeyException.class, () -> id(typeName, value));
    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.typeName()).isEqualTo(typeName);
    assertThat(e.property()).isEqualTo("k");
    assertThat(e.getMessage()).startsWith("cannot derive an id for node " + typeName + " from key property 'k': ");
  }

  @Test
  void messagesSayWhatIsWrong() {
    assertThat(catchThrowableOfType(InvalidKeyException.class, () -> id("F64k", Double.NaN)))
        .hasMessage("cannot derive an id for node F64k from key property 'k': NaN is not a finite number;"
            + " NaN and infinities cannot be keys");
    assertThat(catchThrowableOfType(InvalidKeyException.class, () -> id("F32k", 1e39)))
        .hasMessage("cannot derive an id for node F32k from key property 'k': 1.0E39 is not a finite number"
            + " at the stored width (F32 overflows); NaN and infinities cannot be keys");
    assertThat(catchThrowableOfType(InvalidKeyException.class, () -> id("U32k", -1)))
        .hasMessage("cannot derive an id for node U32k from key property 'k': -1 is outside the U32 range 0..4294967295");
    assertThat(catchThrowableOfType(InvalidKeyException.class, () -> id("E", "blue")))
        .hasMessage("cannot derive an id for node E from key property 'k': 'blue' is not one of enum(green, red)");
  }

  @Test
  void aMissingCompositeMemberIsNull() {
    InvalidKeyException e = catchThrowableOfType(InvalidKeyException.class,
        () -> KeyIds.nodeId(type("Pair"), Map.of("org", "acme")));
    assertThat(e.reason()).isEqualTo(Reason.NULL);
    assertThat(e.property()).isEqualTo("n");
  }

  @Test
  void anUnkeyedTypeHasNoDerivedId() {
    InvalidKeyException e = catchThrowableOfType(InvalidKeyException.class,
        () -> KeyIds.nodeId(type("Free"), Map.of("x", "a")));
    assertThat(e.reason()).isEqualTo(Reason.NOT_KEYED);
    assertThat(e.property()).isNull();
    assertThat(e).hasMessage("cannot derive an id for node Free: the type has no @key; its ids are generated");
  }
}
