package dev.omnigraph.table;

import java.util.Objects;

/**
 * A full-text query on one column with an inverted index: the words of {@code text}, matched after
 * the index's analyzer (lowercase, stem, stop words), any word sufficing; with {@code maxEdits > 0}
 * each word also matches indexed terms within that Levenshtein distance (fuzzy).
 *
 * @param text the query text; blank text matches nothing
 * @param maxEdits 0 for exact terms, else the largest edit distance a fuzzy match may have
 */
public record TextQuery(String text, int maxEdits) {

  public TextQuery {
    Objects.requireNonNull(text, "text");
    if (maxEdits < 0) {
      throw new IllegalArgumentException("maxEdits must be at least 0, got " + maxEdits);
    }
  }

  /** Exact terms. */
  public static TextQuery match(String text) {
    return new TextQuery(text, 0);
  }

  /** Terms within {@code maxEdits} edits. */
  public static TextQuery fuzzy(String text, int maxEdits) {
    return new TextQuery(text, maxEdits);
  }
}
