package dev.omnigraph.query;

import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The search functions: text match clauses, and the scores of nearest, bm25 and rrf. */
final class SearchCalls {

  private final Names names;
  private final Typing typing;

  SearchCalls(Names names, Typing typing) {
    this.names = names;
    this.typing = typing;
  }

  // ---- search functions ----

  static final Map<String, TextMode> TEXT_FUNCTIONS = Map.of(
      "search", TextMode.SEARCH, "fuzzy", TextMode.FUZZY, "match_text", TextMode.MATCH_TEXT);

  /** {@code search(...)}, {@code fuzzy(...)}, {@code match_text(...)} as a match clause. */
  Clause.TextMatch textMatch(Ast.Call c, CheckScope scope) {
    String fn = c.fn().text();
    TextMode mode = TEXT_FUNCTIONS.get(fn);
    if (mode == null) {
      throw names.err(c.pos(), fn + "() ranks rows rather than filtering them; use it in order or return, as in order { "
          + fn + "(...) } limit 10");
    }
    arity(c, 2, mode == TextMode.FUZZY ? 3 : 2);
    Operand.Property field = textField(c, fn, scope);
    Value query = stringArg(c.args().get(1), fn + " query");
    Value edits = c.args().size() == 3 ? integerArg(c.args().get(2), "fuzzy max_edits", 0) : null;
    return new Clause.TextMatch(field, mode, query, edits);
  }

  /** A return column of a score. */
  Column.Scored scored(Ast.Call c, Ast.Name alias, CheckScope scope) {
    Score score = score(c, scope, false);
    return new Column.Scored(alias != null ? alias.text() : score.function(), score);
  }

  /** {@code nearest(...)}, {@code bm25(...)}, {@code rrf(...)} in return or order. */
  Score score(Ast.Call c, CheckScope scope, boolean inRrf) {
    String fn = c.fn().text();
    if (TEXT_FUNCTIONS.containsKey(fn)) {
      throw names.err(c.pos(), fn + "() is a match filter: write it in match { ... }; for a relevance score use bm25(...)");
    }
    switch (fn) {
      case "nearest" -> {
        arity(c, 2, 2);
        Operand.Property field = nodeProperty(c.args().get(0), fn, scope);
        PropertyType t = field.type();
        if (t.list() || t.kind() != ScalarKind.VECTOR) {
          throw names.err(c.args().get(0).pos(), "nearest needs a Vector property, but " + typing.describe(field) + " is not one");
        }
        return new Score.Nearest(field, vectorQuery(c.args().get(1), field));
      }
      case "bm25" -> {
        arity(c, 2, 2);
        return new Score.Bm25(textField(c, fn, scope), stringArg(c.args().get(1), "bm25 query"));
      }
      default -> {
        if (inRrf) {
          throw names.err(c.pos(), "rrf() fuses nearest(...) and bm25(...) rankings; it cannot fuse another rrf()");
        }
        arity(c, 2, 3);
        Score primary = rank(c.args().get(0), scope);
        Score secondary = rank(c.args().get(1), scope);
        if (!primary.variable().equals(secondary.variable())) {
          throw names.err(c.args().get(1).pos(), "rrf() fuses two rankings of the same variable, but they rank $"
              + primary.variable() + " and $" + secondary.variable());
        }
        Value k = c.args().size() == 3 ? integerArg(c.args().get(2), "rrf k", 1) : null;
        return new Score.Rrf(primary, secondary, k);
      }
    }
  }

  private Score rank(Ast.Arg arg, CheckScope scope) {
    if (arg instanceof Ast.Call call && (call.fn().text().equals("nearest") || call.fn().text().equals("bm25"))) {
      return score(call, scope, true);
    }
    if (arg instanceof Ast.Call call && call.fn().text().equals("rrf")) {
      return score(call, scope, true); // refused there, with the reason
    }
    throw names.err(arg.pos(), "rrf() ranks with nearest(...) or bm25(...), not "
        + (arg instanceof Ast.Call call ? call.fn().text() + "(...)" : "a value"));
  }

