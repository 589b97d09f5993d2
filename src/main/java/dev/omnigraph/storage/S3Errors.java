package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The one place an AWS SDK failure becomes a {@link StorageException.Kind}.
 *
 * <p>Evidence, in order: our own {@link StorageException} passes through; the SDK's typed S3
 * exceptions ({@link NoSuchBucketException}, {@link NoSuchKeyException}); for any other service
 * answer its HTTP status and S3 error code ({@code awsErrorDetails().errorCode()}); for a failure
 * with no answer the SDK client-exception subtype and the {@code java.net} type of its cause chain.
 * Message text is never read: S3-compatible stores word their messages freely, and the same words
 * arrive with different statuses.
 *
 * <table>
 *   <caption>Classification</caption>
 *   <tr><th>evidence</th><th>kind</th></tr>
 *   <tr><td>{@code NoSuchBucketException}, error code {@code NoSuchBucket}</td><td>CONFIGURATION</td></tr>
 *   <tr><td>{@code NoSuchKeyException}; 404 with code {@code NoSuchKey}, {@code NotFound} or none</td>
 *       <td>NOT_FOUND</td></tr>
 *   <tr><td>other 404 codes (e.g. {@code NoSuchUpload})</td><td>PERMANENT</td></tr>
 *   <tr><td>412</td><td>PRECONDITION</td></tr>
 *   <tr><td>409 {@code ConditionalRequestConflict} / {@code OperationAborted}</td><td>TRANSIENT</td></tr>
 *   <tr><td>401, 403, credential / signature / clock-skew / region codes, 3xx redirects</td>
 *       <td>CONFIGURATION</td></tr>
 *   <tr><td>408, 429, 500, 502, 503, 504, throttling codes, SDK-retryable service errors</td>
 *       <td>TRANSIENT</td></tr>
 *   <tr><td>501 (the store lacks the feature, e.g. conditional writes)</td><td>PERMANENT</td></tr>
 *   <tr><td>other 4xx</td><td>PERMANENT</td></tr>
 *   <tr><td>no answer: connection refused, unknown host, no route</td><td>CONFIGURATION</td></tr>
 *   <tr><td>no answer: timeouts, other I/O, checksum mismatch, SDK-retryable client errors</td>
 *       <td>TRANSIENT</td></tr>
 *   <tr><td>anything else (interrupted call, other statuses, other client errors)</td><td>UNKNOWN</td></tr>
 * </table>
 *
 * <p>Connection refused is CONFIGURATION, not TRANSIENT: it proves no request reached a server, and
 * by the time it surfaces the SDK's own retries (on the retrying client) have already failed the same
 * way, so the endpoint is wrong or the store is down, and waiting inside the caller's retry loop will
 * not fix it. The kind's documentation already names "unreachable endpoint" as configuration.
 *
 * <p>409 is TRANSIENT, not PRECONDITION: S3 answers {@code ConditionalRequestConflict} when another
 * conditional write to the same key is still in flight. Ours definitely did not land, but the other
 * one may yet fail, so "the key exists" would be a claim the evidence does not support; a retry
 * settles it with 200 or 412.
 */
final class S3Errors {

  /** Credential, permission, clock and region mistakes: an operator must fix the setup. */
  private static final Set<String> CONFIGURATION_CODES = Set.of(
      "AccessDenied",
      "AllAccessDisabled",
      "AccountProblem",
      "InvalidAccessKeyId",
      "InvalidSecurity",
      "InvalidToken",
      "ExpiredToken",
      "TokenRefreshRequired",
      "SignatureDoesNotMatch",
      "RequestTimeTooSkewed",
      "AuthorizationHeaderMalformed",
      "PermanentRedirect",
      "TemporaryRedirect",
      "IllegalLocationConstraintException",
      "InvalidBucketName",
      "NotSignedUp");

