package dev.omnigraph.query;

/**
 * The parameters supplied to a query do not fit its declaration: a required one is missing, one is
 * not declared, or a value has the wrong JSON shape or is out of the declared type's range.
 */
public final class QueryParamException extends QueryException {

  private static final long serialVersionUID = 1L;

  private final String query;
  private final String param;

  /**
   * @param query the query the parameters were bound for
   * @param param the parameter at fault, without its {@code $}; null when the fault is the whole
   *     parameter object
   * @param reason what is wrong with it
   */
  public QueryParamException(String query, String param, String reason) {
    super("query '" + query + "': " + (param == null ? "" : "parameter $" + param + ": ") + reason);
    this.query = query;
    this.param = param;
  }

  /** The query the parameters were bound for. */
  public String query() {
    return query;
  }

  /** The parameter at fault, without its {@code $}; null when the fault is the whole parameter object. */
  public String param() {
    return param;
  }
}
