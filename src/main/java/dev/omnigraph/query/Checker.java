package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** One typecheck of one declaration; see {@link QueryChecker}. */
final class Checker {

  private static final PropertyType ID = PropertyType.scalar(ScalarKind.STRING, false);
  private static final PropertyType I64 = PropertyType.scalar(ScalarKind.I64, false);
  private static final PropertyType F64 = PropertyType.scalar(ScalarKind.F64, false);

  private final Ast.Decl decl;
  private final Catalog catalog;
  private final Map<String, ParamDecl> params = new LinkedHashMap<>();

  Checker(Ast.Decl decl, Catalog catalog) {
    this.decl = decl;
    this.catalog = catalog;
    decl.params().forEach(p -> params.put(p.name(), p));
  }

  CheckedQuery check() {
    if (decl.body() instanceof Ast.Read read) {
      return read(read);
    }
    return mutation((Ast.Mutations) decl.body());
  }

  // =====================================================================================
  // reads
  // =====================================================================================

  /** Variables in scope: their node types and where each was first bound, for messages. */
  /** Node variables by type, where each was first bound, and edge variables ({@code $w:knows}) by edge. */
  private record Scope(Map<String, NodeType> types, Map<String, Ast.Pos> boundAt, Map<String, EdgeType> edges) {
    static Scope empty() {
      return new Scope(new LinkedHashMap<>(), new HashMap<>(), new LinkedHashMap<>());
    }

    Scope copy() {
      return new Scope(new LinkedHashMap<>(types), new HashMap<>(boundAt), new LinkedHashMap<>(edges));
    }
  }

  private CheckedRead read(Ast.Read read) {
    Scope scope = Scope.empty();
    List<Clause> match = new ArrayList<>();
    clauses(read.match(), scope, match);

    List<Column> columns = new ArrayList<>();
    Map<String, Ast.Pos> columnPos = new HashMap<>();
    for (Ast.Projection p : read.projections()) {
      Column c = p.expr() instanceof Ast.PropRef ref ? projection(ref, p.alias(), scope)
          : p.expr() instanceof Ast.Agg agg ? aggregate(agg, p.alias(), scope)
          : p.expr() instanceof Ast.Call call ? scored(call, p.alias(), scope)
          : returned(p.expr(), p.alias(), scope);
      Ast.Pos at = p.alias() != null ? p.alias().pos() : pos(p.expr());
      Ast.Pos previous = columnPos.putIfAbsent(c.name(), at);
      if (previous != null) {
        throw err(at, "return column '" + c.name() + "' is produced twice (first at " + previous
            + "); give one of them its own name with 'as'");
      }
      columns.add(c);
    }
    boolean aggregating = columns.stream().anyMatch(c -> c instanceof Column.Aggregate);

    List<OrderKey> order = new ArrayList<>();
    for (Ast.Ordering o : read.order()) {
      order.add(orderKey(o, columns, aggregating, scope));
    }
    searchNeeds(read, aggregating);
    OptionalLong limit = read.limit() == null ? OptionalLong.empty() : OptionalLong.of(read.limit());
    return new CheckedRead(decl.name(), decl.params(), scope.types(), match, columns, order, limit);
  }

  private void clauses(List<Ast.Clause> clauses, Scope scope, List<Clause> out) {
    for (Ast.Clause c : clauses) {
      if (c instanceof Ast.Binding b) {
        binding(b, scope, out);
      } else if (c instanceof Ast.Traversal t) {
        out.add(traversal(t, scope));
      } else if (c instanceof Ast.Filter f) {
        out.add(filter(f, scope));
      } else if (c instanceof Ast.Call call) {
        out.add(textMatch(call, scope));
      } else {
        out.add(negation((Ast.Negation) c, scope));
      }
    }
  }

  private void binding(Ast.Binding b, Scope scope, List<Clause> out) {
    String var = b.var().text();
    notAParameter(b.var());
    NodeType type = nodeType(b.type());
    NodeType existing = scope.types().get(var);
    if (existing != null && !existing.name().equals(type.name())) {
      throw err(b.type().pos(), "variable $" + var + " is already bound to " + existing.name() + " (at "
          + scope.boundAt().get(var) + "); it cannot also be a " + type.name());
    }
    scope.types().put(var, type);
    scope.boundAt().putIfAbsent(var, b.var().pos());
    out.add(new Clause.Bind(var, type));
    for (Ast.PropMatch m : b.matches()) {
      Operand.Property left = property(var, type, m.property());
      if (m.value() instanceof Ast.VarRef ref && !params.containsKey(ref.var().text())) {
        throw err(ref.pos(), "$" + ref.var().text() + " in a binding constraint must be a declared parameter"
            + " (compare two variables with a filter such as $" + var + "." + m.property().text() + " = $x.prop)");
      }
      // A constraint on a list property matches membership, as the reference does.
      Ast.Op op = left.type().list() && !(m.value() instanceof Ast.Lit l && l.literal() instanceof Ast.ListLit)
          && !(m.value() instanceof Ast.VarRef v && params.get(v.var().text()).type().list())
          ? Ast.Op.CONTAINS : Ast.Op.EQ;
      if (left.type().list() && op == Ast.Op.EQ) {
        throw err(m.value().pos(), "property '" + m.property().text() + "' of $" + var + " is a list ("
            + left.type().display() + "); a binding constraint matches one element, lists cannot be compared whole");
      }
      out.add(comparison(left, m.property().pos(), op, m.property().pos(), m.value(), scope));
    }
  }

