package dev.omnigraph.table;

import java.util.Map;
import java.util.Objects;

/**
 * One search result: the row's requested columns and its score. For a full-text search the score
 * is Lance's BM25 {@code _score} (higher is more relevant); for a vector search it is the exact
 * squared L2 distance (lower is nearer), computed in double precision from the row's vector.
 */
public record ScoredRow(Map<String, Object> row, double score) {

  public ScoredRow {
    Objects.requireNonNull(row, "row");
  }
}
