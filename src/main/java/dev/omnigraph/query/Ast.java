package dev.omnigraph.query;

import java.math.BigDecimal;
import java.util.List;

/**
 * The parsed, unchecked form of a declaration: names as written, every node with its source
 * position. Only {@link QueryChecker} reads it; the engine consumes the checked form.
 */
final class Ast {

  private Ast() {}

  record Pos(int line, int column) {
    @Override
    public String toString() {
      return line + ":" + column;
    }
  }

  /** A name as written and where. */
  record Name(String text, Pos pos) {}

  /**
   * @param description the {@code @description("…")} text, or null
   * @param instruction the {@code @instruction("…")} text, or null
   */
  record Decl(String name, Pos pos, List<ParamDecl> params, List<Pos> paramPositions, Body body, String description,
      String instruction) {}

  sealed interface Body permits Read, Mutations {}

  /** {@code limit} is null when absent. */
  record Read(List<Clause> match, List<Projection> projections, List<Ordering> order, Long limit, Pos limitPos)
      implements Body {}

  record Mutations(List<Mutation> statements) implements Body {}

  // ---- match clauses ----

  sealed interface Clause permits Binding, Traversal, Filter, Negation, Call {}

  record Binding(Name var, Name type, List<PropMatch> matches) implements Clause {}

  record PropMatch(Name property, Operand value) {}

  /** {@code bounds} is null for a plain one-hop traversal. */
  /**
   * {@code undirected}: written {@code $a <edge> $b}, matching the edge in either direction;
   * {@code edgeVar}: the {@code $w} of {@code $a $w:edge $b}, or null.
   */
  record Traversal(Name src, Name edge, Bounds bounds, Name dst, boolean undirected, Name edgeVar)
      implements Clause {}

  /** {@code max} is null when written {@code {min,}}. */
  record Bounds(Long min, Pos minPos, Long max, Pos maxPos, Pos pos) {}

  record Filter(Operand left, Op op, Pos opPos, Operand right) implements Clause {}

  record Negation(List<Clause> clauses, Pos pos) implements Clause {}

  enum Op {
    EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="), CONTAINS("contains"), STARTS_WITH("starts_with");

    final String spelling;

    Op(String spelling) {
      this.spelling = spelling;
    }
  }

  // ---- operands ----

  sealed interface Operand permits PropRef, VarRef, Lit, Now {
    Pos pos();
  }

  record PropRef(Name var, Name property) implements Operand, ReturnExpr, OrderExpr {
    @Override
    public Pos pos() {
      return var.pos();
    }

    String display() {
      return var.text() + "." + property.text();
    }
  }

  /** {@code $name}: a parameter, or a node variable where one may stand. */
  record VarRef(Name var) implements Operand, ReturnExpr {
    @Override
    public Pos pos() {
      return var.pos();
    }
  }

  record Lit(Literal literal) implements Operand, ReturnExpr {
    @Override
    public Pos pos() {
      return literal.pos();
    }
  }

  record Now(Pos pos) implements Operand, ReturnExpr {}

  sealed interface Literal permits Str, Num, Bool, Null, DateLit, DateTimeLit, ListLit {
    Pos pos();
  }

  record Str(String value, Pos pos) implements Literal {}

  /** {@code text} as written (sign included), for messages. */
  record Num(String text, BigDecimal value, boolean integral, Pos pos) implements Literal {}

  record Bool(boolean value, Pos pos) implements Literal {}

  record Null(Pos pos) implements Literal {}

  record DateLit(String text, Pos pos, Pos textPos) implements Literal {}

  record DateTimeLit(String text, Pos pos, Pos textPos) implements Literal {}

  record ListLit(List<Literal> items, Pos pos) implements Literal {}

  // ---- return, order ----

  /** {@code alias} is null when absent. */
  record Projection(ReturnExpr expr, Name alias) {}

  /**
   * What a return column computes: a property, an aggregate, a search score, a bound node's id, a
   * parameter, a literal, now().
   */
  sealed interface ReturnExpr permits PropRef, Agg, Call, VarRef, Lit, Now {
    Pos pos();
  }

  /**
   * A search function call: {@code search}, {@code fuzzy}, {@code match_text} (match filters),
   * {@code nearest}, {@code bm25}, {@code rrf} (scores); {@code fn} as written. Where it may stand
   * and what its arguments must be is the checker's to judge.
   */
  record Call(Name fn, List<Arg> args, Pos pos) implements Clause, ReturnExpr, OrderExpr, Arg {}

  /** A call argument: a nested call or an operand. */
  sealed interface Arg permits Call, OperandArg {
    Pos pos();
  }

  record OperandArg(Operand operand) implements Arg {
    @Override
    public Pos pos() {
      return operand.pos();
    }
  }

  /** {@code arg} is a {@link PropRef} or a {@link VarRef}. */
  record Agg(AggFunc func, boolean distinct, Operand arg, Pos pos) implements ReturnExpr, OrderExpr {}

  /** {@code direction} is where {@code asc}/{@code desc} was written, or null when it was not. */
  record Ordering(OrderExpr key, boolean descending, Pos direction) {}

  /** What an order key names: an aggregate, a search score, a property, or a return alias. */
  sealed interface OrderExpr permits Agg, Call, PropRef, OrderAlias {}

  record OrderAlias(Name alias) implements OrderExpr {}

  // ---- mutations ----

  sealed interface Mutation permits Insert, Update, Delete {
    Name type();

    Pos pos();
  }

  record Assign(Name property, Operand value) {}

  record Pred(Name property, Op op, Pos opPos, Operand value) {}

  record Insert(Name type, List<Assign> assignments, Pos pos) implements Mutation {}

  record Update(Name type, List<Assign> assignments, Pred where, Pos pos) implements Mutation {}

  record Delete(Name type, Pred where, Pos pos) implements Mutation {}
}
