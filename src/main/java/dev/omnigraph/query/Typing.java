package dev.omnigraph.query;

import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Typing of literals and comparisons: a literal converted to the type its other operand or its
 * target property dictates, and each comparison operator's operand rules.
 */
final class Typing {

  static final PropertyType ID = PropertyType.scalar(ScalarKind.STRING, false);
  static final PropertyType I64 = PropertyType.scalar(ScalarKind.I64, false);
  static final PropertyType F64 = PropertyType.scalar(ScalarKind.F64, false);

  private final Names names;

  Typing(Names names) {
    this.names = names;
  }

  // ---- comparisons ----

  /** How an operand is named in a message: {@code $p.age (I32?)}, {@code 30 (integer)}. */
  static String describe(Operand o) {
    if (o instanceof Operand.Property p && p.variable().startsWith("@")) {
      return p.variable().substring(1) + "." + p.property() + " (" + p.type().display() + ")";
    }
    if (o instanceof Operand.Property p) {
      return "$" + p.variable() + "." + p.property() + " (" + p.type().display() + ")";
    }
    if (o instanceof Value.Param p) {
      return "$" + p.name() + " (" + p.type().display() + ")";
    }
    if (o instanceof Value.Now) {
      return "now() (DateTime)";
    }
    return "a " + o.type().display() + " literal";
  }

  static String describe(Ast.Literal l) {
    if (l instanceof Ast.Str s) {
      return "the string \"" + s.value() + "\"";
    }
    if (l instanceof Ast.Num n) {
      return (n.integral() ? "the integer " : "the number ") + n.text();
    }
    if (l instanceof Ast.Bool b) {
      return b.value() ? "true" : "false";
    }
    if (l instanceof Ast.DateLit d) {
      return "date(\"" + d.text() + "\")";
    }
    if (l instanceof Ast.DateTimeLit d) {
      return "datetime(\"" + d.text() + "\")";
    }
    return l instanceof Ast.Null ? "null" : "a list literal";
  }

  /**
   * {@code left op right} where the left side is resolved and the right one may still be a literal,
   * which is then converted to the type the left side dictates.
   */
  Clause.Filter comparison(Operand left, Ast.Pos leftPos, Ast.Op op, Ast.Pos opPos, Ast.Operand right,
      CheckScope scope) {
    if (right instanceof Ast.Lit lit) {
      if (lit.literal() instanceof Ast.Null n) {
        return nullTest(left, op, opPos);
      }
      return switch (op) {
        case CONTAINS -> containsLiteral(left, leftPos, opPos, lit.literal());
        case STARTS_WITH -> {
          requireString(left, leftPos, op);
          yield new Clause.Filter(left, CompareOp.STARTS_WITH, stringLiteral(lit.literal(), left));
        }
        default -> {
          requireComparable(left, leftPos, op);
          yield new Clause.Filter(left, compareOp(op), literalFor(lit.literal(), left, op));
        }
      };
    }
    return resolvedComparison(left, leftPos, op, opPos, names.operand(right, scope), right.pos());
  }

  private Clause.Filter resolvedComparison(Operand left, Ast.Pos leftPos, Ast.Op op, Ast.Pos opPos, Operand right,
      Ast.Pos rightPos) {
    PropertyType l = left.type();
    PropertyType r = right.type();
    switch (op) {
      case CONTAINS -> {
        if (l.list()) {
          if (r.list() || !compatible(elementOf(l), r)) {
            throw names.err(rightPos, "cannot test whether " + describe(left) + " contains " + describe(right)
                + ": the value must be a single " + elementOf(l).display());
          }
          return new Clause.Filter(left, CompareOp.LIST_CONTAINS, right);
        }
        requireString(left, leftPos, op);
        requireStringOperand(right, rightPos, op);
        return new Clause.Filter(left, CompareOp.STRING_CONTAINS, right);
      }
      case STARTS_WITH -> {
        requireString(left, leftPos, op);
        requireStringOperand(right, rightPos, op);
        return new Clause.Filter(left, CompareOp.STARTS_WITH, right);
      }
      default -> {
        requireComparable(left, leftPos, op);
        requireComparable(right, rightPos, op);
        if (!compatible(l, r)) {
          throw names.err(opPos, "cannot compare " + describe(left) + " with " + describe(right));
        }
        return new Clause.Filter(left, compareOp(op), right);
      }
    }
  }

