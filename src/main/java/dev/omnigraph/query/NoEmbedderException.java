package dev.omnigraph.query;

/**
 * {@code nearest} was given text where it needs a vector: turning text into a vector needs an
 * embedding provider, and none is configured (the engine has none yet). The message is
 * {@code line:column: query 'name': reason}, as for {@link QueryParseException}, at the text
 * argument; pass a {@code Vector(n)} parameter instead.
 */
public final class NoEmbedderException extends QueryException {

  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String query;

  public NoEmbedderException(int line, int column, String query, String reason) {
    super(line + ":" + column + ": " + (query == null ? "" : "query '" + query + "': ") + reason);
    this.line = line;
    this.column = column;
    this.query = query;
  }

  /** 1-based line of the text argument. */
  public int line() {
    return line;
  }

  /** 1-based column of the text argument. */
  public int column() {
    return column;
  }

  /** The query the argument belongs to. */
  public String query() {
    return query;
  }
}
