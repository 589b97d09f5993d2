package dev.omnigraph.query;

import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/** The typecheck of a read: match clauses, return columns, order and limit. */
final class ReadChecker {

  private final Names names;
  private final Typing typing;
  private final SearchCalls search;

  ReadChecker(Names names, Typing typing, SearchCalls search) {
    this.names = names;
    this.typing = typing;
    this.search = search;
  }


  CheckedRead read(Ast.Read read) {
    CheckScope scope = CheckScope.empty();
    List<Clause> match = new ArrayList<>();
    clauses(read.match(), scope, match);

    List<Column> columns = new ArrayList<>();
    Map<String, Ast.Pos> columnPos = new HashMap<>();
    for (Ast.Projection p : read.projections()) {
      Column c = p.expr() instanceof Ast.PropRef ref ? projection(ref, p.alias(), scope)
          : p.expr() instanceof Ast.Agg agg ? aggregate(agg, p.alias(), scope)
          : p.expr() instanceof Ast.Call call ? search.scored(call, p.alias(), scope)
          : returned(p.expr(), p.alias(), scope);
      Ast.Pos at = p.alias() != null ? p.alias().pos() : p.expr().pos();
      Ast.Pos previous = columnPos.putIfAbsent(c.name(), at);
      if (previous != null) {
        throw names.err(at, "return column '" + c.name() + "' is produced twice (first at " + previous
            + "); give one of them its own name with 'as'");
      }
      columns.add(c);
    }
    boolean aggregating = columns.stream().anyMatch(c -> c instanceof Column.Aggregate);

    List<OrderKey> order = new ArrayList<>();
    for (Ast.Ordering o : read.order()) {
      order.add(orderKey(o, columns, aggregating, scope));
    }
    search.searchNeeds(read, aggregating);
    OptionalLong limit = read.limit() == null ? OptionalLong.empty() : OptionalLong.of(read.limit());
    return new CheckedRead(names.decl().name(), names.decl().params(), scope.types(), match, columns, order, limit);
  }

  private void clauses(List<Ast.Clause> clauses, CheckScope scope, List<Clause> out) {
    for (Ast.Clause c : clauses) {
      if (c instanceof Ast.Binding b) {
        binding(b, scope, out);
      } else if (c instanceof Ast.Traversal t) {
        out.add(traversal(t, scope));
      } else if (c instanceof Ast.Filter f) {
        out.add(filter(f, scope));
      } else if (c instanceof Ast.Call call) {
        out.add(search.textMatch(call, scope));
      } else {
        out.add(negation((Ast.Negation) c, scope));
      }
    }
  }

  private void binding(Ast.Binding b, CheckScope scope, List<Clause> out) {
    String var = b.var().text();
    names.notAParameter(b.var());
    NodeType type = names.nodeType(b.type());
    NodeType existing = scope.types().get(var);
    if (existing != null && !existing.name().equals(type.name())) {
      throw names.err(b.type().pos(), "variable $" + var + " is already bound to " + existing.name() + " (at "
          + scope.boundAt().get(var) + "); it cannot also be a " + type.name());
    }
    scope.types().put(var, type);
    scope.boundAt().putIfAbsent(var, b.var().pos());
    out.add(new Clause.Bind(var, type));
    for (Ast.PropMatch m : b.matches()) {
      Operand.Property left = names.property(var, type, m.property());
      if (m.value() instanceof Ast.VarRef ref && !names.isParam(ref.var().text())) {
        throw names.err(ref.pos(), "$" + ref.var().text() + " in a binding constraint must be a declared parameter"
            + " (compare two variables with a filter such as $" + var + "." + m.property().text() + " = $x.prop)");
      }
      // A constraint on a list property matches membership, as the reference does.
      Ast.Op op = left.type().list() && !(m.value() instanceof Ast.Lit l && l.literal() instanceof Ast.ListLit)
          && !(m.value() instanceof Ast.VarRef v && names.paramDecl(v.var().text()).type().list())
          ? Ast.Op.CONTAINS : Ast.Op.EQ;
      if (left.type().list() && op == Ast.Op.EQ) {
        throw names.err(m.value().pos(), "property '" + m.property().text() + "' of $" + var + " is a list ("
            + left.type().display() + "); a binding constraint matches one element, lists cannot be compared whole");
      }
      out.add(typing.comparison(left, m.property().pos(), op, m.property().pos(), m.value(), scope));
    }
  }

