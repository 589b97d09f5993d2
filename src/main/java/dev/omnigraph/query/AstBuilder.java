package dev.omnigraph.query;

import dev.omnigraph.util.QuotedStrings;

import dev.omnigraph.query.grammar.OmniQueryLexer;
import dev.omnigraph.query.grammar.OmniQueryParser;
import dev.omnigraph.query.grammar.OmniQueryParser.AggregateContext;
import dev.omnigraph.query.grammar.OmniQueryParser.AssignmentContext;
import dev.omnigraph.query.grammar.OmniQueryParser.ClauseContext;
import dev.omnigraph.query.grammar.OmniQueryParser.FilterOpContext;
import dev.omnigraph.query.grammar.OmniQueryParser.LiteralContext;
import dev.omnigraph.query.grammar.OmniQueryParser.MutationContext;
import dev.omnigraph.query.grammar.OmniQueryParser.OperandContext;
import dev.omnigraph.query.grammar.OmniQueryParser.PropRefContext;
import dev.omnigraph.query.grammar.OmniQueryParser.QueryDeclContext;
import dev.omnigraph.query.grammar.OmniQueryParser.TypeRefContext;
import dev.omnigraph.query.grammar.OmniQueryParser.ValueContext;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.omnigraph.syntax.SourceText;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * Text to {@link Ast}: lexing, parsing, and the rules that need no schema: string escapes, parameter
 * types and duplicate names (D₂ is the checker's, per query).
 */
final class AstBuilder {

  /** Parameter types spelled by a bare name; Vector and enum are not among them. */
  private static final Map<String, ScalarKind> PARAM_SCALARS = new LinkedHashMap<>();

  static {
    for (ScalarKind k : ScalarKind.values()) {
      if (k != ScalarKind.VECTOR && k != ScalarKind.ENUM) {
        PARAM_SCALARS.put(k.spelling(), k);
      }
    }
  }

  /** The declaration being built, so that every error can name it. */
  private String query;

  private AstBuilder() {}

  static List<Ast.Decl> read(String source) {
    OmniQueryLexer lexer = new OmniQueryLexer(CharStreams.fromString(SourceText.withoutBom(source)));
    lexer.removeErrorListeners();
    lexer.addErrorListener(SyntaxErrors.INSTANCE);
    OmniQueryParser parser = new OmniQueryParser(new CommonTokenStream(SyntaxErrors.depthLimited(lexer)));
    parser.removeErrorListeners();
    parser.addErrorListener(SyntaxErrors.INSTANCE);
    OmniQueryParser.QueryFileContext file = parser.queryFile();

    AstBuilder builder = new AstBuilder();
    Map<String, Ast.Pos> seen = new HashMap<>();
    List<Ast.Decl> decls = new ArrayList<>();
    for (QueryDeclContext d : file.queryDecl()) {
      Ast.Decl decl = builder.declaration(d);
      Ast.Pos previous = seen.putIfAbsent(decl.name(), decl.pos());
      if (previous != null) {
        throw new QueryParseException(decl.pos().line(), decl.pos().column(), null,
            "duplicate query name '" + decl.name() + "' (first declared at " + previous + ")");
      }
      decls.add(decl);
    }
    return List.copyOf(decls);
  }

  private Ast.Decl declaration(QueryDeclContext d) {
    Token nameToken = d.name.getStart();
    query = nameToken.getText();
    List<ParamDecl> params = new ArrayList<>();
    List<Ast.Pos> positions = new ArrayList<>();
    Map<String, Ast.Pos> seen = new HashMap<>();
    for (OmniQueryParser.ParamContext p : d.param()) {
      Token var = p.VARIABLE().getSymbol();
      String name = var.getText().substring(1);
      Ast.Pos previous = seen.putIfAbsent(name, pos(var));
      if (previous != null) {
        throw error(var, "duplicate parameter $" + name + " (first declared at " + previous + ")");
      }
      params.add(new ParamDecl(name, paramType(p.typeRef(), name, false)));
      positions.add(pos(var));
    }
    String description = null;
    String instruction = null;
    for (OmniQueryParser.QueryAnnotationContext a : d.queryAnnotation()) {
      Token at = a.getStart();
      String annotation = a.name.getText();
      String text = unquote(a.STRING().getSymbol());
      switch (annotation) {
        case "description" -> {
          if (description != null) {
            throw error(at, "query '" + query + "' has a second @description");
          }
          description = text;
        }
        case "instruction" -> {
          if (instruction != null) {
            throw error(at, "query '" + query + "' has a second @instruction");
          }
          instruction = text;
        }
        default -> throw error(at, "unknown query annotation @" + annotation
            + "; a query takes @description(\"…\") and @instruction(\"…\")");
      }
    }
    OmniQueryParser.BodyContext b = d.body();
    Ast.Body body = b.readBody() != null ? read(b.readBody()) : mutations(b.mutation());
    return new Ast.Decl(query, pos(nameToken), List.copyOf(params), List.copyOf(positions), body, description,
        instruction);
  }

  // ---- parameter types ----

  private PropertyType paramType(TypeRefContext t, String param, boolean element) {
    boolean nullable = t.QUESTION() != null;
    if (t.coreType() instanceof OmniQueryParser.ListTypeContext list) {
      if (element) {
        throw error(list.getStart(), "parameter $" + param + ": nested lists are not supported");
      }
      PropertyType inner = paramType(list.typeRef(), param, true);
      if (inner.nullable()) {
        throw error(list.typeRef().QUESTION().getSymbol(), "parameter $" + param
            + ": list elements cannot be nullable; write [T]? for an optional list");
      }
      if (inner.kind() == ScalarKind.VECTOR) {
        throw error(list.typeRef().getStart(), "parameter $" + param + ": lists of vectors are not supported");
      }
      return new PropertyType(inner.kind(), true, nullable, List.of(), 0);
    }
    OmniQueryParser.NamedTypeContext named = (OmniQueryParser.NamedTypeContext) t.coreType();
    Token nameToken = named.IDENT().getSymbol();
    String name = nameToken.getText();
    if (name.equals("Vector")) {
      if (named.INT() == null) {
        throw error(nameToken, "parameter $" + param + ": Vector needs its dimension, as in Vector(3)");
      }
      int dim = positiveInt(named.INT().getSymbol(), "parameter $" + param + ": Vector dimension");
      return new PropertyType(ScalarKind.VECTOR, false, nullable, List.of(), dim);
    }
    ScalarKind kind = PARAM_SCALARS.get(name);
    if (kind == null) {
      throw error(nameToken, "unknown type '" + name + "' for parameter $" + param
          + Hints.hint(name, PARAM_SCALARS.keySet()) + "; parameter types are "
          + String.join(", ", PARAM_SCALARS.keySet()) + ", [T] and Vector(n)");
    }
    if (named.INT() != null) {
      throw error(named.LPAREN().getSymbol(), "parameter $" + param + ": only Vector takes a dimension");
    }
    return PropertyType.scalar(kind, nullable);
  }

  private int positiveInt(Token t, String what) {
    BigDecimal v = new BigDecimal(t.getText());
    if (v.signum() <= 0 || v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
      throw error(t, what + " must be between 1 and " + Integer.MAX_VALUE + ", got " + t.getText());
    }
    return v.intValueExact();
  }

  // ---- reads ----

  private Ast.Read read(OmniQueryParser.ReadBodyContext r) {
    List<Ast.Clause> match = clauses(r.clause());
    List<Ast.Projection> projections = new ArrayList<>();
    for (OmniQueryParser.ProjectionContext p : r.returnClause().projection()) {
      OmniQueryParser.ReturnExprContext e = p.expr;
      Ast.ReturnExpr expr = e.aggregate() != null ? aggregate(e.aggregate())
          : e.call() != null ? call(e.call())
          : e.propRef() != null ? propRef(e.propRef()) : (Ast.ReturnExpr) value(e.value());
      projections.add(new Ast.Projection(expr, p.alias == null ? null : name(p.alias.getStart())));
    }
    List<Ast.Ordering> order = new ArrayList<>();
    if (r.orderClause() != null) {
      for (OmniQueryParser.OrderingContext o : r.orderClause().ordering()) {
        OmniQueryParser.OrderKeyContext k = o.orderKey();
        Ast.OrderExpr key;
        if (k.aggregate() != null) {
          key = aggregate(k.aggregate());
        } else if (k.call() != null) {
          key = call(k.call());
        } else if (k.propRef() != null) {
          key = propRef(k.propRef());
        } else {
          key = new Ast.OrderAlias(name(k.ident().getStart()));
        }
        Token dir = o.DESC() != null ? o.DESC().getSymbol() : o.ASC() != null ? o.ASC().getSymbol() : null;
        order.add(new Ast.Ordering(key, o.DESC() != null, dir == null ? null : pos(dir)));
      }
    }
    Long limit = null;
    Ast.Pos limitPos = null;
    if (r.limitClause() != null) {
      Token n = r.limitClause().INT().getSymbol();
      limit = longValue(n, "limit");
      limitPos = pos(n);
    }
    return new Ast.Read(match, List.copyOf(projections), List.copyOf(order), limit, limitPos);
  }

  private List<Ast.Clause> clauses(List<ClauseContext> contexts) {
    List<Ast.Clause> out = new ArrayList<>();
    for (ClauseContext c : contexts) {
      out.add(clause(c));
    }
    return List.copyOf(out);
  }

  private Ast.Clause clause(ClauseContext c) {
    if (c instanceof OmniQueryParser.BindingContext b) {
      List<Ast.PropMatch> matches = new ArrayList<>();
      for (OmniQueryParser.PropMatchContext m : b.propMatch()) {
        matches.add(new Ast.PropMatch(name(m.ident().getStart()), value(m.value())));
      }
      return new Ast.Binding(variable(b.VARIABLE().getSymbol()), name(b.typeName), List.copyOf(matches));
    }
    if (c instanceof OmniQueryParser.TraversalContext t) {
      Token edgeToken = t.edgeName().getStart();
      String edge = t.edgeName().STRING() != null ? unquote(edgeToken) : edgeToken.getText();
      Ast.Bounds bounds = null;
      if (t.hopBounds() != null) {
        OmniQueryParser.HopBoundsContext h = t.hopBounds();
        bounds = new Ast.Bounds(longValue(h.min, "hop bound"), pos(h.min),
            h.max == null ? null : longValue(h.max, "hop bound"), h.max == null ? null : pos(h.max), pos(h.getStart()));
      }
      return new Ast.Traversal(variable(t.src), new Ast.Name(edge, pos(edgeToken)), bounds, variable(t.dst),
          t.open != null, t.edgeVar == null ? null : variable(t.edgeVar));
    }
    if (c instanceof OmniQueryParser.FilterContext f) {
      return new Ast.Filter(operand(f.left), op(f.filterOp()), pos(f.filterOp().getStart()), operand(f.right));
    }
    if (c instanceof OmniQueryParser.TextSearchContext t) {
      return call(t.call());
    }
    OmniQueryParser.NegationContext n = (OmniQueryParser.NegationContext) c;
    return new Ast.Negation(clauses(n.clause()), pos(n.NOT().getSymbol()));
  }

  private Ast.Call call(OmniQueryParser.CallContext c) {
    List<Ast.Arg> args = new ArrayList<>();
    for (OmniQueryParser.CallArgContext a : c.callArg()) {
      args.add(a.call() != null ? call(a.call()) : new Ast.OperandArg(operand(a.operand())));
    }
    return new Ast.Call(name(c.fn.getStart()), List.copyOf(args), pos(c.getStart()));
  }

  private Ast.Agg aggregate(AggregateContext a) {
    AggFunc func = switch (a.aggFunc().getStart().getType()) {
      case OmniQueryLexer.COUNT -> AggFunc.COUNT;
      case OmniQueryLexer.SUM -> AggFunc.SUM;
      case OmniQueryLexer.AVG -> AggFunc.AVG;
      case OmniQueryLexer.MIN -> AggFunc.MIN;
      default -> AggFunc.MAX;
    };
    Ast.Operand arg = a.propRef() != null ? propRef(a.propRef()) : new Ast.VarRef(variable(a.VARIABLE().getSymbol()));
    return new Ast.Agg(func, a.DISTINCT() != null, arg, pos(a.getStart()));
  }

  private Ast.PropRef propRef(PropRefContext p) {
    return new Ast.PropRef(variable(p.VARIABLE().getSymbol()), name(p.ident().getStart()));
  }

  private Ast.Operand operand(OperandContext o) {
    if (o.propRef() != null) {
      return propRef(o.propRef());
    }
    if (o.VARIABLE() != null) {
      return new Ast.VarRef(variable(o.VARIABLE().getSymbol()));
    }
    return value(o.value());
  }

  private static Ast.Op op(FilterOpContext o) {
    return switch (o.getStart().getType()) {
      case OmniQueryLexer.EQ -> Ast.Op.EQ;
      case OmniQueryLexer.NE -> Ast.Op.NE;
      case OmniQueryLexer.LT -> Ast.Op.LT;
      case OmniQueryLexer.LE -> Ast.Op.LE;
      case OmniQueryLexer.GT -> Ast.Op.GT;
      case OmniQueryLexer.GE -> Ast.Op.GE;
      case OmniQueryLexer.CONTAINS -> Ast.Op.CONTAINS;
      default -> Ast.Op.STARTS_WITH;
    };
  }

  // ---- mutations ----

  private Ast.Mutations mutations(List<MutationContext> contexts) {
    List<Ast.Mutation> out = new ArrayList<>();
    for (MutationContext m : contexts) {
      out.add(mutation(m));
    }
    // D₂ (insert/update vs delete) is checked per query when it runs (Checker), not here: a file with one
    // mixed query still serves its others, as in the reference.
    return new Ast.Mutations(List.copyOf(out));
  }

  private Ast.Mutation mutation(MutationContext m) {
    if (m instanceof OmniQueryParser.InsertContext i) {
      return new Ast.Insert(name(i.typeName), assignments(i.assignment()), pos(i.getStart()));
    }
    if (m instanceof OmniQueryParser.UpdateContext u) {
      return new Ast.Update(name(u.typeName), assignments(u.assignment()), predicate(u.predicate()), pos(u.getStart()));
    }
    OmniQueryParser.DeleteContext d = (OmniQueryParser.DeleteContext) m;
    return new Ast.Delete(name(d.typeName), predicate(d.predicate()), pos(d.getStart()));
  }

  private List<Ast.Assign> assignments(List<AssignmentContext> contexts) {
    List<Ast.Assign> out = new ArrayList<>();
    for (AssignmentContext a : contexts) {
      out.add(new Ast.Assign(name(a.ident().getStart()), value(a.value())));
    }
    return List.copyOf(out);
  }

  private Ast.Pred predicate(OmniQueryParser.PredicateContext p) {
    return new Ast.Pred(name(p.ident().getStart()), op(p.filterOp()), pos(p.filterOp().getStart()), value(p.value()));
  }

  // ---- values ----

  private Ast.Operand value(ValueContext v) {
    if (v.VARIABLE() != null) {
      return new Ast.VarRef(variable(v.VARIABLE().getSymbol()));
    }
    if (v.NOW() != null) {
      return new Ast.Now(pos(v.NOW().getSymbol()));
    }
    return new Ast.Lit(literal(v.literal()));
  }

  private Ast.Literal literal(LiteralContext l) {
    Ast.Pos at = pos(l.getStart());
    if (l instanceof OmniQueryParser.StringLiteralContext s) {
      return new Ast.Str(unquote(s.STRING().getSymbol()), at);
    }
    if (l instanceof OmniQueryParser.NumberLiteralContext n) {
      boolean integral = n.INT() != null;
      String text = (n.MINUS() != null ? "-" : "") + (integral ? n.INT().getText() : n.FLOAT().getText());
      return new Ast.Num(text, new BigDecimal(text), integral, at);
    }
    if (l instanceof OmniQueryParser.BoolLiteralContext b) {
      return new Ast.Bool(b.TRUE() != null, at);
    }
    if (l instanceof OmniQueryParser.NullLiteralContext) {
      return new Ast.Null(at);
    }
    if (l instanceof OmniQueryParser.DateLiteralContext d) {
      Token s = d.STRING().getSymbol();
      return new Ast.DateLit(unquote(s), at, pos(s));
    }
    if (l instanceof OmniQueryParser.DateTimeLiteralContext d) {
      Token s = d.STRING().getSymbol();
      return new Ast.DateTimeLit(unquote(s), at, pos(s));
    }
    OmniQueryParser.ListLiteralContext list = (OmniQueryParser.ListLiteralContext) l;
    List<Ast.Literal> items = new ArrayList<>();
    for (LiteralContext item : list.literal()) {
      items.add(literal(item));
    }
    return new Ast.ListLit(List.copyOf(items), at);
  }

  /** Decodes a string literal; a bad escape is reported at the backslash, naming the query. */
  private String unquote(Token t) {
    return QuotedStrings.unquote(t.getText(), t.getLine(), t.getCharPositionInLine() + 2,
        (line, column, message) -> new QueryParseException(line, column, query, message));
  }

  private long longValue(Token t, String what) {
    try {
      return Long.parseLong(t.getText());
    } catch (NumberFormatException e) {
      throw error(t, what + " " + t.getText() + " is too large");
    }
  }

  // ---- positions ----

  private static Ast.Name variable(Token t) {
    return new Ast.Name(t.getText().substring(1), pos(t));
  }

  private static Ast.Name name(Token t) {
    return new Ast.Name(t.getText(), pos(t));
  }

  static Ast.Pos pos(Token t) {
    return new Ast.Pos(t.getLine(), t.getCharPositionInLine() + 1);
  }

  static Ast.Pos pos(ParserRuleContext c) {
    return pos(c.getStart());
  }

  private QueryParseException error(Token t, String reason) {
    return new QueryParseException(t.getLine(), t.getCharPositionInLine() + 1, query, reason);
  }
}