  /** {@code "x" op $p.prop}: the literal is typed by the right operand. */
  Clause.Filter comparisonLiteralLeft(Ast.Lit lit, Ast.Op op, Ast.Pos opPos, Operand right, Ast.Pos rightPos) {
    Ast.Literal l = lit.literal();
    if (l instanceof Ast.Null) {
      return nullTest(right, op, opPos);
    }
    if (op == Ast.Op.CONTAINS && l instanceof Ast.ListLit list) {
      if (right.type().list() || !orderable(right.type())) {
        throw names.err(rightPos, "a list literal contains single values, not " + describe(right));
      }
      PropertyType listType = new PropertyType(right.type().kind(), true, false, right.type().enumValues(), 0);
      return new Clause.Filter(literalOfType(list, listType, false), CompareOp.LIST_CONTAINS, right);
    }
    if (op == Ast.Op.CONTAINS || op == Ast.Op.STARTS_WITH) {
      requireStringOperand(right, rightPos, op);
      Value.Literal left = new Value.Literal(strOf(l, op), PropertyType.scalar(ScalarKind.STRING, false));
      return resolvedComparison(left, lit.pos(), op, opPos, right, rightPos);
    }
    requireComparable(right, rightPos, op);
    return new Clause.Filter(literalFor(l, right, op), compareOp(op), right);
  }

  private String strOf(Ast.Literal l, Ast.Op op) {
    if (l instanceof Ast.Str s) {
      return s.value();
    }
    throw names.err(l.pos(), op.spelling + " compares strings, not " + describe(l));
  }

  Clause.Filter comparisonOfLiterals(Ast.Filter f) {
    throw names.err(f.left().pos(), "a filter compares a property or a parameter; two literals compare the same way"
        + " on every row");
  }

  private Clause.Filter nullTest(Operand left, Ast.Op op, Ast.Pos opPos) {
    if (op != Ast.Op.EQ && op != Ast.Op.NE) {
      throw names.err(opPos, "null can only be tested with = or !=, not " + op.spelling);
    }
    if (!left.type().nullable()) {
      throw names.err(opPos, describe(left) + " is never null, so this test is always "
          + (op == Ast.Op.EQ ? "false" : "true"));
    }
    CompareOp c = op == Ast.Op.EQ ? CompareOp.IS_NULL : CompareOp.IS_NOT_NULL;
    return new Clause.Filter(left, c, new Value.Literal(null, left.type()));
  }

  private Clause.Filter containsLiteral(Operand left, Ast.Pos leftPos, Ast.Pos opPos, Ast.Literal lit) {
    PropertyType l = left.type();
    if (l.list()) {
      if (lit instanceof Ast.ListLit) {
        throw names.err(lit.pos(), "contains tests one element; " + describe(left) + " cannot contain a whole list");
      }
      PropertyType element = elementOf(l);
      return new Clause.Filter(left, CompareOp.LIST_CONTAINS,
          literalFor(lit, element, "an element of " + describe(left), Ast.Op.EQ));
    }
    requireString(left, leftPos, Ast.Op.CONTAINS);
    return new Clause.Filter(left, CompareOp.STRING_CONTAINS, stringLiteral(lit, left));
  }

  private Value.Literal stringLiteral(Ast.Literal lit, Operand left) {
    if (lit instanceof Ast.Str s) {
      return new Value.Literal(s.value(), PropertyType.scalar(ScalarKind.STRING, false));
    }
    throw names.err(lit.pos(), "cannot compare " + describe(left) + " with " + describe(lit) + ": it needs a string");
  }

