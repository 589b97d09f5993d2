package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.ErrorKind;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.UnreachableStoreTest;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/**
 * The HTTP answer to a graph whose S3 endpoint nobody listens on: the real open failure (a closed
 * loopback port, no S3 server needed) through the server's one mapper, and the real read and write
 * failures of a graph whose S3 server stopped answering after it was opened. Before: 500
 * {@code internal}, or 503 with the storage layer's class names.
 */
class UnreachableStoreErrorTest {

  @Test
  void anUnreachableStoreIs503() throws Exception {
    Throwable failure = catchThrowable(
        () -> Omnigraph.open(UnreachableStoreTest.closedEndpoint(), OpenMode.READ_WRITE).close());
    Response response = ErrorMapper.response(failure);
    assertThat(response.getStatus()).isEqualTo(503);
    ErrorOutput body = (ErrorOutput) response.getEntity();
    assertThat(body.code()).isEqualTo("internal");
    // The store and the cause in words, never the storage layer's evidence with SDK class names.
    assertThat(body.error()).isNotEqualTo("internal error; see the server log")
        .startsWith("the object store did not answer (connection refused): endpoint http://127.0.0.1:")
        .contains("graph root s3://bucket/graph").doesNotContain("Exception").doesNotContain("CONFIGURATION");
  }

  /**
   * A graph already open when its store stops answering. Before: the read failed inside Lance with a
   * plain RuntimeException, answered 500 internal. Now the engine asks the store once more through
   * the storage adapter, whose typed answer (the SDK's ConnectException) decides: 503, with a message
   * naming the endpoint, the root and the cause in words, and no class name; the write likewise.
   */
  @Test
  void aReadAndAWriteOfAnOpenGraphWhoseStoreStoppedAre503() throws Exception {
    UnreachableStoreTest.StoppedStore stopped = UnreachableStoreTest.readAndWriteAfterTheStoreStopped();
    // The read failed inside Lance: the adapter's answer is the outcome, Lance's failure kept for the log.
    assertThat(stopped.read().getSuppressed()).as("the Lance failure").isNotEmpty();
    for (Throwable failure : java.util.List.of(stopped.read(), stopped.write())) {
      assertThat(failure).isNotNull();
      assertThat(ErrorKind.of(failure)).as("%s", failure).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
      Response response = ErrorMapper.response(failure);
      assertThat(response.getStatus()).as("%s", failure).isEqualTo(503);
      ErrorOutput body = (ErrorOutput) response.getEntity();
      assertThat(body.code()).isEqualTo("internal");
      assertThat(body.error()).contains("connection refused").contains("endpoint " + stopped.endpoint())
          .contains("graph root " + stopped.rootUri())
          .doesNotContain("Exception").doesNotContain("java.").doesNotContain("\tat ");
    }
  }
}
