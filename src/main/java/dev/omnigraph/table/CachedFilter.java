package dev.omnigraph.table;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A {@link Filter} evaluated over the {@link CachedColumn}s of one table version, row by row, with
 * exactly {@link Filter#test(Map, org.apache.arrow.vector.types.pojo.Schema)}'s semantics (the ones
 * pinned to Lance's): Kleene logic, a comparison with a null cell unknown, strings by code point,
 * numbers converted as Lance converts a literal to the column's type. Only the literal types that
 * semantics compares without converting through text are compiled; any other leaf (a U64 column, a
 * fractional literal against an integer column, a literal of another type than the column's, which
 * the in-memory test and Lance both refuse) makes {@link #compile} return null and the scan is left
 * to Lance, which answers or refuses as it always did.
 */
final class CachedFilter {

  static final int FALSE = 0;
  static final int TRUE = 1;
  static final int UNKNOWN = 2;

  /** One node of the filter over the version's rows: {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}. */
  interface Test {
    int at(int row);
  }

  private CachedFilter() {}

  /** {@code filter} over {@code columns} (which hold every column it reads), or null when not compiled. */
  static Test compile(Filter filter, Map<String, CachedColumn> columns) {
    switch (filter.op()) {
      case TRUE:
        return r -> TRUE;
      case FALSE:
        return r -> FALSE;
      case AND:
      case OR: {
        List<Filter> children = filter.children();
        Test[] parts = new Test[children.size()];
        for (int i = 0; i < parts.length; i++) {
          parts[i] = compile(children.get(i), columns);
          if (parts[i] == null) {
            return null;
          }
        }
        return combine(parts, filter.op() == Filter.Op.AND ? FALSE : TRUE);
      }
      case NOT: {
        Test inner = compile(filter.children().get(0), columns);
        return inner == null ? null : r -> {
          int v = inner.at(r);
          return v == UNKNOWN ? UNKNOWN : 1 - v;
        };
      }
      default:
        break;
    }
    CachedColumn c = columns.get(filter.column());
    if (c == null) {
      return null;
    }
    if (filter.op() == Filter.Op.IS_NULL) {
      return r -> c.isNull(r) ? TRUE : FALSE;
    }
    return c.kind == CachedColumn.Kind.STRING ? string(filter, c) : scalar(filter, c);
  }

  /**
   * AND ({@code absorbing} FALSE) or OR ({@code absorbing} TRUE) in Kleene logic: the absorbing value
   * if any part has it, else unknown if any part is unknown, else the other value.
   */
  private static Test combine(Test[] parts, int absorbing) {
    int identity = 1 - absorbing;
    return r -> {
      int out = identity;
      for (Test t : parts) {
        int v = t.at(r);
        if (v == absorbing) {
          return absorbing;
        }
        if (v == UNKNOWN) {
          out = UNKNOWN;
        }
      }
      return out;
    };
  }

  /**
   * The rows that may match {@code filter}, ascending, from an equality or {@code IN} on a String
   * column, alone or as a conjunct: on a column of distinct values its codes are its rows (a key
   * lookup); on any other, one pass over the codes, so that the rest of the filter is tested on those
   * rows only (Q4's {@code city = $c}: a fiftieth of the table). Null when the filter has no such part
   * and every row must be tested.
   */
  static int[] candidates(Filter filter, Map<String, CachedColumn> columns) {
    if (filter.op() == Filter.Op.AND) {
      for (Filter child : filter.children()) {
        int[] rows = candidates(child, columns);
        if (rows != null) {
          return rows;
        }
      }
      return null;
    }
    if (filter.op() != Filter.Op.EQ && filter.op() != Filter.Op.IN) {
      return null;
    }
    CachedColumn c = columns.get(filter.column());
    if (c == null || c.kind != CachedColumn.Kind.STRING) {
      return null;
    }
    int[] codes = codes(filter, c);
    return codes == null || c.unique() ? codes : c.rowsWith(codes); // code = row in a column of distinct values
  }

  /** The codes of an EQ or IN leaf's String literals that some row holds, sorted; null for another literal. */
  private static int[] codes(Filter leaf, CachedColumn c) {
    List<Object> literals = leaf.op() == Filter.Op.IN ? leaf.values() : java.util.Collections.singletonList(leaf.value());
    List<Integer> found = new ArrayList<>();
    for (Object v : literals) {
      if (!(v instanceof String s)) {
        return null;
      }
      int code = c.codeOf(s);
      if (code >= 0) {
        found.add(code);
      }
    }
    return found.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
  }

  private static Test string(Filter leaf, CachedColumn c) {
    Filter.Op op = leaf.op();
    if (op == Filter.Op.EQ || op == Filter.Op.NE || op == Filter.Op.IN) {
      int[] codes = codes(leaf, c);
      if (codes == null) {
        return null;
      }
      boolean ne = op == Filter.Op.NE;
      if (codes.length <= 1) {
        int only = codes.length == 0 ? -2 : codes[0]; // -2: no row holds it
        return r -> {
          int code = c.code(r);
          return code < 0 ? UNKNOWN : (code == only) != ne ? TRUE : FALSE;
        };
      }
      return r -> {
        int code = c.code(r);
        return code < 0 ? UNKNOWN : Arrays.binarySearch(codes, code) >= 0 ? TRUE : FALSE;
      };
    }
    if (!(leaf.value() instanceof String literal)) {
      return null;
    }
    // Each distinct value is decided once; rows then look their code up.
    byte[] decided = new byte[c.distinct()];
    for (int code = 0; code < decided.length; code++) {
      String s = c.string(code);
      boolean match = switch (op) {
        case LT -> Filter.compareCodePoints(s, literal) < 0;
        case LE -> Filter.compareCodePoints(s, literal) <= 0;
        case GT -> Filter.compareCodePoints(s, literal) > 0;
        case GE -> Filter.compareCodePoints(s, literal) >= 0;
        case STARTS_WITH -> s.startsWith(literal);
        case CONTAINS -> s.contains(literal);
        default -> throw new IllegalStateException("unreachable: " + op);
      };
      decided[code] = (byte) (match ? TRUE : FALSE);
    }
    return r -> {
      int code = c.code(r);
      return code < 0 ? UNKNOWN : decided[code];
    };
  }

  /** How a row's value compares with a literal: negative, zero or positive. */
  private interface Order {
    int compare(int row);
  }

  private static Test scalar(Filter leaf, CachedColumn c) {
    Filter.Op op = leaf.op();
    if (op == Filter.Op.STARTS_WITH || op == Filter.Op.CONTAINS) {
      return null; // a string test of a non-string column: the in-memory test refuses it
    }
    List<Object> literals = op == Filter.Op.IN ? leaf.values() : java.util.Collections.singletonList(leaf.value());
    Order[] orders = new Order[literals.size()];
    for (int i = 0; i < orders.length; i++) {
      orders[i] = order(c, literals.get(i));
      if (orders[i] == null) {
        return null;
      }
    }
    if (op == Filter.Op.IN) {
      return r -> {
        if (c.isNull(r)) {
          return UNKNOWN;
        }
        for (Order o : orders) {
          if (o.compare(r) == 0) {
            return TRUE;
          }
        }
        return FALSE;
      };
    }
    Order o = orders[0];
    return switch (op) {
      case EQ -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) == 0 ? TRUE : FALSE;
      case NE -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) != 0 ? TRUE : FALSE;
      case LT -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) < 0 ? TRUE : FALSE;
      case LE -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) <= 0 ? TRUE : FALSE;
      case GT -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) > 0 ? TRUE : FALSE;
      case GE -> r -> c.isNull(r) ? UNKNOWN : o.compare(r) >= 0 ? TRUE : FALSE;
      default -> null;
    };
  }

  /**
   * A row's value against {@code literal} as {@link Filter#test} compares them; null where that
   * needs more than a primitive compare (the literal is then left to Lance).
   */
  private static Order order(CachedColumn c, Object literal) {
    switch (c.kind) {
      case BOOL:
        if (literal instanceof Boolean b) {
          int v = b ? 1 : 0;
          return r -> Integer.compare(c.intAt(r), v);
        }
        return null;
      // A literal outside the column's type is refused by Lance (the scan throws): left to it.
      case I32: {
        Long v = integral(literal);
        return v == null || v != v.intValue() ? null : r -> Long.compare(c.intAt(r), v);
      }
      case U32: {
        Long v = integral(literal);
        return v == null || v < 0 || v > 0xFFFF_FFFFL ? null : r -> Long.compare(c.longAt(r), v);
      }
      case I64: {
        Long v = integral(literal);
        return v == null ? null : r -> Long.compare(c.longAt(r), v);
      }
      case DATE:
        if (literal instanceof LocalDate d) {
          long day = d.toEpochDay();
          return r -> Long.compare(c.intAt(r), day);
        }
        return null;
      case DATETIME:
        if (literal instanceof Instant t) {
          long ms = t.toEpochMilli(); // a filter's instants are whole milliseconds, as the column's
          return r -> Long.compare(c.longAt(r), ms);
        }
        return null;
      case F32:
        if (literal instanceof Number n) {
          float f = (float) Filter.asDouble(n); // Lance's Float32 of the literal's text, via f64
          return r -> Float.compare(c.floatAt(r), f);
        }
        return null;
      case F64:
        if (literal instanceof Number n) {
          double d = Filter.asDouble(n);
          return r -> Double.compare(c.doubleAt(r), d);
        }
        return null;
      default:
        return null; // U64: its bits read unsigned; left to Lance
    }
  }

  /** An integer literal as a long, or null (a fractional or out-of-range literal, another type). */
  private static Long integral(Object literal) {
    if (literal instanceof Integer i) {
      return (long) i;
    }
    if (literal instanceof Long l) {
      return l;
    }
    if (literal instanceof BigInteger b && b.bitLength() < 64) {
      return b.longValue();
    }
    return null;
  }
}
