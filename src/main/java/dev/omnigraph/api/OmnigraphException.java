package dev.omnigraph.api;

/**
 * Base of every typed engine outcome. Callers branch on the subtype and its fields, never on the
 * message; the server and the CLI map each subtype once to an HTTP status, an error code and an
 * exit code.
 */
public abstract class OmnigraphException extends RuntimeException {

  protected OmnigraphException(String message) {
    super(message);
  }

  protected OmnigraphException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The wire error code (reference {@code ErrorCode}), e.g. {@code conflict}. */
  public abstract String code();
}
