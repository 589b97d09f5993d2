package dev.omnigraph.query;

import dev.omnigraph.schema.PropertyType;
import java.util.Objects;

/**
 * The {@code where column op value} of an update or delete, over the target table's own rows.
 *
 * @param column a declared property, {@code id}, or for an edge {@code src}/{@code dst} (written
 *     {@code from}/{@code to} in the query)
 * @param type the column's type ({@code id}, {@code src} and {@code dst} are non-null Strings)
 * @param op the operator; for {@link CompareOp#IS_NULL}/{@link CompareOp#IS_NOT_NULL} the value is the
 *     null literal
 * @param value what the column is compared with
 */
public record Predicate(String column, PropertyType type, CompareOp op, Value value) {

  public Predicate {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(value, "value");
  }
}
