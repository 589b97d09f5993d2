package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OmnigraphException;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.query.QueryParseException;
import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.write.LoadInputError;
import dev.omnigraph.api.UncoveredDrift;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one failure table: status, wire code and exit code per type, by type only. */
class ErrorKindTest {

  @Test
  void everyTypedOutcomeHasItsStatusCodeAndExitCode() {
    assertKind(new KeyConflict("node:Person", "ann"), ErrorKind.KEY_CONFLICT, 409, "conflict", 3);
    assertKind(new ReadSetChanged(new dev.omnigraph.api.ReadSetMember.GraphHead("main"), Optional.of("a"), Optional.of("b")),
        ErrorKind.READ_SET_CHANGED, 409, "conflict", 3);
    assertKind(new PreconditionFailed("a", Optional.empty()), ErrorKind.PRECONDITION_FAILED, 412, null, 4);
    assertKind(new ResourceLimitExceeded("rows:node:P", 8192, 8193), ErrorKind.RESOURCE_LIMIT, 413, "bad_request", 1);
    assertKind(new ReadBudgetExceeded(ReadBudgetExceeded.Budget.INTERMEDIATE_ROWS, 10, 11), ErrorKind.READ_BUDGET,
        413, "bad_request", 1);
    assertKind(new ReadBudgetExceeded(ReadBudgetExceeded.Budget.INTERMEDIATE_BYTES, 10, 11), ErrorKind.READ_BUDGET,
        413, "bad_request", 1);
    assertKind(new ReadBudgetExceeded(ReadBudgetExceeded.Budget.TIMEOUT_MS, 10, 11), ErrorKind.READ_TIMEOUT,
        408, "bad_request", 1);
    assertThat(ErrorKind.READ_TIMEOUT.label()).isEqualTo("read_timeout");
    assertKind(new RecoveryRequired("op", "x"), ErrorKind.RECOVERY_REQUIRED, 503, null, 3);
    assertKind(new Conflict("taken"), ErrorKind.CONFLICT, 409, "conflict", 3);
    assertKind(new dev.omnigraph.api.LeaseHeld("o", "h", 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH),
        ErrorKind.CONFLICT, 409, "conflict", 3);
    assertKind(new dev.omnigraph.api.LeaseLost("o", "taken over"), ErrorKind.CONFLICT, 409, "conflict", 3);
    assertKind(new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.DRAINING, "d",
        Optional.of(5L)), ErrorKind.WRITER_UNAVAILABLE, 503, "internal", 3);
    assertKind(new UncoveredDrift("node:P", "moved"), ErrorKind.CONFLICT, 409, "conflict", 3);
    assertKind(new NotFound("branch", "b"), ErrorKind.NOT_FOUND, 404, "not_found", 1);
    assertKind(new dev.omnigraph.api.Forbidden("denied", "change", java.util.Optional.of("main"),
        java.util.Optional.empty()), ErrorKind.FORBIDDEN, 403, "forbidden", 1);
    assertKind(new InvalidRequest("bad"), ErrorKind.BAD_REQUEST, 400, "bad_request", 1);
    assertKind(new LoadInputError(2, "bad"), ErrorKind.BAD_REQUEST, 400, "bad_request", 1);
    assertKind(new QueryParseException(1, 2, "q", "bad"), ErrorKind.BAD_REQUEST, 400, "bad_request", 1);
    assertKind(new UnsupportedStorageVersion("r", 5, 6), ErrorKind.UNSUPPORTED_STORAGE_VERSION, 500, "internal", 1);
    assertKind(new StorageException(StorageException.Kind.TRANSIENT, "get", "k", "slow down"),
        ErrorKind.STORAGE_UNAVAILABLE, 503, "internal", 1);
    assertKind(new StorageException(StorageException.Kind.CONFIGURATION, "get", "k", "denied"),
        ErrorKind.STORAGE_FAILURE, 500, "internal", 1);
    // A store nobody answered at (refused, no route) is unavailable, not broken: 503.
    assertKind(new StorageException(StorageException.Kind.CONFIGURATION, "get", "k", "refused",
            new RuntimeException(new java.net.ConnectException("Connection refused"))),
        ErrorKind.STORAGE_UNAVAILABLE, 503, "internal", 1);
    assertKind(new StorageException(StorageException.Kind.CONFIGURATION, "get", "k", "no route",
            new java.net.NoRouteToHostException()),
        ErrorKind.STORAGE_UNAVAILABLE, 503, "internal", 1);
    assertKind(new IllegalStateException("conflict: key"), ErrorKind.INTERNAL, 500, "internal", 1);
    assertThat(ErrorKind.INTERNAL.exposesMessage()).isFalse();
    assertThat(ErrorKind.KEY_CONFLICT.label()).isEqualTo("key_conflict");
  }

  @Test
  void aStoreThatDidNotAnswerIsToldInWordsAndEverythingElseByItsOwnMessage() {
    StorageException refused = new StorageException(StorageException.Kind.CONFIGURATION, "read", "k",
        "SdkClientException, cause ConnectException", new RuntimeException(new java.net.ConnectException()),
        "endpoint http://s3:9000, graph root s3://b/g", "connection refused");
    assertThat(ErrorKind.of(refused).message(refused)).isEqualTo(
        "the object store did not answer (connection refused): endpoint http://s3:9000, graph root s3://b/g; retry later");
    assertThat(refused.getMessage()).as("the log keeps the evidence").contains("SdkClientException");
    StorageException slow = new StorageException(StorageException.Kind.TRANSIENT, "read", "k", "S3Exception",
        null, "endpoint http://s3:9000, graph root s3://b/g", "the store answered HTTP 503 SlowDown");
    assertThat(ErrorKind.of(slow).message(slow)).isEqualTo("the object store is unavailable (the store answered "
        + "HTTP 503 SlowDown): endpoint http://s3:9000, graph root s3://b/g; retry later");
    StorageException denied = new StorageException(StorageException.Kind.CONFIGURATION, "get", "k", "denied");
    assertThat(ErrorKind.of(denied).message(denied)).isEqualTo(denied.getMessage());
    Conflict taken = new Conflict("taken");
    assertThat(ErrorKind.of(taken).message(taken)).isEqualTo("taken");
  }

  @Test
  void theTableAgreesWithTheCodeEveryEngineOutcomeCarries() {
    for (OmnigraphException e : List.of(new KeyConflict("node:P", "a"), new Conflict("c"), new NotFound("k", "n"),
        new InvalidRequest("i"), new ResourceLimitExceeded("r", 1, 2), new RecoveryRequired("o", "m"),
        new PreconditionFailed("e", Optional.empty()), new UnsupportedStorageVersion("r", 7, 6),
        new ReadSetChanged(new dev.omnigraph.api.ReadSetMember.Schema(), Optional.empty(), Optional.empty()),
        new ReadBudgetExceeded(ReadBudgetExceeded.Budget.TIMEOUT_MS, 1, 2),
        new dev.omnigraph.api.ChangeDiffRefused(dev.omnigraph.api.ChangeDiffRefused.Reason.PARENTLESS_COMMIT, "c",
            Optional.empty(), "m"),
        new dev.omnigraph.api.ChangeFeedGap("c", "m"))) {
      assertThat(ErrorKind.of(e).code()).as(e.getClass().getSimpleName()).isEqualTo(e.code());
    }
  }

  private static void assertKind(Throwable t, ErrorKind kind, int status, String code, int exit) {
    assertThat(ErrorKind.of(t)).as(t.getClass().getSimpleName()).isEqualTo(kind);
    assertThat(kind.httpStatus()).isEqualTo(status);
    assertThat(kind.code()).isEqualTo(code);
    assertThat(kind.exitCode()).isEqualTo(exit);
  }
}
