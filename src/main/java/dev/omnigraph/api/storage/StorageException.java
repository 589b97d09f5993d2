package dev.omnigraph.api.storage;

import java.util.Objects;

/**
 * A storage failure with a closed {@link Kind}. The kind is decided where the failure is caught, from
 * typed evidence only (SDK exception class, HTTP status, service error code, {@code java.nio.file}
 * exception class); callers branch on {@link #kind()}, never on the message.
 */
public final class StorageException extends RuntimeException {

  /** What went wrong, as far as the backend's typed evidence tells. */
  public enum Kind {
    /** The object does not exist (S3 404 for the object; {@code NoSuchFileException}). */
    NOT_FOUND,
    /** A conditional write lost: the object already exists (S3 412; {@code FileAlreadyExistsException}). */
    PRECONDITION,
    /** Worth retrying later: throttling, 5xx, connection or timeout failures. */
    TRANSIENT,
    /** The store is set up wrong: credentials, permissions, missing bucket, unreachable endpoint. */
    CONFIGURATION,
    /** Retrying cannot help: a rejected request, an invalid key, a non-directory in the path. */
    PERMANENT,
    /** No typed evidence decided it; treat as an unknown outcome. */
    UNKNOWN
  }

  private final Kind kind;
  private final String operation;
  private final String key;
  /** Which store, in a client's terms (endpoint and graph root); null when the backend did not say. */
  private final String store;
  /** What went wrong in words ("connection refused", "timed out", "HTTP 503 SlowDown"); may be null. */
  private final String reason;

  public StorageException(Kind kind, String operation, String key, String message, Throwable cause) {
    this(kind, operation, key, message, cause, null, null);
  }

  /**
   * @param store which store failed, in a client's terms (e.g. {@code endpoint http://s3:9000, graph
   *     root s3://bucket/g}); never credentials
   * @param reason what went wrong in words, from typed evidence ({@code connection refused},
   *     {@code timed out}, {@code unknown host}, {@code the store answered HTTP 503 SlowDown}); never
   *     a class name or the SDK's message
   */
  public StorageException(Kind kind, String operation, String key, String message, Throwable cause, String store,
      String reason) {
    super(operation + " " + key + ": " + kind + (message == null ? "" : " (" + message + ")"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.operation = Objects.requireNonNull(operation, "operation");
    this.key = key;
    this.store = store;
    this.reason = reason;
  }

  public StorageException(Kind kind, String operation, String key, String message) {
    this(kind, operation, key, message, null);
  }

  /** The classified kind. */
  public Kind kind() {
    return kind;
  }

  /** The adapter operation that failed, e.g. {@code putIfAbsent}. */
  public String operation() {
    return operation;
  }

  /** The key (or prefix) the operation addressed. */
  public String key() {
    return key;
  }

  /**
   * Whether no server accepted the connection (refused, no route, a host name that does not
   * resolve): the store is down or the endpoint is wrong, and nothing reached it. {@code S3Errors} classifies that {@link Kind#CONFIGURATION} so
   * the write retry loop does not wait on it; a client is still told the service is unavailable
   * (503), because the same answer comes from a store that is briefly down. Typed evidence only: the
   * {@code java.net} type in the cause chain.
   */
  public boolean unreachable() {
    int depth = 0;
    for (Throwable c = getCause(); c != null && depth < 16; c = c.getCause(), depth++) {
      if (c instanceof java.net.ConnectException || c instanceof java.net.NoRouteToHostException
          || c instanceof java.net.UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  /**
   * What a client is told when the store is unavailable: which store, and why in words, e.g.
   * {@code the object store did not answer (connection refused): endpoint http://127.0.0.1:9000,
   * graph root s3://bucket/g; retry later}. Never a Java class name, the SDK's message or a trace:
   * {@link #getMessage()} (with the classification evidence) and the cause chain are for the log.
   */
  public String clientMessage() {
    String where = store != null ? store : (key == null ? operation : operation + " " + key);
    if (kind == Kind.CONFIGURATION && reason != null && !unreachable()) {
      // Set up wrong (credentials, endpoint): retrying cannot help, the reason says what to set.
      return "the object store cannot be used as configured: " + reason + " (" + where + ")";
    }
    String why = reason != null ? reason : kind.name().toLowerCase(java.util.Locale.ROOT) + " failure";
    boolean answered = why.startsWith("the store answered");
    // A name that does not resolve is as often a typo in the endpoint as a DNS outage.
    String advice = why.equals("unknown host") ? "; check the endpoint's host name, or retry later" : "; retry later";
    return (answered ? "the object store is unavailable (" : "the object store did not answer (") + why + "): "
        + where + advice;
  }

  /** Which store failed, in a client's terms, when the backend said. */
  public java.util.Optional<String> store() {
    return java.util.Optional.ofNullable(store);
  }

  /** What went wrong in words, when typed evidence told. */
  public java.util.Optional<String> reason() {
    return java.util.Optional.ofNullable(reason);
  }

  /** True for {@link Kind#NOT_FOUND}. */
  public boolean isNotFound() {
    return kind == Kind.NOT_FOUND;
  }
}
