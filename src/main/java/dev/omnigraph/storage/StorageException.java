package dev.omnigraph.storage;

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

  public StorageException(Kind kind, String operation, String key, String message, Throwable cause) {
    super(operation + " " + key + ": " + kind + (message == null ? "" : " (" + message + ")"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.operation = Objects.requireNonNull(operation, "operation");
    this.key = key;
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
   * Whether no server accepted the connection (refused, no route): the store is down or the endpoint
   * is wrong, and nothing reached it. {@link S3Errors} classifies that {@link Kind#CONFIGURATION} so
   * the write retry loop does not wait on it; a client is still told the service is unavailable
   * (503), because the same answer comes from a store that is briefly down. Typed evidence only: the
   * {@code java.net} type in the cause chain.
   */
  public boolean unreachable() {
    int depth = 0;
    for (Throwable c = getCause(); c != null && depth < 16; c = c.getCause(), depth++) {
      if (c instanceof java.net.ConnectException || c instanceof java.net.NoRouteToHostException) {
        return true;
      }
    }
    return false;
  }

  /** True for {@link Kind#NOT_FOUND}. */
  public boolean isNotFound() {
    return kind == Kind.NOT_FOUND;
  }
}
