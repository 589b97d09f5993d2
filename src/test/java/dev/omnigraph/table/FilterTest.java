package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Filter} in memory and its SQL text. Agreement of the two evaluations on a real Lance
 * table is {@link AbstractFilterPushdownTest}.
 */
class FilterTest {

  @Test
  void anIntegerColumnAgainstANumberItsTypeCannotHoldBecomesTheEquivalentIntegerComparison() {
    // Issue 47.5: Lance fails a scan whose literal does not convert to the column's type.
    Filter.Comparison gt = Filter.Comparison.GT;
    assertThat(Filter.compare(gt, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5).toSql()).isEqualTo("`age` > 20");
    assertThat(Filter.compare(Filter.Comparison.GE, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5).toSql())
        .isEqualTo("`age` >= 21");
    assertThat(Filter.compare(Filter.Comparison.LT, "age", dev.omnigraph.schema.ScalarKind.I64, -20.5).toSql())
        .isEqualTo("`age` < -20");
    assertThat(Filter.compare(Filter.Comparison.LE, "age", dev.omnigraph.schema.ScalarKind.I64, -20.5).toSql())
        .isEqualTo("`age` <= -21");
    assertThat(Filter.compare(Filter.Comparison.EQ, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5))
        .isSameAs(Filter.FALSE);
    assertThat(Filter.compare(Filter.Comparison.NE, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5).toSql())
        .isEqualTo("`age` IS NOT NULL");
    assertThat(Filter.compare(Filter.Comparison.EQ, "age", dev.omnigraph.schema.ScalarKind.I32, 20.0).toSql())
        .isEqualTo("`age` = 20");
    assertThat(Filter.compare(gt, "age", dev.omnigraph.schema.ScalarKind.I32, 3_000_000_000L)).isSameAs(Filter.FALSE);
    assertThat(Filter.compare(gt, "n", dev.omnigraph.schema.ScalarKind.U32, -1.5).toSql()).isEqualTo("`n` IS NOT NULL");
    assertThat(Filter.compare(gt, "n", dev.omnigraph.schema.ScalarKind.U64, 1e19).toSql())
        .isEqualTo("`n` > arrow_cast('10000000000000000000', 'UInt64')");
    assertThat(Filter.compare(gt, "f", dev.omnigraph.schema.ScalarKind.F64, 20.5).toSql()).isEqualTo("`f` > 20.5");
    Map<String, Object> row = new HashMap<>();
    row.put("age", 21);
    assertThat(Filter.compare(gt, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5).test(row)).isTrue();
    assertThat(Filter.compare(Filter.Comparison.NE, "age", dev.omnigraph.schema.ScalarKind.I32, 20.5).test(row)).isTrue();
  }

  @Test
  void sqlText() {
    assertThat(Filter.eq("name", "it's").toSql()).isEqualTo("`name` = 'it''s'");
    assertThat(Filter.ne("age", 3L).toSql()).isEqualTo("`age` <> 3");
    assertThat(Filter.lt("age", 3).toSql()).isEqualTo("`age` < 3");
    assertThat(Filter.le("d", LocalDate.of(2024, 1, 2)).toSql()).isEqualTo("`d` <= DATE '2024-01-02'");
    assertThat(Filter.gt("f", 0.5).toSql()).isEqualTo("`f` > 0.5");
    assertThat(Filter.ge("b", true).toSql()).isEqualTo("`b` >= TRUE");
    assertThat(Filter.in("id", List.of("a", "b'c")).toSql()).isEqualTo("`id` IN ('a', 'b''c')");
    assertThat(Filter.in("id", List.of())).isSameAs(Filter.FALSE);
    // A prefix is a range (a BTree serves it exactly; Lance's indexed LIKE drops escapes).
    assertThat(Filter.startsWith("s", "50%").toSql()).isEqualTo("(`s` >= '50%') AND (`s` < '50&')");
    assertThat(Filter.startsWith("s", "a\\").toSql()).isEqualTo("(`s` >= 'a\\') AND (`s` < 'a]')");
    assertThat(Filter.startsWith("s", "it'").toSql()).isEqualTo("(`s` >= 'it''') AND (`s` < 'it(')");
    assertThat(Filter.startsWith("s", "").toSql()).isEqualTo("`s` >= ''");
    assertThat(Filter.contains("s", "_").toSql()).isEqualTo("`s` LIKE '%\\_%' ESCAPE '\\'");
    assertThat(Filter.isNull("s").toSql()).isEqualTo("`s` IS NULL");
    assertThat(Filter.and(Filter.eq("a", 1), Filter.or(Filter.isNull("b"), Filter.not(Filter.eq("c", "x"))))
        .toSql()).isEqualTo("(`a` = 1) AND ((`b` IS NULL) OR (`c` <> 'x'))");
    assertThat(Filter.TRUE.toSql()).isEqualTo("TRUE");
    assertThat(Filter.FALSE.toSql()).isEqualTo("FALSE");
    assertThat(Filter.and()).isSameAs(Filter.TRUE);
    assertThat(Filter.or()).isSameAs(Filter.FALSE);
    assertThat(Filter.TRUE.isTrue()).isTrue();
    assertThat(Filter.eq("a", 1).isTrue()).isFalse();
  }

