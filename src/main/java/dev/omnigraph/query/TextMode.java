package dev.omnigraph.query;

/** The full-text match filters of {@code match}; each needs an inverted index on its property. */
public enum TextMode {
  /** {@code search(field, q)}: any word of {@code q} matches (after the index's analyzer). */
  SEARCH("search"),
  /** {@code fuzzy(field, q [, max_edits])}: as search, each word within max_edits edits (default 2). */
  FUZZY("fuzzy"),
  /**
   * {@code match_text(field, q)}: matches as search does. The reference documents it as its
   * fallback for phrase matching, which needs positions in the index; the default index has none.
   */
  MATCH_TEXT("match_text");

  /** The reference's default edit distance of {@code fuzzy}. */
  public static final int DEFAULT_MAX_EDITS = 2;

  private final String spelling;

  TextMode(String spelling) {
    this.spelling = spelling;
  }

  /** The function name as written in a query. */
  public String spelling() {
    return spelling;
  }
}
