package dev.omnigraph.table;

/**
 * A full-text index build found no token in its column (every value null, empty, or only stop
 * words, punctuation or words longer than the tokenizer keeps): lance-core 7.0.0 cannot build an
 * inverted index that holds nothing (the reference's logic tests; fixed upstream later, lance-format/lance#8482). Nothing
 * was committed; the build's files are garbage for cleanup. The index can be built once a row
 * holds a word.
 */
public final class NoTextToIndex extends IllegalArgumentException {

  private final String column;

  NoTextToIndex(String column, Throwable cause) {
    super("column '" + column + "' holds no word to index yet (every value is null, empty, or only stop words"
        + " or punctuation); a full-text index needs at least one", cause);
    this.column = column;
  }

  /** The column whose index could not be built. */
  public String column() {
    return column;
  }
}
