package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.storage.StorageConfig;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An S3 endpoint nobody listens on (a loopback port just closed): opening a graph there is the
 * store being unavailable (503, retryable), not an internal failure (500).
 */
public class UnreachableStoreTest {

  public static StorageConfig closedEndpoint() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    return StorageConfig.fromEnvironment("s3://bucket/graph", Map.of(
        "AWS_ENDPOINT", "http://127.0.0.1:" + port,
        "AWS_REGION", "us-east-1",
        "AWS_ACCESS_KEY_ID", "k",
        "AWS_SECRET_ACCESS_KEY", "s",
        "AWS_ALLOW_HTTP", "true"));
  }

  @Test
  void openingAGraphOnAClosedEndpointIsStorageUnavailable() throws Exception {
    Throwable failure = catchThrowable(() -> Omnigraph.open(closedEndpoint(), OpenMode.READ_WRITE).close());
    assertThat(ErrorKind.of(failure)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.of(failure).httpStatus()).isEqualTo(503);
  }
}
