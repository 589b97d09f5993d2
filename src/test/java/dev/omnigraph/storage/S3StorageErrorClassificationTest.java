package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.RetryableException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Every row of the S3 classification table, from constructed SDK exceptions. */
class S3StorageErrorClassificationTest {

  /** One message for every constructed exception: the kind must never depend on it. */
  private static final String SAME_TEXT = "The specified key does not exist.";

  private static S3Exception s3(int status, String code) {
    AwsErrorDetails.Builder details = AwsErrorDetails.builder()
        .serviceName("S3")
        .errorMessage(SAME_TEXT);
    if (code != null) {
      details.errorCode(code);
    }
    return (S3Exception) S3Exception.builder()
        .statusCode(status)
        .message(SAME_TEXT)
        .awsErrorDetails(details.build())
        .build();
  }

  private static Kind kind(Throwable t) {
    return S3Errors.classify("op", "k", t).kind();
  }

  @ParameterizedTest(name = "HTTP {0} code {1} -> {2}")
  @CsvSource(nullValues = "null", value = {
      // object-level not found
      "404, NoSuchKey, NOT_FOUND",
      "404, NotFound, NOT_FOUND",
      "404, null, NOT_FOUND",
      // missing bucket is a setup error, never absence
      "404, NoSuchBucket, CONFIGURATION",
      "404, NoSuchUpload, PERMANENT",
      // conditional writes
      "412, PreconditionFailed, PRECONDITION",
      "412, null, PRECONDITION",
      "409, ConditionalRequestConflict, TRANSIENT",
      "409, OperationAborted, TRANSIENT",
      "409, BucketAlreadyOwnedByYou, PERMANENT",
      // credentials, permissions, region
      "401, null, CONFIGURATION",
      "403, AccessDenied, CONFIGURATION",
      "403, InvalidAccessKeyId, CONFIGURATION",
      "403, SignatureDoesNotMatch, CONFIGURATION",
      "403, RequestTimeTooSkewed, CONFIGURATION",
      "403, null, CONFIGURATION",
      "400, ExpiredToken, CONFIGURATION",
      "400, AuthorizationHeaderMalformed, CONFIGURATION",
      "301, PermanentRedirect, CONFIGURATION",
      "307, TemporaryRedirect, CONFIGURATION",
      // retry later
      "408, RequestTimeout, TRANSIENT",
      "400, RequestTimeout, TRANSIENT",
      "429, null, TRANSIENT",
      "500, InternalError, TRANSIENT",
      "502, null, TRANSIENT",
      "503, SlowDown, TRANSIENT",
      "504, null, TRANSIENT",
      // retrying cannot help
      "501, NotImplemented, PERMANENT",
      "400, InvalidArgument, PERMANENT",
      "400, EntityTooLarge, PERMANENT",
      "405, MethodNotAllowed, PERMANENT",
      "411, MissingContentLength, PERMANENT",
      // nothing decides it
      "505, null, UNKNOWN",
      "200, null, UNKNOWN",
  })
  void serviceAnswers(int status, String code, Kind expected) {
    assertThat(kind(s3(status, code))).isEqualTo(expected);
  }

  @Test
  void theSameMessageWithDifferentStatusesGivesDifferentKinds() {
    assertThat(kind(s3(404, null))).isEqualTo(Kind.NOT_FOUND);
    assertThat(kind(s3(412, null))).isEqualTo(Kind.PRECONDITION);
    assertThat(kind(s3(403, null))).isEqualTo(Kind.CONFIGURATION);
    assertThat(kind(s3(503, null))).isEqualTo(Kind.TRANSIENT);
    assertThat(kind(s3(400, null))).isEqualTo(Kind.PERMANENT);
    assertThat(kind(s3(404, "NoSuchBucket"))).isEqualTo(Kind.CONFIGURATION);
  }

  @Test
  void typedS3ExceptionsDecideBeforeTheStatus() {
    NoSuchKeyException noKey = NoSuchKeyException.builder().statusCode(404).message(SAME_TEXT).build();
    NoSuchBucketException noBucket =
        NoSuchBucketException.builder().statusCode(404).message(SAME_TEXT).build();

    assertThat(kind(noKey)).isEqualTo(Kind.NOT_FOUND);
    assertThat(kind(noBucket)).isEqualTo(Kind.CONFIGURATION);
  }