  private void arity(Ast.Call c, int min, int max) {
    int n = c.args().size();
    if (n < min || n > max) {
      String want = min == max ? "exactly " + min : min + " or " + max;
      throw names.err(c.pos(), c.fn().text() + "() takes " + want + " arguments, got " + n);
    }
  }

  /** The first argument of a text function: a free-text String property of a node variable. */
  private Operand.Property textField(Ast.Call c, String fn, CheckScope scope) {
    Operand.Property field = nodeProperty(c.args().get(0), fn, scope);
    PropertyType t = field.type();
    Ast.Pos at = c.args().get(0).pos();
    if (field.isId()) {
      throw names.err(at, fn + " searches a declared String property; $" + field.variable() + ".id has no full-text index");
    }
    if (t.list() || t.kind() != ScalarKind.STRING) {
      throw names.err(at, fn + " needs a free-text String property, but " + typing.describe(field) + " is not one"
          + (t.kind() == ScalarKind.ENUM && !t.list() ? " (an enum is matched with =)" : ""));
    }
    return field;
  }

  /** {@code $v.prop} of a node variable bound outside {@code not} (search runs on node tables). */
  private Operand.Property nodeProperty(Ast.Arg arg, String fn, CheckScope scope) {
    if (!(arg instanceof Ast.OperandArg oa) || !(oa.operand() instanceof Ast.PropRef ref)) {
      throw names.err(arg.pos(), fn + "() needs a property of a bound node as its first argument, as in " + fn + "($d.prop, ...)");
    }
    String var = ref.var().text();
    if (scope.edges().containsKey(var)) {
      // As the reference's T23: search runs on node tables; an edge has no scan to search.
      throw names.err(ref.pos(), fn + " cannot target the edge property $" + var + "." + ref.property().text()
          + "; search runs on node properties (edge properties support comparison filters and projection)");
    }
    return names.propRef(ref, scope);
  }