  private Clause.Traverse traversal(Ast.Traversal t, Scope scope) {
    notAParameter(t.src());
    notAParameter(t.dst());
    EdgeType edge = catalog.edge(t.edge().text()).orElseThrow(() -> unknownEdge(t.edge()));
    if (t.undirected() && !edge.from().equals(edge.to())) {
      // As the reference's T22: such an edge is well-typed in at most one orientation.
      throw err(t.edge().pos(), "an undirected traversal needs an edge between one node type, but " + edge.name()
          + " goes " + edge.from() + " -> " + edge.to() + "; follow it in its direction, as in $"
          + t.src().text() + " " + t.edge().text() + " $" + t.dst().text());
    }
    int min = 1;
    int max = 1;
    Ast.Bounds b = t.bounds();
    if (b != null) {
      if (b.min() < 1) {
        throw err(b.minPos(), "hop bounds {" + b.min() + "," + (b.max() == null ? "" : b.max())
            + "}: the minimum must be at least 1");
      }
      if (b.max() == null) {
        throw err(b.pos(), "hop bounds {" + b.min() + ",}: unbounded traversal is not supported; give a maximum,"
            + " as in {" + b.min() + "," + Math.max(b.min(), 3) + "}");
      }
      if (b.max() < b.min()) {
        throw err(b.maxPos(), "hop bounds {" + b.min() + "," + b.max() + "}: the maximum must be at least the minimum");
      }
      if (b.max() > Integer.MAX_VALUE) {
        throw err(b.maxPos(), "hop bound " + b.max() + " is too large");
      }
      min = b.min().intValue();
      max = b.max().intValue();
    }
    String edgeVar = null;
    if (t.edgeVar() != null) {
      edgeVar = t.edgeVar().text();
      notAParameter(t.edgeVar());
      // As the reference's T23: a path of several hops matches many edges, so there is none to bind.
      if (max != 1) {
        throw err(t.edgeVar().pos(), "$" + edgeVar + " binds one edge, but {" + min + "," + max + "} matches paths"
            + " of several; bind the edge on a one-hop traversal");
      }
      if (scope.types().containsKey(edgeVar) || scope.edges().containsKey(edgeVar)
          || edgeVar.equals(t.src().text()) || edgeVar.equals(t.dst().text())) {
        throw err(t.edgeVar().pos(), "$" + edgeVar + " is already bound"
            + (scope.boundAt().containsKey(edgeVar) ? " (at " + scope.boundAt().get(edgeVar) + ")" : "")
            + "; an edge variable needs a name of its own");
      }
    }
    endpoint(t.src(), edge, true, t, scope);
    endpoint(t.dst(), edge, false, t, scope);
    if (edgeVar != null) {
      scope.edges().put(edgeVar, edge);
      scope.boundAt().put(edgeVar, t.edgeVar().pos());
    }
    return new Clause.Traverse(t.src().text(), edge, t.dst().text(), min, max, t.undirected(), edgeVar);
  }

  /**
   * Checks or binds one end of a traversal. Direction is as written: the reference would silently
   * follow the edge backwards when only that typechecks, but then {@code $c worksAt $p} would mean
   * "$p works at $c"; we refuse it and say how to write it.
   */
  private void endpoint(Ast.Name var, EdgeType edge, boolean source, Ast.Traversal t, Scope scope) {
    String expected = source ? edge.from() : edge.to();
    NodeType bound = scope.types().get(var.text());
    if (bound == null) {
      scope.types().put(var.text(), catalog.node(expected).orElseThrow());
      scope.boundAt().put(var.text(), var.pos());
      return;
    }
    if (bound.name().equals(expected)) {
      return;
    }
    String shape = edge.name() + ": " + edge.from() + " -> " + edge.to();
    String fix = "";
    String other = source ? edge.to() : edge.from();
    if (bound.name().equals(other)) {
      fix = "; to follow it the other way write $" + t.dst().text() + " " + t.edge().text() + " $" + t.src().text();
    }
    throw err(var.pos(), "variable $" + var.text() + " is a " + bound.name() + " but the " + (source ? "source" : "target")
        + " of edge " + shape + " is a " + expected + fix);
  }

  private Clause filter(Ast.Filter f, Scope scope) {
    Operand left = f.left() instanceof Ast.Lit ? null : operand(f.left(), scope);
    if (left == null) {
      // A literal on the left is compared the same way as on the right; only the order of the
      // operands matters for contains and starts_with, so keep it.
      Operand right = f.right() instanceof Ast.Lit ? null : operand(f.right(), scope);
      if (right == null) {
        return comparisonOfLiterals(f);
      }
      return comparisonLiteralLeft((Ast.Lit) f.left(), f.op(), f.opPos(), right, f.right().pos());
    }
    return comparison(left, f.left().pos(), f.op(), f.opPos(), f.right(), scope);
  }

  private Clause.Not negation(Ast.Negation n, Scope scope) {
    Scope inner = scope.copy();
    List<Clause> clauses = new ArrayList<>();
    clauses(n.clauses(), inner, clauses);
    Set<String> outer = new java.util.HashSet<>(scope.types().keySet());
    outer.addAll(scope.edges().keySet());
    if (!mentionsAny(clauses, outer)) {
      throw err(n.pos(), "not { ... } must mention a variable bound outside it; otherwise it would remove"
          + " every row or none");
    }
    return new Clause.Not(clauses);
  }

