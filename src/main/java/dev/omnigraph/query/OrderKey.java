package dev.omnigraph.query;

import java.util.Objects;

/**
 * A checked {@code order} key. Ascending puts nulls first; the executor breaks remaining ties by the
 * bound entities' ids so order is total.
 */
public sealed interface OrderKey permits OrderKey.ByColumn, OrderKey.ByProperty {

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
}