  /** The prefix successor is the least string above every string with the prefix, in code point order. */
  @Test
  void prefixSuccessorIncrementsTheLastCodePointThatCanGrow() {
    assertThat(Filter.successor("ab")).contains("ac");
    assertThat(Filter.successor("a\uD7FF")).contains("a\uE000"); // the surrogate block is skipped
    assertThat(Filter.successor("a\uFFFF")).contains("a\uD800\uDC00"); // U+10000
    assertThat(Filter.successor("a\uDBFF\uDFFF")).contains("b"); // U+10FFFF cannot grow: drop it
    assertThat(Filter.successor("\uDBFF\uDFFF")).isEmpty();
    assertThat(Filter.successor("")).isEmpty();
    assertThat(Filter.successor("x\u0000")).contains("x\u0001");
  }

  /** Negation is pushed to the leaves: Lance mis-types literals under NOT (see Filter#toSql). */
  @Test
  void negationIsPushedDownNeverRendered() {
    assertThat(Filter.not(Filter.eq("a", 1)).toSql()).isEqualTo("`a` <> 1");
    assertThat(Filter.not(Filter.ne("a", 1)).toSql()).isEqualTo("`a` = 1");
    assertThat(Filter.not(Filter.lt("a", 1)).toSql()).isEqualTo("`a` >= 1");
    assertThat(Filter.not(Filter.le("a", 1)).toSql()).isEqualTo("`a` > 1");
    assertThat(Filter.not(Filter.gt("a", 1)).toSql()).isEqualTo("`a` <= 1");
    assertThat(Filter.not(Filter.ge("a", 1)).toSql()).isEqualTo("`a` < 1");
    assertThat(Filter.not(Filter.in("a", List.of(1, 2))).toSql()).isEqualTo("`a` NOT IN (1, 2)");
    assertThat(Filter.not(Filter.startsWith("s", "x")).toSql()).isEqualTo("(`s` < 'x') OR (`s` >= 'y')");
    assertThat(Filter.not(Filter.startsWith("s", "")).toSql()).isEqualTo("`s` < ''");
    assertThat(Filter.not(Filter.contains("s", "x")).toSql()).isEqualTo("`s` NOT LIKE '%x%' ESCAPE '\\'");
    assertThat(Filter.not(Filter.isNull("s")).toSql()).isEqualTo("`s` IS NOT NULL");
    assertThat(Filter.not(Filter.TRUE).toSql()).isEqualTo("FALSE");
    assertThat(Filter.not(Filter.not(Filter.eq("a", 1))).toSql()).isEqualTo("`a` = 1");
    assertThat(Filter.not(Filter.and(Filter.eq("a", 1), Filter.or(Filter.lt("b", 2), Filter.isNull("c")))).toSql())
        .isEqualTo("(`a` <> 1) OR ((`b` >= 2) AND (`c` IS NOT NULL))");
  }

