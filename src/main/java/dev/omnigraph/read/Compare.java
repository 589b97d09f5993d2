package dev.omnigraph.read;

import java.math.BigDecimal;
import java.math.BigInteger;

import dev.omnigraph.query.CompareOp;
import java.util.List;

/**
 * In-memory comparison with the same meaning as the filters pushed into Lance: a comparison with
 * null is false, numbers compare by value across widths, strings by code point (UTF-8 byte order,
 * as Lance compares them), dates and times chronologically.
 */
final class Compare {

  private Compare() {}

  static boolean test(CompareOp op, Object left, Object right) {
    return switch (op) {
      case IS_NULL -> left == null;
      case IS_NOT_NULL -> left != null;
      default -> {
        if (left == null || right == null) {
          yield false;
        }
        yield switch (op) {
          case EQ -> values(left, right) == 0;
          case NE -> values(left, right) != 0;
          case LT -> values(left, right) < 0;
          case LE -> values(left, right) <= 0;
          case GT -> values(left, right) > 0;
          case GE -> values(left, right) >= 0;
          case LIST_CONTAINS -> ((List<?>) left).stream().anyMatch(e -> e != null && values(e, right) == 0);
          case STRING_CONTAINS -> ((String) left).contains((String) right);
          case STARTS_WITH -> ((String) left).startsWith((String) right);
          default -> throw new IllegalStateException(op.toString());
        };
      }
    };
  }

  /** Orders two non-null values of one query type. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int values(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return numbers(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return codePoints(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        int c = nullsFirst(x.get(i), y.get(i));
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.size(), y.size());
    }
    if (a instanceof float[] x && b instanceof float[] y) {
      return java.util.Arrays.compare(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }

  /**
   * Numbers by value. An integer against a float compares exactly, the float read as the decimal
   * its shortest spelling writes: what the pushed filter does ({@code Filter.compare}), so a
   * predicate gives the same rows pushed down or evaluated here; through doubles a 64-bit integer
   * above 2^53 would equal its rounded neighbour.
   */
  private static int numbers(Number x, Number y) {
    boolean fx = x instanceof Float || x instanceof Double;
    boolean fy = y instanceof Float || y instanceof Double;
    if (fx && fy) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (!fx && !fy) {
      return x instanceof BigInteger || y instanceof BigInteger
          ? integer(x).compareTo(integer(y))
          : Long.compare(x.longValue(), y.longValue());
    }
    Number f = fx ? x : y;
    if (Double.isNaN(f.doubleValue()) || Double.isInfinite(f.doubleValue())) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    return decimal(x).compareTo(decimal(y));
  }

  private static BigInteger integer(Number n) {
    return n instanceof BigInteger big ? big : BigInteger.valueOf(n.longValue());
  }

  private static BigDecimal decimal(Number n) {
    if (n instanceof Float f) {
      return new BigDecimal(Float.toString(f));
    }
    if (n instanceof Double d) {
      return new BigDecimal(Double.toString(d));
    }
    return new BigDecimal(integer(n));
  }

  /** {@link #values} with null before every value. */
  static int nullsFirst(Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return values(a, b);
  }

  static int codePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
