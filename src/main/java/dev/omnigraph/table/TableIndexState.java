package dev.omnigraph.table;

import dev.omnigraph.schema.IndexKind;
import java.util.Map;
import java.util.Objects;

/**
 * What an index planner needs to know about one exact version of a data table, read from that
 * version's manifest plus one count per vector column.
 *
 * @param version the version read
 * @param rows live rows at that version
 * @param indexes index name → kind of every index the version has (another Lance index type:
 *     {@link IndexKind#NONE})
 * @param vectors for each vector column asked about: how many rows hold a non-null vector (what
 *     IVF training needs at least one of)
 * @param texts for each full-text column asked about: how many rows hold a non-null, non-empty
 *     string (lance-core 7.0.0 cannot build an inverted index that holds no token: the reference's logic tests)
 */
public record TableIndexState(long version, long rows, Map<String, IndexKind> indexes, Map<String, Long> vectors,
    Map<String, Long> texts) {

  public TableIndexState {
    indexes = Map.copyOf(Objects.requireNonNull(indexes, "indexes"));
    vectors = Map.copyOf(Objects.requireNonNull(vectors, "vectors"));
    texts = Map.copyOf(Objects.requireNonNull(texts, "texts"));
  }

  /** A state with no full-text column asked about. */
  public TableIndexState(long version, long rows, Map<String, IndexKind> indexes, Map<String, Long> vectors) {
    this(version, rows, indexes, vectors, Map.of());
  }

  /** Whether an index of this name exists at the version. */
  public boolean has(String indexName) {
    return indexes.containsKey(indexName);
  }
}
