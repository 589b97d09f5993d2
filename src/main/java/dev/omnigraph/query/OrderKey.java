package dev.omnigraph.query;

import java.util.Objects;

/**
 * A checked {@code order} key. Ascending puts nulls first; the executor breaks remaining ties by the
 * bound entities' ids so order is total.
 */
public sealed interface OrderKey permits OrderKey.ByColumn, OrderKey.ByProperty, OrderKey.ByScore {

  /** True for {@code desc}. */
  boolean descending();

  /** Sort by a returned column: named by its alias, or written as the same expression. */
  record ByColumn(String column, boolean descending) implements OrderKey {
    public ByColumn {
      Objects.requireNonNull(column, "column");
    }
  }

  /** Sort by a property of a bound variable that is not returned (only in non-aggregating queries). */
  record ByProperty(Operand.Property property, boolean descending) implements OrderKey {
    public ByProperty {
      Objects.requireNonNull(property, "property");
    }
  }

  /**
   * Sort by a search score of each row's node. As the first key it is a search: {@code nearest}
   * keeps the {@code limit} nearest rows (ascending distance), {@code bm25} the matching rows and
   * {@code rrf} the rows either ranking holds (both descending unless written {@code asc}).
   */
  record ByScore(Score score, boolean descending) implements OrderKey {
    public ByScore {
      Objects.requireNonNull(score, "score");
    }
  }
}
