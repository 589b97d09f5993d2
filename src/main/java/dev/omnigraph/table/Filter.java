package dev.omnigraph.table;

import java.math.BigDecimal;
import java.math.BigInteger;
import dev.omnigraph.schema.ScalarKind;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An immutable row predicate with two evaluations that agree: {@link #toSql()} for Lance's scan
 * (pushed down into the committed table) and {@link #test} in memory (for rows a mutation has
 * staged but not committed). Read-your-writes (docs/write-path.md) applies "the same filter" to both,
 * so the semantics are pinned to what Lance does, not to Java's defaults:
 *
 * <ul>
 *   <li><b>SQL three-valued logic.</b> A comparison, {@code in}, {@code startsWith} or
 *       {@code contains} on a null (or absent) column is <em>unknown</em>; {@code not} of unknown is
 *       unknown, and a row matches only when the whole filter is true. So a null column matches
 *       neither {@code eq(c, x)} nor {@code not(eq(c, x))} nor {@code ne(c, x)}; only
 *       {@code isNull(c)} (two-valued) selects it.
 *   <li><b>Numbers.</b> Lance converts a numeric literal to the compared column's type. In memory a
 *       literal is therefore converted to the row value's type: exact integer comparison for
 *       Integer/Long rows, {@code (float)} of the literal's SQL text for Float rows, the literal's
 *       text as a double for Double rows. Floats order totally, like Arrow: {@code -0.0 < 0.0},
 *       NaN equals NaN and sorts above +∞ ({@link Double#compare}).
 *   <li><b>Strings</b> compare by Unicode code point (= UTF-8 byte order, Arrow's order), not by
 *       Java's UTF-16 {@code compareTo}.
 *   <li><b>Types.</b> Values are String, Boolean, Integer, Long, BigInteger, Float, Double,
 *       LocalDate, Instant (whole ms), the {@link RowCodec} types. A value must fit the column it
 *       is compared with: Lance rejects a fractional or out-of-range literal against an integer
 *       column (the scan throws), and {@link #test} throws {@link IllegalArgumentException} for a
 *       value whose type cannot be compared with the row's (e.g. a String against a Long).
 *   <li><b>UInt64.</b> Rows carry U64 values as Long bits. {@link #test(Map, Schema)} reads them as
 *       unsigned; {@link #test(Map)} has no schema and reads every Long as signed, which is exact
 *       for every column but U64 values at or above 2^63. Pass such filter values as BigInteger.
 * </ul>
 *
 * <p>Every piece of text in {@link #toSql()} comes from {@link SqlLiteral}.
 */
public final class Filter {

  /** Matches every row (SQL {@code TRUE}). */
  public static final Filter TRUE = new Filter(Op.TRUE, null, null, List.of(), List.of());

  /** Matches no row (SQL {@code FALSE}); also what {@code in(c, [])} and {@code or()} reduce to. */
  public static final Filter FALSE = new Filter(Op.FALSE, null, null, List.of(), List.of());

  /** The shapes of a filter node, for evaluators of this package ({@link CachedFilter}). */
  enum Op {
    TRUE, FALSE, EQ, NE, LT, LE, GT, GE, IN, STARTS_WITH, CONTAINS, IS_NULL, AND, OR, NOT
  }

  private final Op op;
  private final String column;
  private final Object value;
  private final List<Object> values;
  private final List<Filter> children;

  private Filter(Op op, String column, Object value, List<Object> values, List<Filter> children) {
    this.op = op;
    this.column = column;
    this.value = value;
    this.values = values;
    this.children = children;
  }

  Op op() {
    return op;
  }

  /** The compared column of a leaf (null for TRUE, FALSE, AND, OR, NOT). */
  String column() {
    return column;
  }

  /** The literal of a comparison, starts-with or contains leaf. */
  Object value() {
    return value;
  }

  /** The literals of an IN leaf. */
  List<Object> values() {
    return values;
  }

  /** The operands of AND and OR, the one operand of NOT. */
  List<Filter> children() {
    return children;
  }

  /** Every column this filter reads (what a row must carry for {@link #test} to decide it). */
  Set<String> columns() {
    Set<String> out = new java.util.LinkedHashSet<>();
    collectColumns(out);
    return out;
  }

  private void collectColumns(Set<String> out) {
    if (column != null) {
      out.add(column);
    }
    children.forEach(c -> c.collectColumns(out));
  }

  /**
   * The exact values this filter restricts {@code column} to, when it is {@code column = v} or
   * {@code column IN (…)} of Strings (an exact key probe), or a conjunction with such a part (its
   * rows are among that part's: a key lookup with further filters); empty for any other shape.
   */
  Optional<Set<String>> exactStrings(String column) {
    if (op == Op.AND) {
      for (Filter child : children) {
        Optional<Set<String>> bound = child.exactStrings(column);
        if (bound.isPresent()) {
          return bound;
        }
      }
      return Optional.empty();
    }
    if (!column.equals(this.column)) {
      return Optional.empty();
    }
    List<Object> probed = op == Op.EQ ? java.util.Collections.singletonList(value) : op == Op.IN ? values : null;
    if (probed == null) {
      return Optional.empty();
    }
    Set<String> out = new java.util.HashSet<>();
    for (Object v : probed) {
      if (!(v instanceof String s)) {
        return Optional.empty();
      }
      out.add(s);
    }
    return Optional.of(out);
  }

  /** {@code column = value}. @throws IllegalArgumentException for a bad column name or value */
  public static Filter eq(String column, Object value) {
    return compare(Op.EQ, column, value);
  }

  /** {@code column <> value} (unknown, so not matching, when the column is null). */
  public static Filter ne(String column, Object value) {
    return compare(Op.NE, column, value);
  }

  /** {@code column < value}. */
  public static Filter lt(String column, Object value) {
    return compare(Op.LT, column, value);
  }

  /** {@code column <= value}. */
  public static Filter le(String column, Object value) {
    return compare(Op.LE, column, value);
  }

  /** {@code column > value}. */
  public static Filter gt(String column, Object value) {
    return compare(Op.GT, column, value);
  }

  /** {@code column >= value}. */
  public static Filter ge(String column, Object value) {
    return compare(Op.GE, column, value);
  }

  /**
   * {@code column IN (values…)}; an empty collection is {@link #FALSE}.
   *
   * @throws IllegalArgumentException for a bad column name, a null element (SQL's
   *     {@code x NOT IN (…, NULL)} never matches, a trap not worth offering), or a bad value
   */
  public static Filter in(String column, Collection<?> values) {
    SqlLiteral.identifier(column);
    if (values.isEmpty()) {
      return FALSE;
    }
    List<Object> copy = new ArrayList<>(values.size());
    for (Object v : values) {
      checkValue(v);
      copy.add(v);
    }
    return new Filter(Op.IN, column, null, List.copyOf(copy), List.of());
  }

  /**
   * Strings starting with {@code prefix} (exactly: {@code %}, {@code _}, {@code \} are literal),
   * pushed down as a range that a BTree index on the column serves (see {@link #toSql()}).
   */
  public static Filter startsWith(String column, String prefix) {
    SqlLiteral.identifier(column);
    SqlLiteral.quote(Objects.requireNonNull(prefix, "prefix"));
    return new Filter(Op.STARTS_WITH, column, prefix, List.of(), List.of());
  }

  /** Strings containing {@code part} as a substring (wildcard characters are literal). */
  public static Filter contains(String column, String part) {
    SqlLiteral.identifier(column);
    SqlLiteral.quote(Objects.requireNonNull(part, "part"));
    return new Filter(Op.CONTAINS, column, part, List.of(), List.of());
  }

  /** {@code column IS NULL}; an absent key in an in-memory row counts as null. */
  public static Filter isNull(String column) {
    SqlLiteral.identifier(column);
    return new Filter(Op.IS_NULL, column, null, List.of(), List.of());
  }

  /** Conjunction; {@code and()} is {@link #TRUE}. */
  public static Filter and(Filter... filters) {
    return filters.length == 0 ? TRUE
        : filters.length == 1 ? filters[0]
        : new Filter(Op.AND, null, null, List.of(), List.of(filters));
  }

  /** Disjunction; {@code or()} is {@link #FALSE}. */
  public static Filter or(Filter... filters) {
    return filters.length == 0 ? FALSE
        : filters.length == 1 ? filters[0]
        : new Filter(Op.OR, null, null, List.of(), List.of(filters));
  }

  /** Negation (unknown stays unknown). */
  public static Filter not(Filter filter) {
    return new Filter(Op.NOT, null, null, List.of(), List.of(Objects.requireNonNull(filter)));
  }

  /** The six ordering comparisons, for {@link #compare(Comparison, String, ScalarKind, Object)}. */
  public enum Comparison {
    EQ, NE, LT, LE, GT, GE
  }

  private static final BigDecimal I32_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
  private static final BigDecimal I32_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
  private static final BigDecimal I64_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal I64_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal U32_MAX = BigDecimal.valueOf(0xFFFF_FFFFL);
  private static final BigDecimal U64_MAX = new BigDecimal(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));

  /**
   * {@code column op value} for a column of kind {@code columnKind}, numbers compared by value.
   *
   * <p>lance-core 7.0.0 converts a numeric literal to the column's type and fails the scan when it
   * does not convert exactly (20.5 or 3000000000 against Int32), where the reference compares
   * numerically. So on an integer column a number that is not a value of the column's type is
   * turned into the equivalent comparison with the nearest integer of that type ({@code > 20.5}
   * is {@code > 20}, {@code >= 20.5} is {@code >= 21}, {@code <= 20.5} is {@code <= 20}), or into a
   * constant when every or no non-null value qualifies ({@code = 20.5} matches nothing,
   * {@code != 20.5} every non-null value). The pushed text and {@link #test} then agree with an
   * exact numeric comparison. A floating value counts as the decimal its shortest round-trip
   * spelling writes ({@code 0.1f} is 0.1), as it does in {@link #toSql()}. Any other column or
   * value is the plain comparison.
   *
   * @throws IllegalArgumentException as the plain comparison factories
   */
  public static Filter compare(Comparison op, String column, ScalarKind columnKind, Object value) {
    if (columnKind != null && columnKind.isInteger() && value instanceof Number n) {
      BigDecimal exact = exactDecimal(n);
      if (exact != null) {
        return integerCompare(op, column, columnKind, exact);
      }
    }
    return plain(op, column, value);
  }

  private static Filter plain(Comparison op, String column, Object value) {
    return switch (op) {
      case EQ -> eq(column, value);
      case NE -> ne(column, value);
      case LT -> lt(column, value);
      case LE -> le(column, value);
      case GT -> gt(column, value);
      case GE -> ge(column, value);
    };
  }

  /** The value as an exact decimal, or null for NaN (left to the plain comparison, which refuses it). */
  private static BigDecimal exactDecimal(Number n) {
    if (n instanceof Float || n instanceof Double) {
      double d = n.doubleValue();
      if (Double.isNaN(d)) {
        return null;
      }
      if (Double.isInfinite(d)) {
        // Beyond every column bound: only its sign matters below.
        return d > 0 ? U64_MAX.add(BigDecimal.ONE) : I64_MIN.subtract(BigDecimal.ONE);
      }
      return new BigDecimal(SqlLiteral.number(n));
    }
    if (n instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    return BigDecimal.valueOf(n.longValue());
  }

  private static Filter integerCompare(Comparison op, String column, ScalarKind kind, BigDecimal v) {
    BigDecimal min = switch (kind) {
      case I32 -> I32_MIN;
      case I64 -> I64_MIN;
      default -> BigDecimal.ZERO;
    };
    BigDecimal max = switch (kind) {
      case I32 -> I32_MAX;
      case I64 -> I64_MAX;
      case U32 -> U32_MAX;
      default -> U64_MAX;
    };
    BigDecimal floor = v.setScale(0, java.math.RoundingMode.FLOOR);
    BigDecimal ceil = v.setScale(0, java.math.RoundingMode.CEILING);
    boolean integral = floor.compareTo(ceil) == 0;
    Filter none = FALSE;
    Filter all = not(isNull(column)); // a comparison with null is never true
    return switch (op) {
      case EQ -> !integral || v.compareTo(min) < 0 || v.compareTo(max) > 0 ? none : eq(column, typed(kind, floor));
      case NE -> !integral || v.compareTo(min) < 0 || v.compareTo(max) > 0 ? all : ne(column, typed(kind, floor));
      // x > v  <=>  x > floor(v);  x <= v  <=>  x <= floor(v)
      case GT -> floor.compareTo(max) >= 0 ? none : floor.compareTo(min) < 0 ? all : gt(column, typed(kind, floor));
      case LE -> floor.compareTo(min) < 0 ? none : floor.compareTo(max) >= 0 ? all : le(column, typed(kind, floor));
      // x >= v  <=>  x >= ceil(v);  x < v  <=>  x < ceil(v)
      case GE -> ceil.compareTo(max) > 0 ? none : ceil.compareTo(min) <= 0 ? all : ge(column, typed(kind, ceil));
      case LT -> ceil.compareTo(min) <= 0 ? none : ceil.compareTo(max) > 0 ? all : lt(column, typed(kind, ceil));
    };
  }

  /** An in-range integer as the Java type of the column's values (U64 above 2^63 − 1 as BigInteger). */
  private static Number typed(ScalarKind kind, BigDecimal integral) {
    BigInteger big = integral.toBigIntegerExact();
    if (kind == ScalarKind.I32) {
      return big.intValueExact();
    }
    return big.bitLength() < 64 ? (Number) big.longValueExact() : big;
  }

  private static Filter compare(Op op, String column, Object value) {
    SqlLiteral.identifier(column);
    checkValue(value);
    return new Filter(op, column, value, List.of(), List.of());
  }

  private static void checkValue(Object value) {
    // Rendering once at construction rejects NaN, sub-ms instants, odd types and unpaired
    // surrogates here, where the mistake is made, rather than at scan time.
    SqlLiteral.literal(value);
  }

  /** Whether this is the constant {@link #TRUE} (a scan then needs no filter at all). */
  public boolean isTrue() {
    return op == Op.TRUE;
  }

  /**
   * The Lance (DataFusion SQL) filter text, built only from {@link SqlLiteral}.
   *
   * <p>The text never contains {@code NOT (…)}: negation is pushed down to the leaves (De Morgan,
   * {@code NOT (a < b)} as {@code a >= b}, {@code NOT IN}, {@code NOT LIKE}, {@code IS NOT NULL}).
   * lance-core 7.0.0 converts a literal to the compared column's type only in a comparison that is
   * not under {@code NOT}; under {@code NOT} it widens the column instead, so
   * {@code NOT (f32 = 0.1)} matched a row holding {@code 0.1f} and {@code NOT (NOT (f32 = 0.1))}
   * matched nothing (pinned in {@code AbstractFilterPushdownTest}). The pushed-down form is exactly
   * equivalent under three-valued logic and Arrow's total float order, and keeps every comparison
   * in the shape Lance converts correctly.
   */
  public String toSql() {
    return render(false);
  }

  private String render(boolean negated) {
    return switch (op) {
      case TRUE -> SqlLiteral.bool(!negated);
      case FALSE -> SqlLiteral.bool(negated);
      case EQ -> binary(negated ? "<>" : "=");
      case NE -> binary(negated ? "=" : "<>");
      case LT -> binary(negated ? ">=" : "<");
      case LE -> binary(negated ? ">" : "<=");
      case GT -> binary(negated ? "<=" : ">");
      case GE -> binary(negated ? "<" : ">=");
      case IN -> {
        StringBuilder sql = new StringBuilder(SqlLiteral.identifier(column))
            .append(negated ? " NOT IN (" : " IN (");
        for (int i = 0; i < values.size(); i++) {
          sql.append(i == 0 ? "" : ", ").append(SqlLiteral.literal(values.get(i)));
        }
        yield sql.append(')').toString();
      }
      case STARTS_WITH -> prefixRange(negated, (String) value);
      case CONTAINS -> like(negated, SqlLiteral.likeSubstring((String) value));
      case IS_NULL -> SqlLiteral.identifier(column) + (negated ? " IS NOT NULL" : " IS NULL");
      // De Morgan: NOT (a AND b) = (NOT a) OR (NOT b), exact in Kleene logic too.
      case AND -> join(negated ? " OR " : " AND ", negated);
      case OR -> join(negated ? " AND " : " OR ", negated);
      case NOT -> children.get(0).render(!negated);
    };
  }

  private String binary(String operator) {
    return SqlLiteral.identifier(column) + " " + operator + " " + SqlLiteral.literal(value);
  }

  /**
   * A prefix as the range {@code column >= prefix AND column < successor(prefix)}, never as
   * {@code LIKE 'prefix%'}: lance-core 7.0.0 answers a prefix LIKE (and {@code starts_with}) on a
   * BTree-indexed column from the index and drops the pattern's escapes there, so with an index
   * {@code LIKE 'a\_%'} also selects "a%b" and a prefix with a backslash selects nothing
   * (pinned in {@code AbstractLanceSearchTest}); a range on the index is exact. Strings compare by
   * code point (UTF-8 byte order) in Lance, so the range holds exactly the strings with the prefix.
   */
  private String prefixRange(boolean negated, String prefix) {
    String col = SqlLiteral.identifier(column);
    String low = SqlLiteral.quote(prefix);
    java.util.Optional<String> high = successor(prefix).map(SqlLiteral::quote);
    if (negated) {
      return high.map(h -> "(" + col + " < " + low + ") OR (" + col + " >= " + h + ")").orElse(col + " < " + low);
    }
    return high.map(h -> "(" + col + " >= " + low + ") AND (" + col + " < " + h + ")").orElse(col + " >= " + low);
  }

  /**
   * The least string greater than every string starting with {@code prefix} in code point order:
   * the prefix up to its last code point below U+10FFFF, that code point incremented (skipping the
   * surrogate block, which no string contains); empty when there is none (every string at or above
   * the prefix starts with it, e.g. the empty prefix).
   */
  static java.util.Optional<String> successor(String prefix) {
    int[] cps = prefix.codePoints().toArray();
    for (int i = cps.length - 1; i >= 0; i--) {
      if (cps[i] < Character.MAX_CODE_POINT) {
        int next = cps[i] + 1;
        if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
          next = Character.MAX_SURROGATE + 1;
        }
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < i; j++) {
          out.appendCodePoint(cps[j]);
        }
        return java.util.Optional.of(out.appendCodePoint(next).toString());
      }
    }
    return java.util.Optional.empty();
  }

  private String like(boolean negated, String pattern) {
    return SqlLiteral.identifier(column) + (negated ? " NOT LIKE " : " LIKE ") + pattern + " "
        + SqlLiteral.likeEscapeClause();
  }

  private String join(String operator, boolean negated) {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < children.size(); i++) {
      sql.append(i == 0 ? "" : operator).append('(').append(children.get(i).render(negated)).append(')');
    }
    return sql.toString();
  }

  /**
   * Whether {@code row} matches, with the semantics described on the class and every Long read as
   * signed.
   *
   * @throws IllegalArgumentException when a filter value cannot be compared with the row's value
   */
  public boolean test(Map<String, Object> row) {
    return eval(row, null) == Boolean.TRUE;
  }

  /**
   * Whether {@code row} matches, reading the Long values of {@code schema}'s UInt64 columns as
   * unsigned (otherwise as {@link #test(Map)}).
   *
   * @throws IllegalArgumentException when a filter value cannot be compared with the row's value
   */
  public boolean test(Map<String, Object> row, Schema schema) {
    return eval(row, schema) == Boolean.TRUE;
  }

  /** Kleene evaluation: TRUE, FALSE, or null for unknown. */
  private Boolean eval(Map<String, Object> row, Schema schema) {
    switch (op) {
      case TRUE:
        return true;
      case FALSE:
        return false;
      case IS_NULL:
        return row.get(column) == null;
      case NOT: {
        Boolean inner = children.get(0).eval(row, schema);
        return inner == null ? null : !inner;
      }
      case AND: {
        boolean unknown = false;
        for (Filter child : children) {
          Boolean b = child.eval(row, schema);
          if (b == null) {
            unknown = true;
          } else if (!b) {
            return false;
          }
        }
        return unknown ? null : true;
      }
      case OR: {
        boolean unknown = false;
        for (Filter child : children) {
          Boolean b = child.eval(row, schema);
          if (b == null) {
            unknown = true;
          } else if (b) {
            return true;
          }
        }
        return unknown ? null : false;
      }
      default:
        break;
    }
    Object actual = row.get(column);
    if (actual == null) {
      return null;
    }
    boolean unsigned = schema != null && isUnsigned64(schema, column);
    switch (op) {
      case EQ:
        return compare(actual, value, unsigned) == 0;
      case NE:
        return compare(actual, value, unsigned) != 0;
      case LT:
        return compare(actual, value, unsigned) < 0;
      case LE:
        return compare(actual, value, unsigned) <= 0;
      case GT:
        return compare(actual, value, unsigned) > 0;
      case GE:
        return compare(actual, value, unsigned) >= 0;
      case IN:
        for (Object v : values) {
          if (compare(actual, v, unsigned) == 0) {
            return true;
          }
        }
        return false;
      case STARTS_WITH:
        return string(actual).startsWith((String) value);
      case CONTAINS:
        return string(actual).contains((String) value);
      default:
        throw new IllegalStateException("unreachable: " + op);
    }
  }

  private String string(Object actual) {
    if (!(actual instanceof String s)) {
      throw mismatch(actual, value);
    }
    return s;
  }

  private static boolean isUnsigned64(Schema schema, String column) {
    for (Field f : schema.getFields()) {
      if (f.getName().equals(column)) {
        return RowCodec.isUnsigned64(f.getType());
      }
    }
    return false;
  }

  /** Compares a row value with a filter literal the way Lance compares column and literal. */
  private int compare(Object actual, Object literal, boolean unsigned) {
    if (actual instanceof String a && literal instanceof String b) {
      return compareCodePoints(a, b);
    }
    if (actual instanceof Boolean a && literal instanceof Boolean b) {
      return Boolean.compare(a, b);
    }
    if (actual instanceof LocalDate a && literal instanceof LocalDate b) {
      return a.compareTo(b);
    }
    if (actual instanceof Instant a && literal instanceof Instant b) {
      return a.compareTo(b);
    }
    if (actual instanceof Float a && literal instanceof Number) {
      // Lance turns the literal's text into the column's Float32 (via f64, hence the cast).
      return Float.compare(a, (float) asDouble((Number) literal));
    }
    if (actual instanceof Double a && literal instanceof Number) {
      return Double.compare(a, asDouble((Number) literal));
    }
    if ((actual instanceof Integer || actual instanceof Long) && literal instanceof Number n) {
      long bits = ((Number) actual).longValue();
      BigInteger a = unsigned && bits < 0
          ? BigInteger.valueOf(bits).add(BigInteger.ONE.shiftLeft(64))
          : BigInteger.valueOf(bits);
      if (n instanceof Float || n instanceof Double) {
        // Lance rejects a floating literal against an integer column unless it converts exactly;
        // comparing exactly here keeps equal inputs equal and never invents a match.
        return new BigDecimal(a).compareTo(new BigDecimal(SqlLiteral.number(n)));
      }
      BigInteger b = n instanceof BigInteger big ? big : BigInteger.valueOf(n.longValue());
      return a.compareTo(b);
    }
    throw mismatch(actual, literal);
  }

  /** The double Lance parses from the literal's SQL text (integers: nearest double, as Rust's {@code as}). */
  static double asDouble(Number literal) {
    if (literal instanceof Float || literal instanceof Double) {
      return Double.parseDouble(SqlLiteral.number(literal));
    }
    BigInteger exact = literal instanceof BigInteger big ? big : BigInteger.valueOf(literal.longValue());
    return new BigDecimal(exact).doubleValue();
  }

  private IllegalArgumentException mismatch(Object actual, Object literal) {
    return new IllegalArgumentException("filter on column '" + column + "' compares a "
        + actual.getClass().getSimpleName() + " value with a " + literal.getClass().getSimpleName());
  }

  /** Code point order, which is UTF-8 byte order and therefore Arrow's string order. */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Filter f && toSql().equals(f.toSql());
  }

  @Override
  public int hashCode() {
    return toSql().hashCode();
  }

  @Override
  public String toString() {
    return toSql();
  }
}
