package dev.omnigraph.schema;

/**
 * A {@code .pg} schema was rejected: a syntax error or a semantic one (unknown type, duplicate
 * property, bad constraint, ...). The message is {@code line:column: reason}, where the position is
 * that of the offending token, 1-based, columns counting characters (a tab is one column).
 */
public final class SchemaParseException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String reason;

  /**
   * @param line 1-based line of the offending token
   * @param column 1-based column of the offending token
   * @param reason what is wrong and, where possible, how to fix it
   */
  public SchemaParseException(int line, int column, String reason) {
    super(line + ":" + column + ": " + reason);
    this.line = line;
    this.column = column;
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

  /** The message without its position. */
  public String reason() {
    return reason;
  }
}
