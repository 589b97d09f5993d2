package dev.omnigraph.engine;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.query.QueryException;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.schema.InvalidKeyException;
import dev.omnigraph.schema.SchemaParseException;
import dev.omnigraph.api.storage.StorageException;

/**
 * The one table from a typed failure to what every surface reports: HTTP status, wire error code
 * (reference {@code ErrorCode}), CLI exit code, and the label metrics count it under. The server's
 * exception mapper and the CLI's exit codes both read it; nothing else classifies failures.
 * Classification is by type (and {@link StorageException#kind()}, {@link ReadBudgetExceeded#budget()}) only, never by message text;
 * anything not listed is {@link #INTERNAL}.
 */
public enum ErrorKind {
  /** {@link KeyConflict}: a strict insert met an existing id. */
  KEY_CONFLICT(409, "conflict", ErrorKind.EXIT_CONFLICT),
  /** {@link ReadSetChanged}: the prepared authority moved before any effect. */
  READ_SET_CHANGED(409, "conflict", ErrorKind.EXIT_CONFLICT),
  /**
   * {@link PreconditionFailed}: a conditional write's expected head is not the head. No wire code: the
   * reference keeps {@code ErrorCode} a closed rolling contract and carries the meaning in the additive
   * {@code precondition_failure} detail alone (its 412 body has no {@code code}).
   */
  PRECONDITION_FAILED(412, null, ErrorKind.EXIT_PRECONDITION),
  /** {@link ResourceLimitExceeded}: split the write. */
  RESOURCE_LIMIT(413, "bad_request", ErrorKind.EXIT_ERROR),
  /**
   * {@link dev.omnigraph.api.ExternalBlobUnreadable}: an allowed external Blob source could not be
   * probed or read by a write. No wire code, as in the reference: the {@code external_blob_source}
   * detail is the discriminator.
   */
  EXTERNAL_BLOB_SOURCE(424, null, ErrorKind.EXIT_ERROR),
  /** {@link dev.omnigraph.api.BodyTooLarge}: a request body over its route's limit, refused before it is read. */
  BODY_TOO_LARGE(413, "bad_request", ErrorKind.EXIT_ERROR),
  /** {@link ReadBudgetExceeded} of rows or bytes: the read would build more than it may hold. */
  READ_BUDGET(413, "bad_request", ErrorKind.EXIT_ERROR),
  /** {@link ReadBudgetExceeded} of time: the read ran past its timeout. */
  READ_TIMEOUT(408, "bad_request", ErrorKind.EXIT_ERROR),
  /**
   * {@link RecoveryRequired}: a sidecar must be settled before a retry. No wire code, as in the
   * reference: the {@code recovery_required} detail is the discriminator.
   */
  RECOVERY_REQUIRED(503, null, ErrorKind.EXIT_CONFLICT),
  /** {@link UnreadableSidecar}: a corrupt sidecar blocks writes until an operator acts. */
  UNREADABLE_SIDECAR(503, "internal", ErrorKind.EXIT_ERROR),
  /** {@link dev.omnigraph.api.MergeConflicts}: a branch merge found conflicts; nothing was written. */
  MERGE_CONFLICTS(409, "conflict", ErrorKind.EXIT_CONFLICT),
  /** {@link dev.omnigraph.api.ChangeDiffRefused}: a genesis commit or a schema boundary has no entity diff. */
  CHANGE_DIFF_REFUSED(409, "conflict", ErrorKind.EXIT_CONFLICT),
  /**
   * {@link dev.omnigraph.api.ChangeFeedGap}: cleanup reclaimed the history a change read needs. The
   * reference leaves {@code code} unset (its detail is the discriminator).
   */
  CHANGE_FEED_GAP(410, null, ErrorKind.EXIT_ERROR),
  /** Any other {@link Conflict}: name taken, uncovered drift, an init claim, a copied root not yet relocated. */
  CONFLICT(409, "conflict", ErrorKind.EXIT_CONFLICT),
  /**
   * {@link dev.omnigraph.api.Forbidden}: the graph's authorization refused the action (a policy, or
   * default-deny); nothing was prepared. Exit 1: retrying as the same actor cannot help.
   */
  FORBIDDEN(403, "forbidden", ErrorKind.EXIT_ERROR),
  /**
   * {@link dev.omnigraph.api.TooManyRequests}: the actor's admission limit of concurrent requests is
   * reached; 429 with {@code Retry-After}, nothing ran.
   */
  TOO_MANY_REQUESTS(429, "too_many_requests", ErrorKind.EXIT_CONFLICT),
  /** {@link NotFound}: graph, branch or commit. */
  NOT_FOUND(404, "not_found", ErrorKind.EXIT_ERROR),
  /** The request is wrong: {@link InvalidRequest} (load input, constraints), query and schema errors. */
  BAD_REQUEST(400, "bad_request", ErrorKind.EXIT_ERROR),
  /**
   * A {@link StorageException.Kind#TRANSIENT} storage failure, or a store nobody answered at
   * ({@link StorageException#unreachable()}: connection refused, no route, unknown host): retry later.
   */
  STORAGE_UNAVAILABLE(503, "internal", ErrorKind.EXIT_ERROR),
  /**
   * This service instance takes no writes for the graph now ({@link dev.omnigraph.api.WriterUnavailable}:
   * a standby, a lost lease, draining, a read replica); 503 with {@code Retry-After} when a retry here
   * can succeed.
   */
  WRITER_UNAVAILABLE(503, "internal", ErrorKind.EXIT_CONFLICT),
  /** Any other storage failure. */
  STORAGE_FAILURE(500, "internal", ErrorKind.EXIT_ERROR),
  /** {@link UnsupportedStorageVersion}: rebuild or upgrade; retrying cannot help. */
  UNSUPPORTED_STORAGE_VERSION(500, "internal", ErrorKind.EXIT_ERROR),
  /** Everything else: a bug or an unclassified failure (logged with its trace, answered generically). */
  INTERNAL(500, "internal", ErrorKind.EXIT_ERROR);

