package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.UnreachableStoreTest;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/**
 * The HTTP answer to a graph whose S3 endpoint nobody listens on: the real open failure (a closed
 * loopback port, no S3 server needed) through the server's one mapper. Before: 500 {@code internal}.
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
    assertThat(body.error()).isNotEqualTo("internal error; see the server log").contains("CONFIGURATION");
  }
}