  /** Codes S3 documents as "try again": throttling, internal errors, an idle connection timing out. */
  private static final Set<String> TRANSIENT_CODES = Set.of(
      "SlowDown",
      "Throttling",
      "ThrottlingException",
      "RequestLimitExceeded",
      "TooManyRequestsException",
      "RequestTimeout",
      "InternalError",
      "ServiceUnavailable",
      "ConditionalRequestConflict",
      "OperationAborted");

  /** Codes a 404 carries when the object (not the bucket, not an upload) is what is missing. */
  private static final Set<String> OBJECT_NOT_FOUND_CODES = Set.of("NoSuchKey", "NotFound", "404");

  private S3Errors() {}

  /**
   * Classifies {@code failure} raised while performing {@code operation} on {@code key}.
   *
   * @return a new exception carrying the kind and {@code failure} as cause (or {@code failure} itself
   *     when it already is a {@link StorageException})
   */
  static StorageException classify(String operation, String key, Throwable failure) {
    return classify(null, operation, key, failure);
  }

  /**
   * As {@link #classify(String, String, Throwable)}, naming the store ({@link StorageException#store()})
   * for the client's message.
   */
  static StorageException classify(String store, String operation, String key, Throwable failure) {
    if (failure instanceof StorageException se) {
      return se;
    }
    Kind kind = kindOf(failure);
    if (failure instanceof AbortedException) {
      // The SDK clears the interrupt when it aborts; keep it visible to the caller's thread.
      Thread.currentThread().interrupt();
    }
    return new StorageException(kind, operation, key, evidence(failure), failure, store, reason(failure));
  }

  /**
   * What went wrong in a client's words, from the same typed evidence as the kind (never the SDK's
   * message, never a class name); null when nothing typed tells.
   */
  static String reason(Throwable failure) {
    if (failure instanceof SdkServiceException s) {
      String code = errorCode(s);
      return "the store answered HTTP " + s.statusCode() + (code == null || code.isEmpty() ? "" : " " + code);
    }
    if (failure instanceof AbortedException) {
      return "interrupted";
    }
    // The most specific first: a refused connection is also an IOException.
    if (hasCause(failure, ConnectException.class)) {
      return "connection refused";
    }
    if (hasCause(failure, NoRouteToHostException.class)) {
      return "no route to host";
    }
    if (hasCause(failure, UnknownHostException.class)) {
      return "unknown host";
    }
    if (failure instanceof ApiCallTimeoutException || failure instanceof ApiCallAttemptTimeoutException
        || hasCause(failure, java.net.SocketTimeoutException.class)
        || hasCause(failure, java.net.http.HttpTimeoutException.class)) {
      return "timed out";
    }
    if (failure instanceof Crc32MismatchException) {
      return "checksum mismatch";
    }
    if (hasCause(failure, IOException.class) || hasCause(failure, UncheckedIOException.class)) {
      return "connection failed";
    }
    return null;
  }

  /**
   * Classifies one per-key error of a {@code DeleteObjects} answer, which carries an S3 error code
   * but no HTTP status.
   */
  static Kind kindOfCode(String errorCode) {
    if (errorCode == null || errorCode.isEmpty()) {
      return Kind.UNKNOWN;
    }
    if (errorCode.equals("NoSuchBucket") || CONFIGURATION_CODES.contains(errorCode)) {
      return Kind.CONFIGURATION;
    }
    if (TRANSIENT_CODES.contains(errorCode)) {
      return Kind.TRANSIENT;
    }
    if (errorCode.equals("NoSuchKey")) {
      return Kind.NOT_FOUND;
    }
    return Kind.UNKNOWN;
  }

  /** The kind alone; see the class table. */
  static Kind kindOf(Throwable failure) {
    if (failure instanceof StorageException se) {
      return se.kind();
    }
    // Typed S3 exceptions first: NoSuchBucket must never be read as an absent object.
    if (failure instanceof NoSuchBucketException) {
      return Kind.CONFIGURATION;
    }
    if (failure instanceof NoSuchKeyException) {
      return Kind.NOT_FOUND;
    }
    if (failure instanceof SdkServiceException service) {
      return serviceKind(service);
    }
    if (failure instanceof SdkException client) {
      return clientKind(client);
    }
    if (failure instanceof UncheckedIOException || failure instanceof IOException) {
      return connectionRefused(failure) ? Kind.CONFIGURATION : Kind.TRANSIENT;
    }
    return Kind.UNKNOWN;
  }

