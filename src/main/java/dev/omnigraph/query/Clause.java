package dev.omnigraph.query;

import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import java.util.List;
import java.util.Objects;

/**
 * A checked {@code match} clause. Clauses are a conjunction; their order is the written order, with
 * a binding's inline constraints ({@code $p: Person { name: $n }}) following it as {@link Filter}s.
 */
public sealed interface Clause permits Clause.Bind, Clause.Traverse, Clause.Filter, Clause.Not, Clause.TextMatch {

  /**
   * {@code $variable: Type}: the variable ranges over the nodes of {@code type}. A variable may be
   * bound more than once with the same type (the bindings are the same node).
   */
  record Bind(String variable, NodeType type) implements Clause {
    public Bind {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * {@code $source edge{min,max} $target}: a path of {@code minHops..maxHops} edges of {@code edge}
   * from source to target, followed in the declared direction ({@code source} is of type
   * {@code edge.from()}, {@code target} of {@code edge.to()}). A variable this clause mentions first is
   * bound by it. A plain {@code $a knows $b} has both bounds 1.
   *
   * <p>{@code undirected} ({@code $a <knows> $b}, an edge whose two ends are one node type): a hop
   * follows an edge either way, with set semantics, so a pair joined both ways appears once.
   *
   * <p>{@code edgeVariable} ({@code $a $w:knows $b}, one hop only): binds each matched edge, so the
   * traversal yields one row per edge (parallel edges apart) and {@code $w.prop} reads its properties;
   * null when the edge is not bound.
   */
  record Traverse(String source, EdgeType edge, String target, int minHops, int maxHops, boolean undirected,
      String edgeVariable) implements Clause {
    /** A directed traversal without an edge variable. */
    public Traverse(String source, EdgeType edge, String target, int minHops, int maxHops) {
      this(source, edge, target, minHops, maxHops, false, null);
    }

    public Traverse {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(edge, "edge");
      Objects.requireNonNull(target, "target");
      if (minHops < 1 || maxHops < minHops) {
        throw new IllegalArgumentException("invalid hop bounds {" + minHops + "," + maxHops + "}");
      }
      if (edgeVariable != null && maxHops != 1) {
        throw new IllegalArgumentException("an edge variable binds one hop");
      }
    }
  }

  /** {@code left op right}; the operand types have been checked compatible for {@code op}. */
  record Filter(Operand left, CompareOp op, Operand right) implements Clause {
    public Filter {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(right, "right");
    }
  }

  /**
   * {@code not { ... }}: rows of the enclosing scope for which the inner clauses have no match (an
   * anti-join). Inner clauses see the outer variables; variables first bound inside stay inside.
   */
  record Not(List<Clause> clauses) implements Clause {
    public Not {
      clauses = List.copyOf(clauses);
    }
  }

  /**
   * {@code search(field, q)}, {@code fuzzy(field, q [, max_edits])}, {@code match_text(field, q)}:
   * rows whose node's text property matches {@code query} through the property's inverted index.
   *
   * @param field a String property of a node variable
   * @param query a String parameter or literal
   * @param maxEdits for {@link TextMode#FUZZY}, an integer parameter or literal, or null for
   *     {@link TextMode#DEFAULT_MAX_EDITS}; null otherwise
   */
  record TextMatch(Operand.Property field, TextMode mode, Value query, Value maxEdits) implements Clause {
    public TextMatch {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(query, "query");
      if (maxEdits != null && mode != TextMode.FUZZY) {
        throw new IllegalArgumentException(mode.spelling() + " takes no max_edits");
      }
    }
  }
}
