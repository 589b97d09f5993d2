package dev.omnigraph.query;

/**
 * A {@code .gq} query was rejected before it touched any data: its text, its types, the query name
 * asked for, or the parameters supplied. Every subclass is a caller error (HTTP 400, CLI usage
 * error); none is retryable.
 */
public abstract class QueryException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  QueryException(String message) {
    super(message);
  }
}