  @Test
  void rejectsBadColumnsAndValuesAtConstruction() {
    assertThatThrownBy(() -> Filter.eq("a b", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("a", null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("a", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.lt("a", Float.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("a", Instant.ofEpochSecond(1, 5))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("a", "\uD800")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.in("a", Arrays.asList("x", null))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.startsWith("a", "\uDFFF")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("a", List.of(1))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nullsFollowSqlThreeValuedLogic() {
    Map<String, Object> row = new HashMap<>();
    row.put("id", "r");
    row.put("s", null);
    // A comparison with null is unknown: neither it nor its negation matches.
    assertThat(Filter.eq("s", "x").test(row)).isFalse();
    assertThat(Filter.not(Filter.eq("s", "x")).test(row)).isFalse();
    assertThat(Filter.ne("s", "x").test(row)).isFalse();
    assertThat(Filter.in("s", List.of("x")).test(row)).isFalse();
    assertThat(Filter.not(Filter.in("s", List.of("x"))).test(row)).isFalse();
    assertThat(Filter.startsWith("s", "").test(row)).isFalse();
    assertThat(Filter.contains("s", "").test(row)).isFalse();
    assertThat(Filter.isNull("s").test(row)).isTrue();
    assertThat(Filter.isNull("absent").test(row)).isTrue();
    assertThat(Filter.not(Filter.isNull("s")).test(row)).isFalse();
    // Kleene: unknown OR true = true, unknown AND false = false, NOT(unknown AND true) unknown.
    assertThat(Filter.or(Filter.eq("s", "x"), Filter.eq("id", "r")).test(row)).isTrue();
    assertThat(Filter.not(Filter.and(Filter.eq("s", "x"), Filter.eq("id", "zz"))).test(row)).isTrue();
    assertThat(Filter.not(Filter.and(Filter.eq("s", "x"), Filter.eq("id", "r"))).test(row)).isFalse();
    assertThat(Filter.not(Filter.or(Filter.eq("s", "x"), Filter.eq("id", "zz"))).test(row)).isFalse();
    // An empty IN is the constant FALSE, so its negation matches even a null column (as in SQL text).
    assertThat(Filter.not(Filter.in("s", List.of())).test(row)).isTrue();
  }

  @Test
  void comparisonsFollowArrowOrdering() {
    // Strings by code point: U+1F600 (surrogates in UTF-16) sorts above U+FFFD, unlike compareTo.
    Map<String, Object> emoji = Map.of("s", "😀");
    assertThat(Filter.gt("s", "\uFFFD").test(emoji)).isTrue();
    assertThat("😀".compareTo("\uFFFD")).isNegative();
    // Floats order totally: -0.0 < 0.0, NaN above everything and equal to itself.
    assertThat(Filter.eq("f", 0.0).test(Map.of("f", -0.0))).isFalse();
    assertThat(Filter.lt("f", 0.0).test(Map.of("f", -0.0))).isTrue();
    assertThat(Filter.gt("f", Double.MAX_VALUE).test(Map.of("f", Double.NaN))).isTrue();
    assertThat(Filter.gt("f", Double.MAX_VALUE).test(Map.of("f", Double.POSITIVE_INFINITY))).isTrue();
    // A literal is converted to a Float32 column's type: 0.1 matches 0.1f there, but not in a Float64.
    assertThat(Filter.eq("f", 0.1).test(Map.of("f", 0.1f))).isTrue();
    assertThat(Filter.eq("f", 0.1f).test(Map.of("f", 0.1))).isTrue(); // text "0.1" → 0.1
    assertThat(Filter.eq("f", 0.1f).test(Map.of("f", (double) 0.1f))).isFalse();
    // Integers compare exactly across Integer, Long and BigInteger.
    assertThat(Filter.eq("n", 5).test(Map.of("n", 5L))).isTrue();
    assertThat(Filter.eq("n", Long.MAX_VALUE).test(Map.of("n", Long.MAX_VALUE))).isTrue();
    assertThat(Filter.lt("n", Long.MAX_VALUE).test(Map.of("n", Long.MAX_VALUE - 1))).isTrue();
    // Dates, instants, booleans.
    assertThat(Filter.lt("d", LocalDate.of(2024, 1, 2)).test(Map.of("d", LocalDate.of(2024, 1, 1)))).isTrue();
    assertThat(Filter.ge("t", Instant.EPOCH).test(Map.of("t", Instant.EPOCH))).isTrue();
    assertThat(Filter.gt("b", false).test(Map.of("b", true))).isTrue();
    // Wildcards in startsWith / contains are literal.
    assertThat(Filter.startsWith("s", "a%").test(Map.of("s", "a%b"))).isTrue();
    assertThat(Filter.startsWith("s", "a%").test(Map.of("s", "ab"))).isFalse();
    assertThat(Filter.contains("s", "_").test(Map.of("s", "ab"))).isFalse();
  }

  @Test
  void unsigned64NeedsTheSchema() {
    var schema = TableFixtures.allTypes();
    Map<String, Object> max = Map.of("u64", -1L); // 2^64 - 1
    BigInteger big = BigInteger.ONE.shiftLeft(63);
    assertThat(Filter.gt("u64", big).test(max, schema)).isTrue();
    assertThat(Filter.eq("u64", BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)).test(max, schema)).isTrue();
    // Without the schema the bits read as signed -1.
    assertThat(Filter.gt("u64", big).test(max)).isFalse();
    assertThat(Filter.eq("u64", -1L).test(max)).isTrue();
  }

  @Test
  void mismatchedTypesAreRejectedNotGuessed() {
    assertThatThrownBy(() -> Filter.eq("s", 1L).test(Map.of("s", "1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 's'");
    assertThatThrownBy(() -> Filter.startsWith("n", "1").test(Map.of("n", 1L)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Filter.eq("d", Instant.EPOCH).test(Map.of("d", LocalDate.EPOCH)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void equalityIsBySqlText() {
    assertThat(Filter.eq("a", 1)).isEqualTo(Filter.eq("a", 1L));
    assertThat(Filter.eq("a", 1)).isNotEqualTo(Filter.eq("a", 2));
    assertThat(Filter.eq("a", 1).toString()).isEqualTo("`a` = 1");
  }
}