  /** CLI exit code of a failed command. */
  public static final int EXIT_ERROR = 1;
  /** CLI exit code of a conflict (the 409/503 class). */
  public static final int EXIT_CONFLICT = 3;
  /** CLI exit code of a failed {@code --if-commit} precondition. */
  public static final int EXIT_PRECONDITION = 4;

  private final int httpStatus;
  private final String code;
  private final int exitCode;

  ErrorKind(int httpStatus, String code, int exitCode) {
    this.httpStatus = httpStatus;
    this.code = code;
    this.exitCode = exitCode;
  }

  /** The HTTP status the server answers with. */
  public int httpStatus() {
    return httpStatus;
  }

  /** The wire {@code ErrorCode}; null where the reference omits it (the detail field says what happened). */
  public String code() {
    return code;
  }

  /** The CLI exit code. */
  public int exitCode() {
    return exitCode;
  }

  /** The metrics label, e.g. {@code key_conflict}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The message a client (HTTP body, CLI error line) is shown for {@code failure} of this kind: for
   * {@link #STORAGE_UNAVAILABLE} which store did not answer and why, in words
   * ({@link StorageException#clientMessage()}), never the storage layer's evidence text with its
   * class names (that and the cause go to the log); otherwise the failure's own message.
   */
  public String message(Throwable failure) {
    if (this == STORAGE_UNAVAILABLE && failure instanceof StorageException s) {
      return s.clientMessage();
    }
    if (failure instanceof StorageException s && s.kind() == StorageException.Kind.CONFIGURATION
        && s.reason().isPresent()) {
      return s.clientMessage(); // what to set, without the SDK's text
    }
    return failure.getMessage();
  }

  /** Whether the message may be shown to a client as is (everything but {@link #INTERNAL}). */
  public boolean exposesMessage() {
    return this != INTERNAL;
  }

  /** The kind of {@code failure}, by its type. */
  public static ErrorKind of(Throwable failure) {
    if (failure instanceof KeyConflict) {
      return KEY_CONFLICT;
    } else if (failure instanceof ReadSetChanged) {
      return READ_SET_CHANGED;
    } else if (failure instanceof PreconditionFailed) {
      return PRECONDITION_FAILED;
    } else if (failure instanceof ResourceLimitExceeded) {
      return RESOURCE_LIMIT;
    } else if (failure instanceof dev.omnigraph.api.ExternalBlobUnreadable) {
      return EXTERNAL_BLOB_SOURCE;
    } else if (failure instanceof dev.omnigraph.api.BodyTooLarge) {
      return BODY_TOO_LARGE;
    } else if (failure instanceof ReadBudgetExceeded r) {
      return r.budget() == ReadBudgetExceeded.Budget.TIMEOUT_MS ? READ_TIMEOUT : READ_BUDGET;
    } else if (failure instanceof RecoveryRequired) {
      return RECOVERY_REQUIRED;
    } else if (failure instanceof dev.omnigraph.api.WriterUnavailable) {
      return WRITER_UNAVAILABLE;
    } else if (failure instanceof UnreadableSidecar) {
      return UNREADABLE_SIDECAR;
    } else if (failure instanceof dev.omnigraph.api.MergeConflicts) {
      return MERGE_CONFLICTS;
    } else if (failure instanceof Conflict) {
      return CONFLICT;
    } else if (failure instanceof dev.omnigraph.api.Forbidden) {
      return FORBIDDEN;
    } else if (failure instanceof dev.omnigraph.api.TooManyRequests) {
      return TOO_MANY_REQUESTS;
    } else if (failure instanceof dev.omnigraph.api.ChangeDiffRefused) {
      return CHANGE_DIFF_REFUSED;
    } else if (failure instanceof dev.omnigraph.api.ChangeFeedGap) {
      return CHANGE_FEED_GAP;
    } else if (failure instanceof NotFound) {
      return NOT_FOUND;
    } else if (failure instanceof UnsupportedStorageVersion) {
      return UNSUPPORTED_STORAGE_VERSION;
    } else if (failure instanceof InvalidRequest
        || failure instanceof QueryException
        || failure instanceof SchemaParseException
        || failure instanceof InvalidKeyException) {
      return BAD_REQUEST;
    } else if (failure instanceof StorageException s) {
      return s.kind() == StorageException.Kind.TRANSIENT || s.unreachable() ? STORAGE_UNAVAILABLE : STORAGE_FAILURE;
    }
    return INTERNAL;
  }
}