  private static Kind serviceKind(SdkServiceException e) {
    int status = e.statusCode();
    String code = errorCode(e);
    if ("NoSuchBucket".equals(code)) {
      return Kind.CONFIGURATION;
    }
    if (status == 404) {
      return code == null || code.isEmpty() || OBJECT_NOT_FOUND_CODES.contains(code)
          ? Kind.NOT_FOUND
          : Kind.PERMANENT;
    }
    if (status == 412) {
      return Kind.PRECONDITION;
    }
    if (status == 409) {
      return TRANSIENT_CODES.contains(code) ? Kind.TRANSIENT : Kind.PERMANENT;
    }
    if (status == 401 || status == 403 || (code != null && CONFIGURATION_CODES.contains(code))
        || e.isClockSkewException()) {
      return Kind.CONFIGURATION;
    }
    if (status >= 300 && status < 400) {
      // A redirect means the bucket lives in another region or behind another endpoint.
      return Kind.CONFIGURATION;
    }
    if (status == 408 || status == 429 || status == 500 || status == 502 || status == 503
        || status == 504 || (code != null && TRANSIENT_CODES.contains(code))
        || e.isThrottlingException()) {
      return Kind.TRANSIENT;
    }
    if (status == 501) {
      // S3-compatible stores answer 501 for a header they do not implement (If-None-Match on older
      // MinIO); retrying cannot make the feature appear.
      return Kind.PERMANENT;
    }
    if (status >= 400 && status < 500) {
      return Kind.PERMANENT;
    }
    if (e.retryable()) {
      return Kind.TRANSIENT;
    }
    return Kind.UNKNOWN;
  }

  private static Kind clientKind(SdkException e) {
    if (e instanceof AbortedException) {
      // Interrupted mid-call: the request may or may not have reached the store.
      return Kind.UNKNOWN;
    }
    if (connectionRefused(e)) {
      return Kind.CONFIGURATION;
    }
    if (e instanceof ApiCallTimeoutException
        || e instanceof ApiCallAttemptTimeoutException
        || e instanceof Crc32MismatchException
        || e.retryable()
        || hasCause(e, IOException.class)
        || hasCause(e, UncheckedIOException.class)) {
      return Kind.TRANSIENT;
    }
    return Kind.UNKNOWN;
  }

  /** Nothing accepted the connection: no server at that address, or no such address at all. */
  private static boolean connectionRefused(Throwable t) {
    return hasCause(t, ConnectException.class)
        || hasCause(t, UnknownHostException.class)
        || hasCause(t, NoRouteToHostException.class);
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    int depth = 0;
    for (Throwable c = t; c != null && depth < 16; c = c.getCause(), depth++) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static String errorCode(SdkServiceException e) {
    if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null) {
      return aws.awsErrorDetails().errorCode();
    }
    return null;
  }

  /** What decided the kind, for the exception text; typed facts only, never the SDK's message. */
  private static String evidence(Throwable failure) {
    StringBuilder b = new StringBuilder(failure.getClass().getSimpleName());
    if (failure instanceof SdkServiceException s) {
      b.append(", HTTP ").append(s.statusCode());
      String code = errorCode(s);
      if (code != null) {
        b.append(", code ").append(code);
      }
      if (s.requestId() != null) {
        b.append(", request ").append(s.requestId());
      }
    } else {
      Throwable root = failure;
      int depth = 0;
      while (root.getCause() != null && root.getCause() != root && depth++ < 16) {
        root = root.getCause();
      }
      if (root != failure) {
        b.append(", cause ").append(root.getClass().getSimpleName());
      }
    }
    return b.toString();
  }
}
