package dev.omnigraph.query;

import java.util.Objects;

/**
 * A checked search score, usable as a return column and an order key. Every score belongs to one
 * node variable bound outside {@code not} blocks: its value on a result row is the score of that
 * row's node. Scores are F64; see docs/indexes-and-search.md for the exact semantics.
 */
public sealed interface Score permits Score.Nearest, Score.Bm25, Score.Rrf {

  /** The node variable the score ranks. */
  String variable();

  /** The function name as written in a query. */
  String function();

  /**
   * {@code nearest($v.prop, q)}: the L2 distance (squared Euclidean, as Lance and the reference
   * report it) of the node's vector to {@code query}, lower is nearer; null when the node's vector
   * is null. Every vector, the zero vector included, has a distance (the reference's logic tests). Needs the query's {@code limit}: as a
   * leading order key it keeps the {@code limit} nearest rows of those the match admits.
   *
   * @param field a {@code Vector(n)} property of a node variable
   * @param query a {@code Vector(n)} parameter or a literal of n numbers (a float[] literal)
   */
  record Nearest(Operand.Property field, Value query) implements Score {
    public Nearest {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(query, "query");
    }

    @Override
    public String variable() {
      return field.variable();
    }

    @Override
    public String function() {
      return "nearest";
    }
  }

  /**
   * {@code bm25($v.prop, q)}: the BM25 relevance of the node's text to {@code query} from the
   * property's inverted index, higher is more relevant; null when the text does not match. As a
   * leading order key it keeps only matching rows.
   *
   * @param field a String property of a node variable
   * @param query a String parameter or literal
   */
  record Bm25(Operand.Property field, Value query) implements Score {
    public Bm25 {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(query, "query");
    }

    @Override
    public String variable() {
      return field.variable();
    }

    @Override
    public String function() {
      return "bm25";
    }
  }

  /**
   * {@code rrf(a, b [, k])}: reciprocal rank fusion, {@code 1/(k + rank_a) + 1/(k + rank_b)}, where a
   * rank is the node's 1-based position in that ranking among the nodes the match admits and a node
   * a ranking does not hold adds 0. A {@code nearest} ranking holds the query's {@code limit}
   * nearest nodes, a {@code bm25} ranking every matching node. 0 for a node in neither; as a leading
   * order key it keeps only nodes in either ranking.
   *
   * @param primary a {@link Nearest} or {@link Bm25} of the same variable as {@code secondary}
   * @param k the constant, an integer literal or parameter; null for the default {@value #DEFAULT_K}
   */
  record Rrf(Score primary, Score secondary, Value k) implements Score {
    /** The reference's default fusion constant. */
    public static final int DEFAULT_K = 60;

    public Rrf {
      Objects.requireNonNull(primary, "primary");
      Objects.requireNonNull(secondary, "secondary");
      if (primary instanceof Rrf || secondary instanceof Rrf) {
        throw new IllegalArgumentException("rrf fuses nearest and bm25 rankings, not rrf");
      }
    }

    @Override
    public String variable() {
      return primary.variable();
    }

    @Override
    public String function() {
      return "rrf";
    }
  }
}
