package dev.omnigraph.table;

/**
 * A full-text search asked for a column that has no inverted index at the version read. Lance would
 * answer anyway with an on-the-fly flat search whose analyzer differs from the index's (no
 * lowercasing, no stemming), so results would change when the index appears: the table layer
 * refuses instead. The query layer translates this into {@code api.SearchIndexMissing}.
 */
public final class MissingSearchIndex extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String location;
  private final String column;

  public MissingSearchIndex(String location, String column) {
    super("column '" + column + "' of table " + location + " has no inverted (full-text) index");
    this.location = location;
    this.column = column;
  }

  /** The table's dataset key. */
  public String location() {
    return location;
  }

  /** The column without an inverted index. */
  public String column() {
    return column;
  }
}