  private static boolean mentionsAny(List<Clause> clauses, Set<String> vars) {
    for (Clause c : clauses) {
      boolean hit;
      if (c instanceof Clause.Bind b) {
        hit = vars.contains(b.variable());
      } else if (c instanceof Clause.Traverse t) {
        hit = vars.contains(t.source()) || vars.contains(t.target())
            || (t.edgeVariable() != null && vars.contains(t.edgeVariable()));
      } else if (c instanceof Clause.Filter f) {
        hit = mentions(f.left(), vars) || mentions(f.right(), vars);
      } else if (c instanceof Clause.TextMatch m) {
        hit = vars.contains(m.field().variable());
      } else {
        hit = mentionsAny(((Clause.Not) c).clauses(), vars);
      }
      if (hit) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentions(Operand o, Set<String> vars) {
    return o instanceof Operand.Property p && vars.contains(p.variable());
  }

  // ---- return, order ----

  private Column.Projection projection(Ast.PropRef ref, Ast.Name alias, Scope scope) {
    Operand.Property p = propRef(ref, scope);
    return new Column.Projection(alias != null ? alias.text() : p.columnName(), p);
  }

  /**
   * {@code $p} (a bound node: its id, column {@code p}, as the reference projects a variable),
   * {@code $param}, a literal or {@code now()}.
   */
  private Column returned(Ast.ReturnExpr e, Ast.Name alias, Scope scope) {
    if (e instanceof Ast.VarRef v) {
      String var = v.var().text();
      String name = alias != null ? alias.text() : var;
      if (scope.edges().containsKey(var)) {
        throw err(v.pos(), "$" + var + " is a " + scope.edges().get(var).name() + " edge; return one of its properties,"
            + " as in $" + var + "." + (scope.edges().get(var).properties().isEmpty() ? "prop"
            : scope.edges().get(var).properties().get(0).name()));
      }
      if (scope.types().containsKey(var)) {
        return new Column.Projection(name, new Operand.Property(var, "id", ID));
      }
      ParamDecl p = params.get(var);
      if (p == null) {
        throw unbound(v.var());
      }
      return new Column.Constant(name, new Value.Param(var, p.type()));
    }
    if (e instanceof Ast.Now) {
      return new Column.Constant(alias != null ? alias.text() : "now", new Value.Now());
    }
    Ast.Literal lit = ((Ast.Lit) e).literal();
    return new Column.Constant(alias != null ? alias.text() : "literal", literalOwnType(lit));
  }

  /** A literal at the type it spells by itself: String, I64, F64, Bool, Date, DateTime, or a list of one of them. */
  private Value.Literal literalOwnType(Ast.Literal lit) {
    if (lit instanceof Ast.Null n) {
      throw err(n.pos(), "a bare null has no type to return; return a property, or give the value a type");
    }
    if (lit instanceof Ast.ListLit list) {
      if (list.items().isEmpty()) {
        throw err(list.pos(), "an empty list has no element type to return");
      }
      PropertyType element = literalOwnType(list.items().get(0)).type();
      if (element.list()) {
        throw err(list.items().get(0).pos(), "lists of lists are not values");
      }
      return literalOfType(lit, new PropertyType(element.kind(), true, false, element.enumValues(), 0), false,
          "this list (its first element is " + element.display() + ")");
    }
    if (lit instanceof Ast.Num n) {
      return naturalNumber(n);
    }
    PropertyType t = PropertyType.scalar(lit instanceof Ast.Str ? ScalarKind.STRING
        : lit instanceof Ast.Bool ? ScalarKind.BOOL
        : lit instanceof Ast.DateLit ? ScalarKind.DATE : ScalarKind.DATETIME, false);
    return literalOfType(lit, t, false);
  }

  private Column.Aggregate aggregate(Ast.Agg a, Ast.Name alias, Scope scope) {
    String fn = a.func().spelling();
    if (a.arg() instanceof Ast.VarRef v) {
      String var = v.var().text();
      if (scope.edges().containsKey(var)) {
        throw err(v.pos(), fn + "($" + var + "): $" + var + " is an edge; aggregate one of its properties");
      }
      if (!scope.types().containsKey(var)) {
        if (params.containsKey(var)) {
          throw err(v.pos(), fn + "($" + var + "): $" + var + " is a parameter; aggregates take a bound variable"
              + " or one of its properties");
        }
        throw unbound(v.var());
      }
      if (a.func() != AggFunc.COUNT) {
        throw err(v.pos(), fn + " needs a property, as in " + fn + "($" + var + ".prop); only count takes a bare"
            + " variable");
      }
      return new Column.Aggregate(alias != null ? alias.text() : var, AggFunc.COUNT, var, null, I64);
    }
    Operand.Property p = propRef((Ast.PropRef) a.arg(), scope);
    PropertyType t = p.type();
    PropertyType result = switch (a.func()) {
      case COUNT -> I64;
      case SUM, AVG -> {
        if (t.list() || !t.kind().isNumeric()) {
          throw err(a.arg().pos(), fn + " needs a numeric property, but $" + p.variable() + "." + p.property()
              + " is " + t.display());
        }
        yield PropertyType.scalar(ScalarKind.F64, true);
      }
      case MIN, MAX -> {
        if (!orderable(t)) {
          throw err(a.arg().pos(), fn + " needs a scalar property that can be ordered, but $" + p.variable() + "."
              + p.property() + " is " + t.display());
        }
        yield new PropertyType(t.kind(), false, true, t.enumValues(), 0);
      }
    };
    // Unaliased, an aggregate column is named after its argument, as the reference names it.
    return new Column.Aggregate(alias != null ? alias.text() : p.columnName(), a.func(), p.variable(), p, result);
  }

  private OrderKey orderKey(Ast.Ordering o, List<Column> columns, boolean aggregating, Scope scope) {
    Ast.OrderExpr key = o.key();
    if (key instanceof Ast.Call call) {
      Score score = score(call, scope, false);
      if (score instanceof Score.Nearest && o.direction() != null) {
        // As the reference: nearest() orders nearest first, nothing else is meaningful for a k-NN.
        throw err(o.direction(), "nearest() orders nearest first and takes no asc/desc");
      }
      // Relevance (bm25, rrf) ranks best first unless asc is written.
      boolean descending = !(score instanceof Score.Nearest) && (o.direction() == null || o.descending());
      return new OrderKey.ByScore(score, descending);
    }
    if (key instanceof Ast.OrderAlias a) {
      for (Column c : columns) {
        if (c.name().equals(a.alias().text())) {
          requireOrderable(c.type(), a.alias().pos(), "column '" + c.name() + "'");
          return new OrderKey.ByColumn(c.name(), o.descending());
        }
      }
      List<String> names = columns.stream().map(Column::name).toList();
      throw err(a.alias().pos(), "order key '" + a.alias().text() + "' is not a return column"
          + Hints.hint(a.alias().text(), names) + "; the columns are " + String.join(", ", names));
    }
    if (key instanceof Ast.Agg agg) {
      Column.Aggregate wanted = aggregate(agg, null, scope);
      for (Column c : columns) {
        if (c instanceof Column.Aggregate ca && ca.function() == wanted.function()
            && ca.variable().equals(wanted.variable()) && Objects.equals(ca.property(), wanted.property())) {
          return new OrderKey.ByColumn(c.name(), o.descending());
        }
      }
      throw err(agg.pos(), "order by " + agg.func().spelling() + "(...) needs the same aggregate in return;"
          + " return it (with an alias) and order by the alias");
    }
    Ast.PropRef ref = (Ast.PropRef) key;
    Operand.Property p = propRef(ref, scope);
    requireOrderable(p.type(), ref.property().pos(), "$" + p.variable() + "." + p.property());
    for (Column c : columns) {
      if (c instanceof Column.Projection cp && cp.property().equals(p)) {
        return new OrderKey.ByColumn(c.name(), o.descending());
      }
    }
    if (aggregating) {
      throw err(ref.pos(), "order key $" + p.variable() + "." + p.property() + " is not returned; an aggregating"
          + " query can only be ordered by its returned columns (the group keys and the aggregates)");
    }
    return new OrderKey.ByProperty(p, o.descending());
  }

  private void requireOrderable(PropertyType t, Ast.Pos at, String what) {
    if (!orderable(t)) {
      throw err(at, "cannot order by " + what + ": " + t.display() + " values have no order");
    }
  }

  private static boolean orderable(PropertyType t) {
    return !t.list() && t.kind() != ScalarKind.VECTOR;
  }

  // ---- search functions ----

  private static final Map<String, TextMode> TEXT_FUNCTIONS = Map.of(
      "search", TextMode.SEARCH, "fuzzy", TextMode.FUZZY, "match_text", TextMode.MATCH_TEXT);

  /** {@code search(...)}, {@code fuzzy(...)}, {@code match_text(...)} as a match clause. */
  private Clause.TextMatch textMatch(Ast.Call c, Scope scope) {
    String fn = c.fn().text();
    TextMode mode = TEXT_FUNCTIONS.get(fn);
    if (mode == null) {
      throw err(c.pos(), fn + "() ranks rows rather than filtering them; use it in order or return, as in order { "
          + fn + "(...) } limit 10");
    }
    arity(c, 2, mode == TextMode.FUZZY ? 3 : 2);
    Operand.Property field = textField(c, fn, scope);
    Value query = stringArg(c.args().get(1), fn + " query");
    Value edits = c.args().size() == 3 ? integerArg(c.args().get(2), "fuzzy max_edits", 0) : null;
    return new Clause.TextMatch(field, mode, query, edits);
  }

  /** A return column of a score. */
  private Column.Scored scored(Ast.Call c, Ast.Name alias, Scope scope) {
    Score score = score(c, scope, false);
    return new Column.Scored(alias != null ? alias.text() : score.function(), score);
  }

  /** {@code nearest(...)}, {@code bm25(...)}, {@code rrf(...)} in return or order. */
  private Score score(Ast.Call c, Scope scope, boolean inRrf) {
    String fn = c.fn().text();
    if (TEXT_FUNCTIONS.containsKey(fn)) {
      throw err(c.pos(), fn + "() is a match filter: write it in match { ... }; for a relevance score use bm25(...)");
    }
    switch (fn) {
      case "nearest" -> {
        arity(c, 2, 2);
        Operand.Property field = nodeProperty(c.args().get(0), fn, scope);
        PropertyType t = field.type();
        if (t.list() || t.kind() != ScalarKind.VECTOR) {
          throw err(c.args().get(0).pos(), "nearest needs a Vector property, but " + describe(field) + " is not one");
        }
        return new Score.Nearest(field, vectorQuery(c.args().get(1), field));
      }
      case "bm25" -> {
        arity(c, 2, 2);
        return new Score.Bm25(textField(c, fn, scope), stringArg(c.args().get(1), "bm25 query"));
      }
      default -> {
        if (inRrf) {
          throw err(c.pos(), "rrf() fuses nearest(...) and bm25(...) rankings; it cannot fuse another rrf()");
        }
        arity(c, 2, 3);
        Score primary = rank(c.args().get(0), scope);
        Score secondary = rank(c.args().get(1), scope);
        if (!primary.variable().equals(secondary.variable())) {
          throw err(c.args().get(1).pos(), "rrf() fuses two rankings of the same variable, but they rank $"
              + primary.variable() + " and $" + secondary.variable());
        }
        Value k = c.args().size() == 3 ? integerArg(c.args().get(2), "rrf k", 1) : null;
        return new Score.Rrf(primary, secondary, k);
      }
    }
  }

  private Score rank(Ast.Arg arg, Scope scope) {
    if (arg instanceof Ast.Call call && (call.fn().text().equals("nearest") || call.fn().text().equals("bm25"))) {
      return score(call, scope, true);
    }
    if (arg instanceof Ast.Call call && call.fn().text().equals("rrf")) {
      return score(call, scope, true); // refused there, with the reason
    }
    throw err(arg.pos(), "rrf() ranks with nearest(...) or bm25(...), not "
        + (arg instanceof Ast.Call call ? call.fn().text() + "(...)" : "a value"));
  }

  private void arity(Ast.Call c, int min, int max) {
    int n = c.args().size();
    if (n < min || n > max) {
      String want = min == max ? "exactly " + min : min + " or " + max;
      throw err(c.pos(), c.fn().text() + "() takes " + want + " arguments, got " + n);
    }
  }

  /** The first argument of a text function: a free-text String property of a node variable. */
  private Operand.Property textField(Ast.Call c, String fn, Scope scope) {
    Operand.Property field = nodeProperty(c.args().get(0), fn, scope);
    PropertyType t = field.type();
    Ast.Pos at = c.args().get(0).pos();
    if (field.isId()) {
      throw err(at, fn + " searches a declared String property; $" + field.variable() + ".id has no full-text index");
    }
    if (t.list() || t.kind() != ScalarKind.STRING) {
      throw err(at, fn + " needs a free-text String property, but " + describe(field) + " is not one"
          + (t.kind() == ScalarKind.ENUM && !t.list() ? " (an enum is matched with =)" : ""));
    }
    return field;
  }

  /** {@code $v.prop} of a node variable bound outside {@code not} (search runs on node tables). */
  private Operand.Property nodeProperty(Ast.Arg arg, String fn, Scope scope) {
    if (!(arg instanceof Ast.OperandArg oa) || !(oa.operand() instanceof Ast.PropRef ref)) {
      throw err(arg.pos(), fn + "() needs a property of a bound node as its first argument, as in " + fn + "($d.prop, ...)");
    }
    String var = ref.var().text();
    if (scope.edges().containsKey(var)) {
      // As the reference's T23: search runs on node tables; an edge has no scan to search.
      throw err(ref.pos(), fn + " cannot target the edge property $" + var + "." + ref.property().text()
          + "; search runs on node properties (edge properties support comparison filters and projection)");
    }
    return propRef(ref, scope);
  }

  /** A String query: a literal or a String parameter (optional: a null query matches nothing). */
  private Value stringArg(Ast.Arg arg, String what) {
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.Lit lit && lit.literal() instanceof Ast.Str s) {
      return new Value.Literal(s.value(), PropertyType.scalar(ScalarKind.STRING, false));
    }
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.VarRef v && params.containsKey(v.var().text())) {
      Value.Param p = param(v);
      if (!p.type().list() && p.type().kind() == ScalarKind.STRING) {
        return p;
      }
      throw err(v.pos(), what + " must be a String, but $" + p.name() + " is " + p.type().display());
    }
    throw err(arg.pos(), what + " must be a String literal or parameter");
  }

