package dev.omnigraph.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.BTreeIndexParams;

/**
 * The key indexes of a data table: one Lance BTree scalar index per key column ({@code id} on every
 * table, {@code src} and {@code dst} on edge tables), so the exact-id preflight, the upsert/delete
 * row lookup and the endpoint probes read the index and only the fragments that hold a probed key
 * (plus the fragments the index does not cover yet), instead of every fragment of the table's
 * history (docs/write-path.md, "what a write costs"; docs/lance-write-layer.md, "Scalar indexes on id/src/dst").
 *
 * <p>Lance uses an index automatically for a filtered scan on its column and scans the fragments
 * the index does not cover, so a stale index costs reads, never correctness.
 */
final class KeyIndexes {

  /** The columns that get a key index when the table has them, in creation order. */
  static final List<String> KEY_COLUMNS = List.of("id", "src", "dst");

  /**
   * The most commits one index optimization adds: one {@code CreateIndex} per missing key index,
   * then one for the fold of the stale scalar indexes and one for the stale vector indexes
   * ({@link TableIndexes#optimizeIndices}).
   */
  static final int MAX_INDEX_COMMITS = KEY_COLUMNS.size() + 2;

  private KeyIndexes() {}

  /** The index name for a key column: Lance's own default spelling, {@code <column>_idx}. */
  static String indexName(String column) {
    return column + "_idx";
  }

  /** The key columns {@code schema} has (Utf8 {@code id}, {@code src}, {@code dst}), in creation order. */
  static List<String> keyColumns(Schema schema) {
    List<String> out = new ArrayList<>();
    for (String column : KEY_COLUMNS) {
      for (Field field : schema.getFields()) {
        if (field.getName().equals(column) && field.getType() instanceof ArrowType.Utf8) {
          out.add(column);
        }
      }
    }
    return out;
  }

  /**
   * Builds the BTree index on {@code column} over every fragment of {@code dataset}'s checked-out
   * version and commits it: one {@code CreateIndex} transaction, one new version, with a uuid Lance
   * mints (lance-java 7.0.0 takes no transaction uuid here). Works on an empty table (the index
   * then covers no fragment). Fails if an index of that name exists.
   */
  static void create(Dataset dataset, String column) {
    dataset.createIndex(IndexOptions.builder(List.of(column), IndexType.BTREE,
            IndexParams.builder().setScalarIndexParams(new BTreeIndexParams.Builder().build()).build())
        .withIndexName(indexName(column))
        .replace(false)
        .build());
  }
}