  static Stream<Arguments> clientFailures() {
    return Stream.of(
        Arguments.of(sdkClient(new ConnectException("Connection refused")), Kind.CONFIGURATION),
        Arguments.of(sdkClient(new UnknownHostException("minio")), Kind.CONFIGURATION),
        Arguments.of(sdkClient(new UncheckedIOException(new ConnectException("x"))),
            Kind.CONFIGURATION),
        Arguments.of(sdkClient(new SocketTimeoutException("Read timed out")), Kind.TRANSIENT),
        Arguments.of(sdkClient(new IOException("Connection reset")), Kind.TRANSIENT),
        Arguments.of(sdkClient(new UncheckedIOException(new IOException("x"))), Kind.TRANSIENT),
        Arguments.of(ApiCallTimeoutException.create(1000), Kind.TRANSIENT),
        Arguments.of(ApiCallAttemptTimeoutException.create(1000), Kind.TRANSIENT),
        Arguments.of(RetryableException.create(SAME_TEXT),
            Kind.TRANSIENT),
        Arguments.of(SdkClientException.builder().message(SAME_TEXT).build(), Kind.UNKNOWN),
        Arguments.of(SdkException.builder().message(SAME_TEXT).build(), Kind.UNKNOWN),
        Arguments.of(new IllegalStateException(SAME_TEXT), Kind.UNKNOWN),
        Arguments.of(new UncheckedIOException(new IOException(SAME_TEXT)), Kind.TRANSIENT),
        Arguments.of(new UncheckedIOException(new ConnectException(SAME_TEXT)),
            Kind.CONFIGURATION));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("clientFailures")
  void failuresWithNoAnswer(Throwable failure, Kind expected) {
    assertThat(kind(failure)).isEqualTo(expected);
  }

  static Stream<Arguments> reasons() {
    return Stream.of(
        Arguments.of(sdkClient(new ConnectException(SAME_TEXT)), "connection refused"),
        Arguments.of(sdkClient(new UncheckedIOException(new ConnectException(SAME_TEXT))), "connection refused"),
        Arguments.of(sdkClient(new java.net.NoRouteToHostException(SAME_TEXT)), "no route to host"),
        Arguments.of(sdkClient(new UnknownHostException(SAME_TEXT)), "unknown host"),
        Arguments.of(sdkClient(new SocketTimeoutException(SAME_TEXT)), "timed out"),
        Arguments.of(ApiCallTimeoutException.create(1000), "timed out"),
        Arguments.of(ApiCallAttemptTimeoutException.create(1000), "timed out"),
        Arguments.of(sdkClient(new IOException(SAME_TEXT)), "connection failed"),
        Arguments.of(s3(503, "SlowDown"), "the store answered HTTP 503 SlowDown"),
        Arguments.of(s3(502, null), "the store answered HTTP 502"),
        Arguments.of(SdkClientException.builder().message(SAME_TEXT).build(), null));
  }

  /**
   * The words a client is told come from the same typed evidence as the kind, never from the text:
   * every failure here carries the same message, and none of them names a class.
   */
  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("reasons")
  void theReasonInWordsComesFromTheTypes(Throwable failure, String expected) {
    StorageException e = S3Errors.classify("endpoint http://s3:9000, graph root s3://b/g", "read", "k", failure);
    assertThat(e.reason().orElse(null)).isEqualTo(expected);
    assertThat(e.store()).contains("endpoint http://s3:9000, graph root s3://b/g");
    assertThat(e.clientMessage()).contains("endpoint http://s3:9000, graph root s3://b/g")
        .doesNotContain("Exception").doesNotContain(SAME_TEXT)
        .endsWith("unknown host".equals(expected) ? "; check the endpoint's host name, or retry later" : "; retry later");
  }

  @Test
  void anInterruptedCallIsUnknownAndKeepsTheInterrupt() {
    try {
      assertThat(kind(AbortedException.builder().message(SAME_TEXT).build()))
          .isEqualTo(Kind.UNKNOWN);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aStorageExceptionPassesThroughUnchanged() {
    StorageException original = new StorageException(Kind.PERMANENT, "put", "k", "bad key");

    assertThat(S3Errors.classify("other", "x", original)).isSameAs(original);
  }

  @Test
  void theClassifiedExceptionKeepsOperationKeyAndCause() {
    S3Exception cause = s3(412, "PreconditionFailed");

    StorageException e = S3Errors.classify("putIfAbsent", "locks/a", cause);

    assertThat(e.operation()).isEqualTo("putIfAbsent");
    assertThat(e.key()).isEqualTo("locks/a");
    assertThat(e.getCause()).isSameAs(cause);
    assertThat(e.getMessage()).contains("HTTP 412").contains("PreconditionFailed");
  }

  @ParameterizedTest(name = "DeleteObjects error code {0} -> {1}")
  @CsvSource(nullValues = "null", value = {
      "AccessDenied, CONFIGURATION",
      "NoSuchBucket, CONFIGURATION",
      "InternalError, TRANSIENT",
      "SlowDown, TRANSIENT",
      "NoSuchKey, NOT_FOUND",
      "SomethingNew, UNKNOWN",
      "null, UNKNOWN",
  })
  void perKeyDeleteErrors(String code, Kind expected) {
    assertThat(S3Errors.kindOfCode(code)).isEqualTo(expected);
  }

  private static SdkClientException sdkClient(Throwable cause) {
    return SdkClientException.builder().message(SAME_TEXT).cause(cause).build();
  }
}