  /** An integer literal of at least {@code min}, or an integer parameter (checked when bound). */
  private Value integerArg(Ast.Arg arg, String what, long min) {
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.Lit lit && lit.literal() instanceof Ast.Num n
        && n.integral()) {
      if (n.value().compareTo(java.math.BigDecimal.valueOf(min)) < 0
          || n.value().compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
        throw err(n.pos(), what + " must be " + (min == 0 ? "at least 0" : "greater than 0") + ", got " + n.text());
      }
      return new Value.Literal(n.value().longValueExact(), I64);
    }
    if (arg instanceof Ast.OperandArg oa && oa.operand() instanceof Ast.VarRef v && params.containsKey(v.var().text())) {
      Value.Param p = param(v);
      if (!p.type().list() && (p.type().kind() == ScalarKind.I32 || p.type().kind() == ScalarKind.I64
          || p.type().kind() == ScalarKind.U32 || p.type().kind() == ScalarKind.U64)) {
        return p;
      }
      throw err(v.pos(), what + " must be an integer, but $" + p.name() + " is " + p.type().display());
    }
    throw err(arg.pos(), what + " must be an integer literal or parameter");
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
      Value.Literal v = literalOfType(lit.literal(), new PropertyType(ScalarKind.VECTOR, false, false, List.of(),
          target.vectorDim()), false, "the nearest query for " + describe(field));
      return v;
    }
    if (o instanceof Ast.Lit lit && lit.literal() instanceof Ast.Str) {
      throw noEmbedder(lit.pos(), "the text \"" + ((Ast.Str) lit.literal()).value() + "\"", dims);
    }
    if (o instanceof Ast.VarRef v && params.containsKey(v.var().text())) {
      Value.Param p = param(v);
      PropertyType t = p.type();
      if (!t.list() && t.kind() == ScalarKind.VECTOR) {
        if (t.vectorDim() != target.vectorDim()) {
          throw err(v.pos(), "nearest vector dimension mismatch: " + describe(field) + ", but $" + p.name() + " is "
              + t.display());
        }
        return p;
      }
      if (!t.list() && t.kind() == ScalarKind.STRING) {
        throw noEmbedder(v.pos(), "$" + p.name() + " (" + t.display() + ")", dims);
      }
      throw err(v.pos(), "the nearest query must be " + dims + ", but $" + p.name() + " is " + t.display());
    }
    throw err(arg.pos(), "the nearest query must be a " + dims + " parameter or a list of " + target.vectorDim()
        + " numbers");
  }

  private NoEmbedderException noEmbedder(Ast.Pos at, String what, String dims) {
    return new NoEmbedderException(at.line(), at.column(), decl.name(), "nearest() got " + what
        + ", but no embedder is configured to turn text into a vector; pass a " + dims + " parameter"
        + " (or a list of numbers) instead");
  }

  /**
   * What scores need from the rest of the query: nearest() and rrf() need a limit (the number of
   * nearest rows, and the depth of a nearest ranking), and only bm25 stands beside aggregates.
   */
  private void searchNeeds(Ast.Read read, boolean aggregating) {
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
        throw err(c.pos(), c.fn().text() + "() scores rows; it cannot stand beside aggregates");
      }
      Ast.Call needsLimit = c.fn().text().equals("nearest") || c.fn().text().equals("rrf") ? c : null;
      if (needsLimit != null && read.limit() == null) {
        throw err(c.pos(), c.fn().text() + "() needs a limit: " + (c.fn().text().equals("nearest")
            ? "it returns the limit nearest rows" : "each nearest ranking holds the limit nearest rows")
            + "; add limit N after order");
      }
      for (Ast.Arg a : c.args()) {
        if (a instanceof Ast.Call inner && inner.fn().text().equals("nearest") && read.limit() == null) {
          throw err(inner.pos(), "nearest() needs a limit: a nearest ranking holds the limit nearest rows;"
              + " add limit N after order");
        }
      }
    }
  }

  // ---- operands ----

  private Operand operand(Ast.Operand o, Scope scope) {
    if (o instanceof Ast.PropRef ref) {
      return propRef(ref, scope);
    }
    if (o instanceof Ast.Now) {
      return new Value.Now();
    }
    if (!(o instanceof Ast.VarRef v)) {
      throw new IllegalStateException("literals are typed against the other operand");
    }
    String name = v.var().text();
    if (scope.types().containsKey(name)) {
      throw err(v.pos(), "$" + name + " is a " + scope.types().get(name).name()
          + " node; compare one of its properties, as in $" + name + ".id");
    }
    if (scope.edges().containsKey(name)) {
      throw err(v.pos(), "$" + name + " is a " + scope.edges().get(name).name()
          + " edge; compare one of its properties");
    }
    ParamDecl p = params.get(name);
    if (p == null) {
      throw unbound(v.var());
    }
    return new Value.Param(name, p.type());
  }

  private Operand.Property propRef(Ast.PropRef ref, Scope scope) {
    String var = ref.var().text();
    EdgeType edge = scope.edges().get(var);
    if (edge != null) {
      // Only declared properties, as in the reference: the edge's id and endpoints are not values of it.
      Property p = edge.property(ref.property().text()).orElseThrow(() -> err(ref.property().pos(), "$" + var
          + " is a " + edge.name() + " edge, which has no property '" + ref.property().text() + "'"
          + Hints.hint(ref.property().text(), names(edge.properties())) + knownProperties(edge.properties())));
      return new Operand.Property(var, p.name(), p.type());
    }
    NodeType type = scope.types().get(var);
    if (type == null) {
      if (params.containsKey(var)) {
        throw err(ref.pos(), "$" + var + " is a parameter, not a node variable; it has no properties");
      }
      throw unbound(ref.var());
    }
    return property(var, type, ref.property());
  }

  private Operand.Property property(String var, NodeType type, Ast.Name prop) {
    if (prop.text().equals("id")) {
      return new Operand.Property(var, "id", ID);
    }
    Property p = type.property(prop.text()).orElseThrow(() -> err(prop.pos(), "variable $" + var + " is a "
        + type.name() + ", which has no property '" + prop.text() + "'"
        + Hints.hint(prop.text(), names(type.properties())) + knownProperties(type.properties())));
    return new Operand.Property(var, p.name(), p.type());
  }

  private QueryParseException unbound(Ast.Name var) {
    List<String> known = new ArrayList<>(params.keySet());
    return err(var.pos(), "$" + var.text() + " is not bound: no earlier clause binds it (as in $" + var.text()
        + ": Type or a traversal) and no parameter has that name" + Hints.hint(var.text(), known));
  }

  private void notAParameter(Ast.Name var) {
    if (params.containsKey(var.text())) {
      throw err(var.pos(), "$" + var.text() + " is a parameter of the query; a node variable needs another name");
    }
  }

  // ---- comparisons ----

  /** How an operand is named in a message: {@code $p.age (I32?)}, {@code 30 (integer)}. */
  private static String describe(Operand o) {
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

  private static String describe(Ast.Literal l) {
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
  private Clause.Filter comparison(Operand left, Ast.Pos leftPos, Ast.Op op, Ast.Pos opPos, Ast.Operand right,
      Scope scope) {
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
    return resolvedComparison(left, leftPos, op, opPos, operand(right, scope), right.pos());
  }

  private Clause.Filter resolvedComparison(Operand left, Ast.Pos leftPos, Ast.Op op, Ast.Pos opPos, Operand right,
      Ast.Pos rightPos) {
    PropertyType l = left.type();
    PropertyType r = right.type();
    switch (op) {
      case CONTAINS -> {
        if (l.list()) {
          if (r.list() || !compatible(elementOf(l), r)) {
            throw err(rightPos, "cannot test whether " + describe(left) + " contains " + describe(right)
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
          throw err(opPos, "cannot compare " + describe(left) + " with " + describe(right));
        }
        return new Clause.Filter(left, compareOp(op), right);
      }
    }
  }

  /** {@code "x" op $p.prop}: the literal is typed by the right operand. */
  private Clause.Filter comparisonLiteralLeft(Ast.Lit lit, Ast.Op op, Ast.Pos opPos, Operand right, Ast.Pos rightPos) {
    Ast.Literal l = lit.literal();
    if (l instanceof Ast.Null) {
      return nullTest(right, op, opPos);
    }
    if (op == Ast.Op.CONTAINS && l instanceof Ast.ListLit list) {
      if (right.type().list() || !orderable(right.type())) {
        throw err(rightPos, "a list literal contains single values, not " + describe(right));
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
    throw err(l.pos(), op.spelling + " compares strings, not " + describe(l));
  }

  private Clause.Filter comparisonOfLiterals(Ast.Filter f) {
    throw err(f.left().pos(), "a filter compares a property or a parameter; two literals compare the same way"
        + " on every row");
  }

  private Clause.Filter nullTest(Operand left, Ast.Op op, Ast.Pos opPos) {
    if (op != Ast.Op.EQ && op != Ast.Op.NE) {
      throw err(opPos, "null can only be tested with = or !=, not " + op.spelling);
    }
    if (!left.type().nullable()) {
      throw err(opPos, describe(left) + " is never null, so this test is always "
          + (op == Ast.Op.EQ ? "false" : "true"));
    }
    CompareOp c = op == Ast.Op.EQ ? CompareOp.IS_NULL : CompareOp.IS_NOT_NULL;
    return new Clause.Filter(left, c, new Value.Literal(null, left.type()));
  }

  private Clause.Filter containsLiteral(Operand left, Ast.Pos leftPos, Ast.Pos opPos, Ast.Literal lit) {
    PropertyType l = left.type();
    if (l.list()) {
      if (lit instanceof Ast.ListLit) {
        throw err(lit.pos(), "contains tests one element; " + describe(left) + " cannot contain a whole list");
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
    throw err(lit.pos(), "cannot compare " + describe(left) + " with " + describe(lit) + ": it needs a string");
  }

  private void requireString(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list() || !(t.kind() == ScalarKind.STRING || t.kind() == ScalarKind.ENUM)) {
      throw err(at, op.spelling + " needs a String " + (op == Ast.Op.CONTAINS ? "or a list " : "") + "on the left, but "
          + describe(o) + " is not one");
    }
  }

  private void requireStringOperand(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list() || !(t.kind() == ScalarKind.STRING || t.kind() == ScalarKind.ENUM)) {
      throw err(at, op.spelling + " needs a String to look for, but " + describe(o) + " is not one");
    }
  }

  private void requireComparable(Operand o, Ast.Pos at, Ast.Op op) {
    PropertyType t = o.type();
    if (t.list()) {
      throw err(at, describe(o) + " is a list; lists cannot be compared with " + op.spelling
          + ", use contains to test membership");
    }
    if (t.kind() == ScalarKind.VECTOR) {
      throw err(at, describe(o) + " is a vector; vectors cannot be compared with " + op.spelling);
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
          throw err(s.pos(), "\"" + s.value() + "\" is not a variant of " + other + Hints.hint(s.value(),
              t.enumValues()) + "; the variants are " + String.join(", ", t.enumValues()));
        }
        return new Value.Literal(s.value(), scalarT);
      }
      if (t.kind() == ScalarKind.STRING) {
        return new Value.Literal(s.value(), scalarT);
      }
      if (t.kind() == ScalarKind.DATE || t.kind() == ScalarKind.DATETIME) {
        String fn = t.kind() == ScalarKind.DATE ? "date" : "datetime";
        throw err(s.pos(), mismatch + "; write a " + t.kind().spelling() + " as " + fn + "(\"" + s.value() + "\")");
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
      throw err(lit.pos(), mismatch + "; use contains to test membership");
    }
    throw err(lit.pos(), mismatch);
  }

  private Value.Literal naturalNumber(Ast.Num n) {
    ScalarKind kind = n.integral() ? ScalarKind.I64 : ScalarKind.F64;
    try {
      return new Value.Literal(Values.number(n.value(), kind), n.integral() ? I64 : F64);
    } catch (Values.Misfit m) {
      throw err(n.pos(), m.getMessage());
    }
  }

  private LocalDate date(Ast.DateLit d) {
    try {
      return Values.date(d.text());
    } catch (Values.Misfit m) {
      throw err(d.textPos(), m.getMessage());
    }
  }

  private Instant instant(Ast.DateTimeLit d) {
    try {
      return Values.instant(d.text());
    } catch (Values.Misfit m) {
      throw err(d.textPos(), m.getMessage());
    }
  }

  // =====================================================================================
  // mutations
  // =====================================================================================

  private CheckedMutation mutation(Ast.Mutations body) {
    rejectMixedModes(body.statements());
    List<Statement> statements = new ArrayList<>();
    for (Ast.Mutation m : body.statements()) {
      if (m instanceof Ast.Insert i) {
        statements.add(insert(i));
      } else if (m instanceof Ast.Update u) {
        statements.add(update(u));
      } else {
        statements.add(delete((Ast.Delete) m));
      }
    }
    return new CheckedMutation(decl.name(), decl.params(), statements);
  }

  /**
   * The seed's D₂ rule: one mutation is either insert/update-only or delete-only. Pending inserts and
   * delete predicates in one query would make read-your-writes ambiguous and force two commits on a
   * table, so the mix is refused, first, before any catalog lookup. Checked here, for the query that
   * runs, and not when the file is parsed: the reference serves a file's other queries beside a mixed one.
   */
  private void rejectMixedModes(List<Ast.Mutation> statements) {
    Ast.Mutation first = statements.get(0);
    boolean destructive = first instanceof Ast.Delete;
    for (Ast.Mutation m : statements) {
      if ((m instanceof Ast.Delete) != destructive) {
        Ast.Mutation write = destructive ? m : first;
        Ast.Mutation delete = destructive ? first : m;
        throw err(m.pos(), "a mutation cannot mix " + keyword(write) + " with delete (" + keyword(write) + " "
            + write.type().text() + " at " + write.pos() + ", delete " + delete.type().text() + " at " + delete.pos()
            + "); split the query into separate mutations, one with the inserts and updates and then one"
            + " with the deletes (or run both on a branch and merge it for a single commit)");
      }
    }
  }

  private static String keyword(Ast.Mutation m) {
    return m instanceof Ast.Insert ? "insert" : m instanceof Ast.Update ? "update" : "delete";
  }

  private Statement insert(Ast.Insert i) {
    noDuplicates(i.assignments());
    Optional<NodeType> node = catalog.node(i.type().text());
    if (node.isPresent()) {
      NodeType type = node.get();
      Map<String, Value> values = new LinkedHashMap<>();
      for (Ast.Assign a : i.assignments()) {
        String prop = a.property().text();
        if (prop.equals("id")) {
          throw err(a.property().pos(), "insert " + type.name() + " cannot assign id: "
              + (type.isKeyed() ? "it derives from the key (" + String.join(", ", type.key()) + ")"
                  : "it is generated for a type without @key"));
        }
        Property p = declared(type.name(), type.properties(), a.property());
        values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + type.name()));
      }
      for (String k : type.key()) {
        if (!values.containsKey(k)) {
          throw err(i.type().pos(), "insert " + type.name() + " must set its key property '" + k + "'");
        }
      }
      for (Property p : type.properties()) {
        if (!p.type().nullable() && !values.containsKey(p.name())) {
          throw err(i.type().pos(), "insert " + type.name() + " must set non-nullable property '" + p.name()
              + "' (" + p.type().display() + ")");
        }
      }
      return new Statement.InsertNode(type, values);
    }
    EdgeType edge = catalog.edge(i.type().text()).orElseThrow(() -> unknownType(i.type(), true));
    Value from = null;
    Value to = null;
    Map<String, Value> values = new LinkedHashMap<>();
    for (Ast.Assign a : i.assignments()) {
      String prop = a.property().text();
      switch (prop) {
        case "from" -> from = endpointValue(a, edge, edge.from());
        case "to" -> to = endpointValue(a, edge, edge.to());
        case "id", "src", "dst" -> throw err(a.property().pos(), "insert " + edge.name() + " cannot assign " + prop
            + ": an edge's id is generated, and its endpoints are written from and to");
        default -> {
          Property p = declared(edge.name(), edge.properties(), a.property());
          values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + edge.name()));
        }
      }
    }
    if (from == null || to == null) {
      throw err(i.type().pos(), "insert " + edge.name() + " must set both endpoints, from (a " + edge.from()
          + " id) and to (a " + edge.to() + " id); missing " + (from == null ? "from" : "to"));
    }
    for (Property p : edge.properties()) {
      if (!p.type().nullable() && !values.containsKey(p.name())) {
        throw err(i.type().pos(), "insert " + edge.name() + " must set non-nullable property '" + p.name()
            + "' (" + p.type().display() + ")");
      }
    }
    return new Statement.InsertEdge(edge, from, to, values);
  }

  /** An edge endpoint: a node id, so a String literal or a non-optional String parameter. */
  private Value endpointValue(Ast.Assign a, EdgeType edge, String nodeType) {
    String what = a.property().text() + " of " + edge.name() + " (a " + nodeType + " id)";
    if (a.value() instanceof Ast.Lit l && l.literal() instanceof Ast.Str s) {
      return new Value.Literal(s.value(), ID);
    }
    if (!(a.value() instanceof Ast.VarRef v)) {
      throw err(a.value().pos(), what + " must be a string or a String parameter");
    }
    Value.Param p = param(v);
    if (p.type().list() || p.type().kind() != ScalarKind.STRING) {
      throw err(v.pos(), "$" + p.name() + " is " + p.type().display() + ", but " + what + " is a String");
    }
    if (p.type().nullable()) {
      throw err(v.pos(), "$" + p.name() + " is optional (" + p.type().display() + "), but " + what + " is required");
    }
    return p;
  }

  private Statement update(Ast.Update u) {
    noDuplicates(u.assignments());
    Optional<NodeType> node = catalog.node(u.type().text());
    if (node.isEmpty()) {
      if (catalog.edge(u.type().text()).isPresent()) {
        throw err(u.type().pos(), "edges cannot be updated: " + u.type().text() + " is an edge type; delete the edge"
            + " and insert it again");
      }
      throw unknownType(u.type(), false);
    }
    NodeType type = node.get();
    Map<String, Value> values = new LinkedHashMap<>();
    for (Ast.Assign a : u.assignments()) {
      String prop = a.property().text();
      if (prop.equals("id")) {
        throw err(a.property().pos(), "update " + type.name() + " cannot set id: ids are immutable");
      }
      Property p = declared(type.name(), type.properties(), a.property());
      if (type.key().contains(prop)) {
        throw err(a.property().pos(), "update " + type.name() + " cannot set key property '" + prop
            + "': keys are immutable because the id derives from them; delete the node and insert a new one");
      }
      values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + type.name()));
    }
    return new Statement.Update(type, values, predicate(u.where(), type.name(), type.properties(), false));
  }

  private Statement delete(Ast.Delete d) {
    Optional<NodeType> node = catalog.node(d.type().text());
    if (node.isPresent()) {
      return new Statement.DeleteNode(node.get(), predicate(d.where(), node.get().name(), node.get().properties(), false));
    }
    EdgeType edge = catalog.edge(d.type().text()).orElseThrow(() -> unknownType(d.type(), true));
    return new Statement.DeleteEdge(edge, predicate(d.where(), edge.name(), edge.properties(), true));
  }

  private Predicate predicate(Ast.Pred p, String typeName, List<Property> properties, boolean edge) {
    String name = p.property().text();
    String column;
    PropertyType type;
    if (name.equals("id") || (edge && (name.equals("from") || name.equals("to")))) {
      column = name.equals("from") ? "src" : name.equals("to") ? "dst" : "id";
      type = ID;
    } else {
      Property declared = declared(typeName, properties, p.property());
      column = declared.name();
      type = declared.type();
    }
    if (p.value() instanceof Ast.VarRef v) {
      param(v);
    }
    // The '@' marks a mutation target rather than a match variable, for messages only.
    Operand.Property left = new Operand.Property("@" + typeName, column, type);
    Clause.Filter f = comparison(left, p.property().pos(), p.op(), p.opPos(), p.value(), Scope.empty());
    return new Predicate(column, type, f.op(), (Value) f.right());
  }

  private Property declared(String owner, List<Property> properties, Ast.Name prop) {
    return properties.stream().filter(x -> x.name().equals(prop.text())).findFirst()
        .orElseThrow(() -> err(prop.pos(), owner + " has no property '" + prop.text() + "'"
            + Hints.hint(prop.text(), names(properties)) + knownProperties(properties)));
  }

  private void noDuplicates(List<Ast.Assign> assignments) {
    Map<String, Ast.Pos> seen = new HashMap<>();
    for (Ast.Assign a : assignments) {
      Ast.Pos previous = seen.putIfAbsent(a.property().text(), a.property().pos());
      if (previous != null) {
        throw err(a.property().pos(), "property '" + a.property().text() + "' is assigned twice (first at "
            + previous + ")");
      }
    }
  }

  private Value.Param param(Ast.VarRef v) {
    ParamDecl p = params.get(v.var().text());
    if (p == null) {
      throw err(v.pos(), "$" + v.var().text() + " is not a declared parameter" + Hints.hint(v.var().text(),
          params.keySet()) + "; a mutation's values are literals, parameters or now()");
    }
    return new Value.Param(p.name(), p.type());
  }

  /**
   * A value assigned to a property. Stricter than a comparison: a parameter must have the property's
   * exact kind (a String may feed an enum, checked per row), an optional parameter may not feed a
   * non-nullable property, and a literal must fit the type exactly (no 2.5 into an I32).
   */
  private Value assigned(Ast.Operand value, PropertyType target, String what) {
    if (value instanceof Ast.Now n) {
      if (target.list() || target.kind() != ScalarKind.DATETIME) {
        throw err(n.pos(), "now() is a DateTime, but " + what + " is " + target.display());
      }
      return new Value.Now();
    }
    if (value instanceof Ast.Lit l) {
      return literalOfType(l.literal(), target, true, what);
    }
    Ast.VarRef v = (Ast.VarRef) value;
    Value.Param p = param(v);
    PropertyType t = p.type();
    boolean kindOk = t.kind() == target.kind() || (target.kind() == ScalarKind.ENUM && t.kind() == ScalarKind.STRING);
    if (!kindOk || t.list() != target.list() || t.vectorDim() != target.vectorDim()) {
      throw err(v.pos(), "parameter $" + p.name() + " is " + t.display() + ", but " + what + " is "
          + target.display());
    }
    if (t.nullable() && !target.nullable()) {
      throw err(v.pos(), "parameter $" + p.name() + " is optional (" + t.display() + "), but " + what
          + " is not nullable");
    }
    return p;
  }

  private Value.Literal literalOfType(Ast.Literal lit, PropertyType target, boolean allowNull) {
    return literalOfType(lit, target, allowNull, "a " + target.display() + " value");
  }

  private Value.Literal literalOfType(Ast.Literal lit, PropertyType target, boolean allowNull, String what) {
    if (lit instanceof Ast.Null n) {
      if (!allowNull || !target.nullable()) {
        throw err(n.pos(), what + " is not nullable, so it cannot be null");
      }
      return new Value.Literal(null, target);
    }
    if (target.kind() == ScalarKind.VECTOR) {
      if (!(lit instanceof Ast.ListLit list)) {
        throw err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
      }
      if (list.items().size() != target.vectorDim()) {
        throw err(lit.pos(), what + " is " + target.display() + ", but the list has " + list.items().size()
            + " elements");
      }
      float[] out = new float[list.items().size()];
      for (int k = 0; k < out.length; k++) {
        Ast.Literal item = list.items().get(k);
        if (!(item instanceof Ast.Num n)) {
          throw err(item.pos(), what + " is a vector of numbers, not " + describe(item));
        }
        out[k] = (Float) fit(n, ScalarKind.F32, what);
      }
      return new Value.Literal(out, target);
    }
    if (target.list()) {
      if (!(lit instanceof Ast.ListLit list)) {
        throw err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
      }
      PropertyType element = elementOf(target);
      List<Object> items = new ArrayList<>();
      for (Ast.Literal item : list.items()) {
        if (item instanceof Ast.Null) {
          throw err(item.pos(), what + " holds no null elements");
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
        throw err(s.pos(), "\"" + s.value() + "\" is not a variant of " + what + Hints.hint(s.value(),
            target.enumValues()) + "; the variants are " + String.join(", ", target.enumValues()));
      }
      v = s.value();
    } else if (lit instanceof Ast.Num n && k.isNumeric()) {
      v = fit(n, k, what);
    } else if (lit instanceof Ast.Bool b && k == ScalarKind.BOOL) {
      v = b.value();
    } else if (lit instanceof Ast.DateLit d && k == ScalarKind.DATE) {
      v = date(d);
    } else if (lit instanceof Ast.DateTimeLit d && k == ScalarKind.DATETIME) {
      v = instant(d);
    } else if (lit instanceof Ast.Str s && (k == ScalarKind.DATE || k == ScalarKind.DATETIME)) {
      throw err(s.pos(), what + " is " + target.display() + "; write it as "
          + (k == ScalarKind.DATE ? "date" : "datetime") + "(\"" + s.value() + "\")");
    } else {
      throw err(lit.pos(), what + " is " + target.display() + ", not " + describe(lit));
    }
    return new Value.Literal(v, target);
  }

  private Object fit(Ast.Num n, ScalarKind kind, String what) {
    try {
      return Values.number(n.value(), kind);
    } catch (Values.Misfit m) {
      throw err(n.pos(), what + ": " + m.getMessage());
    }
  }

  // =====================================================================================
  // names and errors
  // =====================================================================================

  private NodeType nodeType(Ast.Name name) {
    return catalog.node(name.text()).orElseThrow(() -> {
      if (catalog.edge(name.text()).isPresent()) {
        return err(name.pos(), name.text() + " is an edge type, not a node type; traverse it, as in $a "
            + name.text().toLowerCase(Locale.ROOT) + " $b");
      }
      return err(name.pos(), "unknown node type '" + name.text() + "'" + Hints.hint(name.text(), catalog.nodes().keySet())
          + known("node types", catalog.nodes().keySet()));
    });
  }

  private QueryParseException unknownEdge(Ast.Name name) {
    if (catalog.node(name.text()).isPresent()) {
      return err(name.pos(), name.text() + " is a node type, not an edge; bind it, as in $x: " + name.text());
    }
    return err(name.pos(), "unknown edge '" + name.text() + "'" + Hints.hint(name.text(), catalog.edges().keySet())
        + known("edges", catalog.edges().keySet()));
  }

  private QueryParseException unknownType(Ast.Name name, boolean edgesToo) {
    TreeSet<String> all = new TreeSet<>(catalog.nodes().keySet());
    if (edgesToo) {
      all.addAll(catalog.edges().keySet());
    }
    return err(name.pos(), "unknown " + (edgesToo ? "node or edge" : "node") + " type '" + name.text() + "'"
        + Hints.hint(name.text(), all) + known("types", all));
  }

  private static String known(String what, Collection<String> names) {
    return names.isEmpty() ? "; the schema declares no " + what : "; the schema's " + what + " are "
        + String.join(", ", names);
  }

  private static String knownProperties(List<Property> properties) {
    return properties.isEmpty() ? "; it has no properties" : "; its properties are "
        + String.join(", ", names(properties));
  }

  private static List<String> names(List<Property> properties) {
    return properties.stream().map(Property::name).toList();
  }

  private static Ast.Pos pos(Ast.ReturnExpr e) {
    return e.pos();
  }

  private QueryParseException err(Ast.Pos at, String reason) {
    return new QueryParseException(at.line(), at.column(), decl.name(), reason);
  }
}
