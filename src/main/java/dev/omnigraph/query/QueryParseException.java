package dev.omnigraph.query;

/**
 * A {@code .gq} text was rejected by the parser or the typechecker. The message is
 * {@code line:column: [query 'name': ]reason}; the position is that of the offending token, 1-based,
 * columns counting characters (a tab is one column). The query name is absent only for errors that
 * belong to no declaration (a syntax error between declarations, say).
 */
public final class QueryParseException extends QueryException {

  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String query;
  private final String reason;

  /**
   * @param line 1-based line of the offending token
   * @param column 1-based column of the offending token
   * @param query the declaration the error belongs to, or null
   * @param reason what is wrong and, where possible, how to fix it
   */
  public QueryParseException(int line, int column, String query, String reason) {
    super(line + ":" + column + ": " + (query == null ? "" : "query '" + query + "': ") + reason);
    this.line = line;
    this.column = column;
    this.query = query;
    this.reason = reason;
  }

  /** 1-based line of the offending token. */
  public int line() {
    return line;
  }

  /** 1-based column of the offending token. */
  public int column() {
    return column;
  }

  /** The declaration the error belongs to, or null when it belongs to none. */
  public String query() {
    return query;
  }

  /** The message without position and query name. */
  public String reason() {
    return reason;
  }
}
