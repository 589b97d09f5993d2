package dev.omnigraph.table;

import dev.omnigraph.schema.IndexKind;
import java.util.Objects;

/**
 * One index to build on a data table: its column and kind. The Lance index name is
 * {@code <column>_idx} for every kind (Lance's own default spelling, and the key indexes' names:
 * {@code id_idx}, {@code src_idx}, {@code dst_idx}), so "does the table have it" is a name lookup
 * that the EnsureIndices planner and the key-index maintenance answer alike.
 *
 * @param column the column (a property name, or {@code id}/{@code src}/{@code dst})
 * @param kind {@link IndexKind#BTREE}, {@link IndexKind#INVERTED} or {@link IndexKind#VECTOR}
 */
public record IndexSpec(String column, IndexKind kind) {

  public IndexSpec {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    if (kind == IndexKind.NONE) {
      throw new IllegalArgumentException("no index of kind NONE can be built (column " + column + ")");
    }
  }

  /** The index's name on the table. */
  public String name() {
    return indexName(column);
  }

  /** The index name of {@code column}, whatever its kind. */
  public static String indexName(String column) {
    return column + "_idx";
  }
}
