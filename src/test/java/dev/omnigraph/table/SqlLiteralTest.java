package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * The exact text {@link SqlLiteral} produces. That Lance reads each spelling as intended (matches
 * exactly the intended rows) is pinned against real datasets in {@link AbstractFilterPushdownTest}.
 */
class SqlLiteralTest {

  @Test
  void quoteDoublesSingleQuotesAndLeavesBackslashAlone() {
    assertThat(SqlLiteral.quote("plain")).isEqualTo("'plain'");
    assertThat(SqlLiteral.quote("")).isEqualTo("''");
    assertThat(SqlLiteral.quote("it's")).isEqualTo("'it''s'");
    assertThat(SqlLiteral.quote("x' OR '1'='1")).isEqualTo("'x'' OR ''1''=''1'");
    assertThat(SqlLiteral.quote("'); DROP TABLE t; --")).isEqualTo("'''); DROP TABLE t; --'");
    // Backslash is an ordinary character in Lance's string literals: no escaping, no doubling.
    assertThat(SqlLiteral.quote("a\\b")).isEqualTo("'a\\b'");
    assertThat(SqlLiteral.quote("\\")).isEqualTo("'\\'");
    assertThat(SqlLiteral.quote("\\'")).isEqualTo("'\\'''");
    assertThat(SqlLiteral.quote("say \"hi\" 50% a_b\n\t")).isEqualTo("'say \"hi\" 50% a_b\n\t'");
    assertThat(SqlLiteral.quote("ünï€")).isEqualTo("'ünï€'");
  }

  @Test
  void quoteSpellsNulAndNonBmpCharactersAsChr() {
    assertThat(SqlLiteral.quote("ünï€😀")).isEqualTo("('ünï€' || chr(128512))");
    assertThat(SqlLiteral.quote("😀")).isEqualTo("('' || chr(128512))");
    assertThat(SqlLiteral.quote("😀'x😀😀")).isEqualTo("('' || chr(128512) || '''x' || chr(128512) || chr(128512))");
    assertThat(SqlLiteral.quote("nul\u0000x")).isEqualTo("('nul' || chr(0) || 'x')");
    assertThatThrownBy(() -> SqlLiteral.quote("bad\uD800x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate at index 3");
    assertThatThrownBy(() -> SqlLiteral.quote("\uDC00"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate");
  }

  @Test
  void identifiersAreValidatedAndBacktickQuoted() {
    assertThat(SqlLiteral.identifier("age")).isEqualTo("`age`");
    assertThat(SqlLiteral.identifier("Mixed_Case9")).isEqualTo("`Mixed_Case9`");
    assertThat(SqlLiteral.identifier("_rowaddr")).isEqualTo("`_rowaddr`");
    for (String bad : new String[] {"", "9a", "a b", "a`b", "a\"b", "a-b", "a.b", "ä", "a;", null}) {
      assertThatThrownBy(() -> SqlLiteral.identifier(bad)).as(String.valueOf(bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void numbers() {
    assertThat(SqlLiteral.number(42)).isEqualTo("42");
    assertThat(SqlLiteral.number(-7L)).isEqualTo("-7");
    assertThat(SqlLiteral.number(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
    assertThat(SqlLiteral.number(Long.MIN_VALUE)).isEqualTo("(-9223372036854775807 - 1)");
    assertThat(SqlLiteral.number(BigInteger.valueOf(5))).isEqualTo("5");
    assertThat(SqlLiteral.number(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)))
        .isEqualTo("arrow_cast('18446744073709551615', 'UInt64')");
    assertThatThrownBy(() -> SqlLiteral.number(BigInteger.ONE.shiftLeft(64)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SqlLiteral.number(BigInteger.ONE.shiftLeft(63).negate().subtract(BigInteger.ONE)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(SqlLiteral.number(0.1f)).isEqualTo("0.1");
    assertThat(SqlLiteral.number(0.1)).isEqualTo("0.1");
    assertThat(SqlLiteral.number(-0.0)).isEqualTo("-0.0");
    assertThat(SqlLiteral.number(1e300)).isEqualTo("1.0E300");
    for (Number bad : new Number[] {Double.NaN, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN}) {
      assertThatThrownBy(() -> SqlLiteral.number(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("non-finite");
    }
    assertThatThrownBy(() -> SqlLiteral.number(new java.math.BigDecimal("1.5")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SqlLiteral.number((short) 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void booleansDatesTimestamps() {
    assertThat(SqlLiteral.bool(true)).isEqualTo("TRUE");
    assertThat(SqlLiteral.bool(false)).isEqualTo("FALSE");
    assertThat(SqlLiteral.date(LocalDate.of(2024, 1, 2))).isEqualTo("DATE '2024-01-02'");
    assertThat(SqlLiteral.date(LocalDate.of(1, 1, 1))).isEqualTo("DATE '0001-01-01'");
    assertThat(SqlLiteral.date(LocalDate.of(0, 12, 31))).isEqualTo("CAST(-719163 AS DATE)");
    assertThat(SqlLiteral.date(LocalDate.of(12345, 1, 1)))
        .isEqualTo("CAST(" + LocalDate.of(12345, 1, 1).toEpochDay() + " AS DATE)");
    assertThat(SqlLiteral.timestamp(Instant.parse("2024-01-01T00:00:01.250Z")))
        .isEqualTo("TIMESTAMP '2024-01-01T00:00:01.250Z'");
    assertThat(SqlLiteral.timestamp(Instant.EPOCH.minusMillis(1)))
        .isEqualTo("TIMESTAMP '1969-12-31T23:59:59.999Z'");
    assertThat(SqlLiteral.timestamp(Instant.parse("+12000-01-01T00:00:00Z")))
        .isEqualTo("arrow_cast(" + Instant.parse("+12000-01-01T00:00:00Z").toEpochMilli()
            + ", 'Timestamp(Millisecond, Some(\"UTC\"))')");
    assertThatThrownBy(() -> SqlLiteral.timestamp(Instant.ofEpochSecond(0, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sub-millisecond");
  }

  @Test
  void likePatternsEscapeWildcardsAndTheEscapeCharacter() {
    assertThat(SqlLiteral.likePrefix("ab")).isEqualTo("'ab%'");
    assertThat(SqlLiteral.likePrefix("50%_\\")).isEqualTo("'50\\%\\_\\\\%'");
    assertThat(SqlLiteral.likePrefix("it's")).isEqualTo("'it''s%'");
    assertThat(SqlLiteral.likePrefix("")).isEqualTo("'%'");
    assertThat(SqlLiteral.likeSubstring("%")).isEqualTo("'%\\%%'");
    assertThat(SqlLiteral.likeSubstring("😀")).isEqualTo("('%' || chr(128512) || '%')");
    assertThat(SqlLiteral.likeEscapeClause()).isEqualTo("ESCAPE '\\'");
  }

  @Test
  void literalDispatchesByTypeAndRejectsTheRest() {
    assertThat(SqlLiteral.literal("x")).isEqualTo("'x'");
    assertThat(SqlLiteral.literal(true)).isEqualTo("TRUE");
    assertThat(SqlLiteral.literal(3)).isEqualTo("3");
    assertThat(SqlLiteral.literal(LocalDate.of(2020, 5, 6))).isEqualTo("DATE '2020-05-06'");
    assertThatThrownBy(() -> SqlLiteral.literal(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("isNull");
    assertThatThrownBy(() -> SqlLiteral.literal(new float[1])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SqlLiteral.literal('c')).isInstanceOf(IllegalArgumentException.class);
  }
}