  /** A String query: a literal or a String parameter (optional: a null query matches nothing). */
  private Value stringArg(Ast.Arg arg, String what) {
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.Lit lit && lit.literal() instanceof Ast.Str s) {
      return new Value.Literal(s.value(), PropertyType.scalar(ScalarKind.STRING, false));
    }
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.VarRef v && names.isParam(v.var().text())) {
      Value.Param p = names.param(v);
      if (!p.type().list() && p.type().kind() == ScalarKind.STRING) {
        return p;
      }
      throw names.err(v.pos(), what + " must be a String, but $" + p.name() + " is " + p.type().display());
    }
    throw names.err(arg.pos(), what + " must be a String literal or parameter");
  }

  /** An integer literal of at least {@code min}, or an integer parameter (checked when bound). */
  private Value integerArg(Ast.Arg arg, String what, long min) {
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.Lit lit && lit.literal() instanceof Ast.Num n
        && n.integral()) {
      if (n.value().compareTo(java.math.BigDecimal.valueOf(min)) < 0
          || n.value().compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
        throw names.err(n.pos(), what + " must be " + (min == 0 ? "at least 0" : "greater than 0") + ", got " + n.text());
      }
      return new Value.Literal(n.value().longValueExact(), Typing.I64);
    }
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.VarRef v && names.isParam(v.var().text())) {
      Value.Param p = names.param(v);
      if (!p.type().list() && (p.type().kind() == ScalarKind.I32 || p.type().kind() == ScalarKind.I64
          || p.type().kind() == ScalarKind.U32 || p.type().kind() == ScalarKind.U64)) {
        return p;
      }
      throw names.err(v.pos(), what + " must be an integer, but $" + p.name() + " is " + p.type().display());
    }
    throw names.err(arg.pos(), what + " must be an integer literal or parameter");
  }

  /**
   * The query of {@code nearest}: a {@code Vector(n)} parameter of the property's dimension, or a
   * literal list of n numbers. Text needs an embedder, and none is configured.
   */
  private Value vectorQuery(Ast.Arg arg, Operand.Property field) {
    PropertyType target = field.type();
    String dims = "Vector(" + target.vectorDim() + ")";
    Ast.Operand o = arg instanceof Ast.OperandArg oa ? oa.operand() : null;
    if (o instanceof Ast.Lit lit && lit.literal() instanceof Ast.ListLit) {
      Value.Literal v = typing.literalOfType(lit.literal(), new PropertyType(ScalarKind.VECTOR, false, false, List.of(),
          target.vectorDim()), false, "the nearest query for " + typing.describe(field));
      return v;
    }
    if (o instanceof Ast.Lit lit && lit.literal() instanceof Ast.Str) {
      throw noEmbedder(lit.pos(), "the text \"" + ((Ast.Str) lit.literal()).value() + "\"", dims);
    }
    if (o instanceof Ast.VarRef v && names.isParam(v.var().text())) {
      Value.Param p = names.param(v);
      PropertyType t = p.type();
      if (!t.list() && t.kind() == ScalarKind.VECTOR) {
        if (t.vectorDim() != target.vectorDim()) {
          throw names.err(v.pos(), "nearest vector dimension mismatch: " + typing.describe(field) + ", but $" + p.name() + " is "
              + t.display());
        }
        return p;
      }
      if (!t.list() && t.kind() == ScalarKind.STRING) {
        throw noEmbedder(v.pos(), "$" + p.name() + " (" + t.display() + ")", dims);
      }
      throw names.err(v.pos(), "the nearest query must be " + dims + ", but $" + p.name() + " is " + t.display());
    }
    throw names.err(arg.pos(), "the nearest query must be a " + dims + " parameter or a list of " + target.vectorDim()
        + " numbers");
  }

  private NoEmbedderException noEmbedder(Ast.Pos at, String what, String dims) {
    return new NoEmbedderException(at.line(), at.column(), names.decl().name(), "nearest() got " + what
        + ", but no embedder is configured to turn text into a vector; pass a " + dims + " parameter"
        + " (or a list of numbers) instead");
  }

  /**
   * What scores need from the rest of the query: nearest() and rrf() need a limit (the number of
   * nearest rows, and the depth of a nearest ranking), and only bm25 stands beside aggregates.
   */
  void searchNeeds(Ast.Read read, boolean aggregating) {
    List<Ast.Call> calls = new ArrayList<>();
    read.projections().forEach(p -> {
      if (p.expr() instanceof Ast.Call c) {
        calls.add(c);
      }
    });
    read.order().forEach(o -> {
      if (o.key() instanceof Ast.Call c) {
        calls.add(c);
      }
    });
    for (Ast.Call c : calls) {
      // bm25 scores every matching row, and the aggregates then fold those rows (the reference's
      // issue_563_aggregate_uncapped: count sees every match, the limit trims the groups). nearest
      // and rrf rank a window of `limit` nodes, which an aggregate would fold instead: not here yet.
      if (aggregating && !c.fn().text().equals("bm25")) {
        throw names.err(c.pos(), c.fn().text() + "() scores rows; it cannot stand beside aggregates");
      }
      Ast.Call needsLimit = c.fn().text().equals("nearest") || c.fn().text().equals("rrf") ? c : null;
      if (needsLimit != null && read.limit() == null) {
        throw names.err(c.pos(), c.fn().text() + "() needs a limit: " + (c.fn().text().equals("nearest")
            ? "it returns the limit nearest rows" : "each nearest ranking holds the limit nearest rows")
            + "; add limit N after order");
      }
      for (Ast.Arg a : c.args()) {
        if (a instanceof Ast.Call inner && inner.fn().text().equals("nearest") && read.limit() == null) {
          throw names.err(inner.pos(), "nearest() needs a limit: a nearest ranking holds the limit nearest rows;"
              + " add limit N after order");
        }
      }
    }
  }
}