  private void requireString(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list() || !(t.kind() == ScalarKind.STRING || t.kind() == ScalarKind.ENUM)) {
      throw names.err(at, op.spelling + " needs a String " + (op == Ast.Op.CONTAINS ? "or a list " : "") + "on the left, but "
          + describe(o) + " is not one");
    }
  }

  private void requireStringOperand(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list() || !(t.kind() == ScalarKind.STRING || t.kind() == ScalarKind.ENUM)) {
      throw names.err(at, op.spelling + " needs a String to look for, but " + describe(o) + " is not one");
    }
  }

  private void requireComparable(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list()) {
      throw names.err(at, describe(o) + " is a list; lists cannot be compared with " + op.spelling
          + ", use contains to test membership");
    }
    if (t.kind() == ScalarKind.VECTOR) {
      throw names.err(at, describe(o) + " is a vector; vectors cannot be compared with " + op.spelling);
    }
    if (t.isBlob()) {
      // T24: a scan reads a Blob as its description, so there is no value to compare.
      throw names.err(at, describe(o) + " is a Blob; Blobs cannot be compared with " + op.spelling);
    }
  }

  private static CompareOp compareOp(Ast.Op op) {
    return switch (op) {
      case EQ -> CompareOp.EQ;
      case NE -> CompareOp.NE;
      case LT -> CompareOp.LT;
      case LE -> CompareOp.LE;
      case GT -> CompareOp.GT;
      case GE -> CompareOp.GE;
      default -> throw new IllegalArgumentException(op.name());
    };
  }

  /** Same kind, both numeric (compared by value), or String against an enum. */
  private static boolean compatible(PropertyType a, PropertyType b) {
    if (a.list() != b.list()) {
      return false;
    }
    if (a.kind() == b.kind()) {
      return a.kind() != ScalarKind.VECTOR || a.vectorDim() == b.vectorDim();
    }
    if (a.kind().isNumeric() && b.kind().isNumeric()) {
      return true;
    }
    return stringLike(a.kind()) && stringLike(b.kind());
  }

  private static boolean stringLike(ScalarKind k) {
    return k == ScalarKind.STRING || k == ScalarKind.ENUM;
  }

  private static PropertyType elementOf(PropertyType list) {
    return new PropertyType(list.kind(), false, false, list.enumValues(), 0);
  }

  /**
   * A literal compared with {@code other}: converted to {@code other}'s type where it is exactly
   * representable there, else kept in its own (numeric comparisons are by value, so {@code $p.age >
   * 2.5} stays meaningful for an I32 age). An enum equality must name a declared variant.
   */
  private Value.Literal literalFor(Ast.Literal lit, Operand other, Ast.Op op) {
    return literalFor(lit, other.type(), describe(other), op);
  }

  private Value.Literal literalFor(Ast.Literal lit, PropertyType t, String other, Ast.Op op) {
    PropertyType scalarT = elementOf(t);
    String mismatch = "cannot compare " + other + " with " + describe(lit);
    if (lit instanceof Ast.Str s) {
      if (t.kind() == ScalarKind.ENUM) {
        if ((op == Ast.Op.EQ || op == Ast.Op.NE) && !t.enumValues().contains(s.value())) {
          throw names.err(s.pos(), "\"" + s.value() + "\" is not a variant of " + other + Hints.hint(s.value(),
              t.enumValues()) + "; the variants are " + String.join(", ", t.enumValues()));
        }
        return new Value.Literal(s.value(), scalarT);
      }
      if (t.kind() == ScalarKind.STRING) {
        return new Value.Literal(s.value(), scalarT);
      }
      if (t.kind() == ScalarKind.DATE || t.kind() == ScalarKind.DATETIME) {
        String fn = t.kind() == ScalarKind.DATE ? "date" : "datetime";
        throw names.err(s.pos(), mismatch + "; write a " + t.kind().spelling() + " as " + fn + "(\"" + s.value() + "\")");
      }
    } else if (lit instanceof Ast.Num n && t.kind().isNumeric()) {
      try {
        return new Value.Literal(Values.number(n.value(), t.kind()), scalarT);
      } catch (Values.Misfit notRepresentable) {
        return naturalNumber(n);
      }
    } else if (lit instanceof Ast.Bool b && t.kind() == ScalarKind.BOOL) {
      return new Value.Literal(b.value(), scalarT);
    } else if (lit instanceof Ast.DateLit d && t.kind() == ScalarKind.DATE) {
      return new Value.Literal(date(d), scalarT);
    } else if (lit instanceof Ast.DateTimeLit d && t.kind() == ScalarKind.DATETIME) {
      return new Value.Literal(instant(d), scalarT);
    } else if (lit instanceof Ast.ListLit) {
      throw names.err(lit.pos(), mismatch + "; use contains to test membership");
    }
    throw names.err(lit.pos(), mismatch);
  }

  Value.Literal naturalNumber(Ast.Num n) {
    ScalarKind kind = n.integral() ? ScalarKind.I64 : ScalarKind.F64;
    try {
      return new Value.Literal(Values.number(n.value(), kind), n.integral() ? I64 : F64);
    } catch (Values.Misfit m) {
      throw names.err(n.pos(), m.getMessage());
    }
  }

  LocalDate date(Ast.DateLit d) {
    try {
      return Values.date(d.text());
    } catch (Values.Misfit m) {
      throw names.err(d.textPos(), m.getMessage());
    }
  }

  Instant instant(Ast.DateTimeLit d) {
    try {
      return Values.instant(d.text());
    } catch (Values.Misfit m) {
      throw names.err(d.textPos(), m.getMessage());
    }
  }

  Value.Literal literalOfType(Ast.Literal lit, PropertyType target, boolean allowNull) {
    return literalOfType(lit, target, allowNull, "a " + target.display() + " value");
  }

  Value.Literal literalOfType(Ast.Literal lit, PropertyType target, boolean allowNull, String what) {
    if (lit instanceof Ast.Null n) {
      if (!allowNull || !target.nullable()) {
        throw names.err(n.pos(), what + " is not nullable, so it cannot be null");
      }
      return new Value.Literal(null, target);
    }
    if (target.kind() == ScalarKind.VECTOR) {
      if (!(lit instanceof Ast.ListLit list)) {
        throw names.err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
      }
      if (list.items().size() != target.vectorDim()) {
        throw names.err(lit.pos(), what + " is " + target.display() + ", but the list has " + list.items().size()
            + " elements");
      }
      float[] out = new float[list.items().size()];
      for (int k = 0; k < out.length; k++) {
        Ast.Literal item = list.items().get(k);
        if (!(item instanceof Ast.Num n)) {
          throw names.err(item.pos(), what + " is a vector of numbers, not " + describe(item));
        }
        out[k] = (Float) fit(n, ScalarKind.F32, what);
      }
      return new Value.Literal(out, target);
    }
    if (target.list()) {
      if (!(lit instanceof Ast.ListLit list)) {
        throw names.err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
      }
      PropertyType element = elementOf(target);
      List<Object> items = new ArrayList<>();
      for (Ast.Literal item : list.items()) {
        if (item instanceof Ast.Null) {
          throw names.err(item.pos(), what + " holds no null elements");
        }
        items.add(literalOfType(item, element, false, what + " element").value());
      }
      return new Value.Literal(List.copyOf(items), target);
    }
    Object v;
    ScalarKind k = target.kind();
    if (lit instanceof Ast.Str s && k == ScalarKind.STRING) {
      v = s.value();
    } else if (lit instanceof Ast.Str s && k == ScalarKind.ENUM) {
      if (!target.enumValues().contains(s.value())) {
        throw names.err(s.pos(), "\"" + s.value() + "\" is not a variant of " + what + Hints.hint(s.value(),
            target.enumValues()) + "; the variants are " + String.join(", ", target.enumValues()));
      }
      v = s.value();
    } else if (lit instanceof Ast.Str s && k == ScalarKind.BLOB) {
      v = dev.omnigraph.schema.BlobValue.parse(s.value());
    } else if (lit instanceof Ast.Num n && k.isNumeric()) {
      v = fit(n, k, what);
    } else if (lit instanceof Ast.Bool b && k == ScalarKind.BOOL) {
      v = b.value();
    } else if (lit instanceof Ast.DateLit d && k == ScalarKind.DATE) {
      v = date(d);
    } else if (lit instanceof Ast.DateTimeLit d && k == ScalarKind.DATETIME) {
      v = instant(d);
    } else if (lit instanceof Ast.Str s && (k == ScalarKind.DATE || k == ScalarKind.DATETIME)) {
      throw names.err(s.pos(), what + " is " + target.display() + "; write it as "
          + (k == ScalarKind.DATE ? "date" : "datetime") + "(\"" + s.value() + "\")");
    } else {
      throw names.err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
    }
    return new Value.Literal(v, target);
  }

  private Object fit(Ast.Num n, ScalarKind kind, String what) {
    try {
      return Values.number(n.value(), kind);
    } catch (Values.Misfit m) {
      throw names.err(n.pos(), what + ": " + m.getMessage());
    }
  }

  static boolean orderable(PropertyType t) {
    return !t.list() && t.kind() != ScalarKind.VECTOR && t.kind() != ScalarKind.BLOB;
  }
}