  private Clause.Traverse traversal(Ast.Traversal t, CheckScope scope) {
    names.notAParameter(t.src());
    names.notAParameter(t.dst());
    EdgeType edge = names.catalog().edge(t.edge().text()).orElseThrow(() -> names.unknownEdge(t.edge()));
    if (t.undirected() && !edge.from().equals(edge.to())) {
      // As the reference's T22: such an edge is well-typed in at most one orientation.
      throw names.err(t.edge().pos(), "an undirected traversal needs an edge between one node type, but " + edge.name()
          + " goes " + edge.from() + " -> " + edge.to() + "; follow it in its direction, as in $"
          + t.src().text() + " " + t.edge().text() + " $" + t.dst().text());
    }
    int min = 1;
    int max = 1;
    Ast.Bounds b = t.bounds();
    if (b != null) {
      if (b.min() < 1) {
        throw names.err(b.minPos(), "hop bounds {" + b.min() + "," + (b.max() == null ? "" : b.max())
            + "}: the minimum must be at least 1");
      }
      if (b.max() == null) {
        throw names.err(b.pos(), "hop bounds {" + b.min() + ",}: unbounded traversal is not supported; give a maximum,"
            + " as in {" + b.min() + "," + Math.max(b.min(), 3) + "}");
      }
      if (b.max() < b.min()) {
        throw names.err(b.maxPos(), "hop bounds {" + b.min() + "," + b.max() + "}: the maximum must be at least the minimum");
      }
      if (b.max() > Integer.MAX_VALUE) {
        throw names.err(b.maxPos(), "hop bound " + b.max() + " is too large");
      }
      min = b.min().intValue();
      max = b.max().intValue();
    }
    String edgeVar = null;
    if (t.edgeVar() != null) {
      edgeVar = t.edgeVar().text();
      names.notAParameter(t.edgeVar());
      // As the reference's T23: a path of several hops matches many edges, so there is none to bind.
      if (max != 1) {
        throw names.err(t.edgeVar().pos(), "$" + edgeVar + " binds one edge, but {" + min + "," + max + "} matches paths"
            + " of several; bind the edge on a one-hop traversal");
      }
      if (scope.types().containsKey(edgeVar) || scope.edges().containsKey(edgeVar)
          || edgeVar.equals(t.src().text()) || edgeVar.equals(t.dst().text())) {
        throw names.err(t.edgeVar().pos(), "$" + edgeVar + " is already bound"
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
  private void endpoint(Ast.Name var, EdgeType edge, boolean source, Ast.Traversal t, CheckScope scope) {
    String expected = source ? edge.from() : edge.to();
    NodeType bound = scope.types().get(var.text());
    if (bound == null) {
      scope.types().put(var.text(), names.catalog().node(expected).orElseThrow());
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
    throw names.err(var.pos(), "variable $" + var.text() + " is a " + bound.name() + " but the " + (source ? "source" : "target")
        + " of edge " + shape + " is a " + expected + fix);
  }

  Clause filter(Ast.Filter f, CheckScope scope) {
    Operand left = f.left() instanceof Ast.Lit ? null : names.operand(f.left(), scope);
    if (left == null) {
      // A literal on the left is compared the same way as on the right; only the order of the
      // operands matters for contains and starts_with, so keep it.
      Operand right = f.right() instanceof Ast.Lit ? null : names.operand(f.right(), scope);
      if (right == null) {
        return typing.comparisonOfLiterals(f);
      }
      return typing.comparisonLiteralLeft((Ast.Lit) f.left(), f.op(), f.opPos(), right, f.right().pos());
    }
    return typing.comparison(left, f.left().pos(), f.op(), f.opPos(), f.right(), scope);
  }

  private Clause.Not negation(Ast.Negation n, CheckScope scope) {
    CheckScope inner = scope.copy();
    List<Clause> clauses = new ArrayList<>();
    clauses(n.clauses(), inner, clauses);
    Set<String> outer = new java.util.HashSet<>(scope.types().keySet());
    outer.addAll(scope.edges().keySet());
    if (!mentionsAny(clauses, outer)) {
      throw names.err(n.pos(), "not { ... } must mention a variable bound outside it; otherwise it would remove"
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

  Column.Projection projection(Ast.PropRef ref, Ast.Name alias, CheckScope scope) {
    Operand.Property p = names.propRef(ref, scope);
    refuseBlob(p, ref.pos(), "return");
    return new Column.Projection(alias != null ? alias.text() : p.columnName(), p);
  }

  /**
   * {@code $p} (a bound node: its id, column {@code p}, as the reference projects a variable),
   * {@code $param}, a literal or {@code now()}.
   */
  private Column returned(Ast.ReturnExpr e, Ast.Name alias, CheckScope scope) {
    if (e instanceof Ast.VarRef v) {
      String var = v.var().text();
      String name = alias != null ? alias.text() : var;
      if (scope.edges().containsKey(var)) {
        throw names.err(v.pos(), "$" + var + " is a " + scope.edges().get(var).name() + " edge; return one of its properties,"
            + " as in $" + var + "." + (scope.edges().get(var).properties().isEmpty() ? "prop"
            : scope.edges().get(var).properties().get(0).name()));
      }
      if (scope.types().containsKey(var)) {
        return new Column.Projection(name, new Operand.Property(var, "id", Typing.ID));
      }
      ParamDecl p = names.paramDecl(var);
      if (p == null) {
        throw names.unbound(v.var());
      }
      return new Column.Constant(name, new Value.Param(var, p.type()));
    }
    if (e instanceof Ast.Now) {
      return new Column.Constant(alias != null ? alias.text() : "now", new Value.Now());
    }
    Ast.Literal lit = ((Ast.Lit) e).literal();
    return new Column.Constant(alias != null ? alias.text() : "literal", literalOwnType(lit));
  }

  /** A literal at the type it spells by itself: String, Typing.I64, Typing.F64, Bool, Date, DateTime, or a list of one of them. */
  private Value.Literal literalOwnType(Ast.Literal lit) {
    if (lit instanceof Ast.Null n) {
      throw names.err(n.pos(), "a bare null has no type to return; return a property, or give the value a type");
    }
    if (lit instanceof Ast.ListLit list) {
      if (list.items().isEmpty()) {
        throw names.err(list.pos(), "an empty list has no element type to return");
      }
      PropertyType element = literalOwnType(list.items().get(0)).type();
      if (element.list()) {
        throw names.err(list.items().get(0).pos(), "lists of lists are not values");
      }
      return typing.literalOfType(lit, new PropertyType(element.kind(), true, false, element.enumValues(), 0), false,
          "this list (its first element is " + element.display() + ")");
    }
    if (lit instanceof Ast.Num n) {
      return typing.naturalNumber(n);
    }
    PropertyType t = PropertyType.scalar(lit instanceof Ast.Str ? ScalarKind.STRING
        : lit instanceof Ast.Bool ? ScalarKind.BOOL
        : lit instanceof Ast.DateLit ? ScalarKind.DATE : ScalarKind.DATETIME, false);
    return typing.literalOfType(lit, t, false);
  }

  Column.Aggregate aggregate(Ast.Agg a, Ast.Name alias, CheckScope scope) {
    String fn = a.func().spelling();
    if (a.distinct() && a.func() != AggFunc.COUNT) {
      throw names.err(a.pos(), fn + "(distinct ...): distinct is only for count, as in count(distinct $x.prop);"
          + " " + fn + " of the distinct values is not supported");
    }
    if (a.arg() instanceof Ast.VarRef v) {
      String var = v.var().text();
      if (scope.edges().containsKey(var)) {
        throw names.err(v.pos(), fn + "($" + var + "): $" + var + " is an edge; aggregate one of its properties");
      }
      if (!scope.types().containsKey(var)) {
        if (names.isParam(var)) {
          throw names.err(v.pos(), fn + "($" + var + "): $" + var + " is a parameter; aggregates take a bound variable"
              + " or one of its properties");
        }
        throw names.unbound(v.var());
      }
      if (a.func() != AggFunc.COUNT) {
        throw names.err(v.pos(), fn + " needs a property, as in " + fn + "($" + var + ".prop); only count takes a bare"
            + " variable");
      }
      return new Column.Aggregate(alias != null ? alias.text() : var, AggFunc.COUNT, a.distinct(), var, null,
          Typing.I64);
    }
    Operand.Property p = names.propRef((Ast.PropRef) a.arg(), scope);
    refuseBlob(p, a.arg().pos(), fn + "(...)");
    PropertyType t = p.type();
    PropertyType result = switch (a.func()) {
      case COUNT -> Typing.I64;
      case SUM, AVG -> {
        if (t.list() || !t.kind().isNumeric()) {
          throw names.err(a.arg().pos(), fn + " needs a numeric property, but $" + p.variable() + "." + p.property()
              + " is " + t.display());
        }
        yield PropertyType.scalar(ScalarKind.F64, true);
      }
      case MIN, MAX -> {
        if (!typing.orderable(t)) {
          throw names.err(a.arg().pos(), fn + " needs a scalar property that can be ordered, but $" + p.variable() + "."
              + p.property() + " is " + t.display());
        }
        yield new PropertyType(t.kind(), false, true, t.enumValues(), 0);
      }
    };
    // Unaliased, an aggregate column is named after its argument, as the reference names it.
    return new Column.Aggregate(alias != null ? alias.text() : p.columnName(), a.func(), a.distinct(), p.variable(), p,
        result);
  }

  OrderKey orderKey(Ast.Ordering o, List<Column> columns, boolean aggregating, CheckScope scope) {
    Ast.OrderExpr key = o.key();
    if (key instanceof Ast.Call call) {
      Score score = search.score(call, scope, false);
      if (score instanceof Score.Nearest && o.direction() != null) {
        // As the reference: nearest() orders nearest first, nothing else is meaningful for a k-NN.
        throw names.err(o.direction(), "nearest() orders nearest first and takes no asc/desc");
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
      List<String> columnNames = columns.stream().map(Column::name).toList();
      throw names.err(a.alias().pos(), "order key '" + a.alias().text() + "' is not a return column"
          + Hints.hint(a.alias().text(), columnNames) + "; the columns are " + String.join(", ", columnNames));
    }
    if (key instanceof Ast.Agg agg) {
      Column.Aggregate wanted = aggregate(agg, null, scope);
      for (Column c : columns) {
        if (c instanceof Column.Aggregate ca && ca.function() == wanted.function() && ca.distinct() == wanted.distinct()
            && ca.variable().equals(wanted.variable()) && Objects.equals(ca.property(), wanted.property())) {
          return new OrderKey.ByColumn(c.name(), o.descending());
        }
      }
      throw names.err(agg.pos(), "order by " + agg.func().spelling() + "(...) needs the same aggregate in return;"
          + " return it (with an alias) and order by the alias");
    }
    Ast.PropRef ref = (Ast.PropRef) key;
    Operand.Property p = names.propRef(ref, scope);
    requireOrderable(p.type(), ref.property().pos(), "$" + p.variable() + "." + p.property());
    for (Column c : columns) {
      if (c instanceof Column.Projection cp && cp.property().equals(p)) {
        return new OrderKey.ByColumn(c.name(), o.descending());
      }
    }
    if (aggregating) {
      throw names.err(ref.pos(), "order key $" + p.variable() + "." + p.property() + " is not returned; an aggregating"
          + " query can only be ordered by its returned columns (the group keys and the aggregates)");
    }
    return new OrderKey.ByProperty(p, o.descending());
  }

  /**
   * The reference's T24: a Blob's bytes are read lazily through {@code GET /blob}, never as a query
   * value, so a query may not project, aggregate or order by one.
   */
  private void refuseBlob(Operand.Property p, Ast.Pos at, String where) {
    if (p.type().isBlob()) {
      throw names.err(at, "$" + p.variable() + "." + p.property() + " is a Blob and cannot appear in " + where
          + "; read its bytes with GET /graphs/{id}/blob");
    }
  }

  private void requireOrderable(PropertyType t, Ast.Pos at, String what) {
    if (!typing.orderable(t)) {
      throw names.err(at, "cannot order by " + what + ": " + t.display() + " values have no order");
    }
  }

}
