package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An S3 endpoint nobody listens on (a loopback port just closed): opening a graph there is the
 * store being unavailable (503, retryable), not an internal failure (500). The same for a graph
 * already open when its store stops answering, whose reads and writes fail inside Lance first: the
 * real S3 server behind a front that is then closed.
 */
public class UnreachableStoreTest {

  private static final String ALL = "query all() { match { $p: Person } return { $p.name } order { $p.name } }";

  /** What a read and a write of an open graph raised after its store stopped answering. */
  public record StoppedStore(String endpoint, String rootUri, Throwable read, Throwable write) {}

  /**
   * Creates a graph on the test S3 server through a front of its own, opens it, reads it once, then
   * closes the front (connections refused from now on) and runs a read query and a load. Asserted
   * once, through the server's mapper ({@code UnreachableStoreErrorTest}), which checks the
   * {@link ErrorKind} as well as the HTTP answer.
   */
  public static StoppedStore readAndWriteAfterTheStoreStopped() throws Exception {
    S3TestServer server = S3TestServer.get();
    // One table: what is under test is the store going away, and every table makes the init slower.
    String schema = "node Person {\n  name: String @key\n}\n";
    try (S3TestServer.Front front = server.openFront()) {
      StorageConfig config = front.root(server.freshRoot("stopped-store"));
      Omnigraph g = Omnigraph.init(config, schema, Optional.of("test"));
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n"), LoadMode.APPEND,
          Optional.of("test"));
      assertThat(g.query(Optional.empty(), Optional.empty(), ALL, "all", null).rowCount()).isEqualTo(1);
      front.close();
      Throwable read = catchThrowable(() -> g.query(Optional.empty(), Optional.empty(), ALL, "all", null));
      Throwable write = catchThrowable(() -> g.load("main",
          new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"), LoadMode.APPEND,
          Optional.of("test")));
      g.close();
      return new StoppedStore(front.endpoint(), config.rootUri(), read, write);
    }
  }

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
    StorageConfig closed = closedEndpoint();
    Throwable failure = catchThrowable(() -> Omnigraph.open(closed, OpenMode.READ_WRITE).close());
    assertThat(ErrorKind.of(failure)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.of(failure).httpStatus()).isEqualTo(503);
    // What a client is told: which store, why in words; the SDK's class names stay in the log.
    assertThat(ErrorKind.STORAGE_UNAVAILABLE.message(failure))
        .isEqualTo("the object store did not answer (connection refused): endpoint " + closed.endpoint().orElseThrow()
            + ", graph root s3://bucket/graph; retry later");
  }

  /**
   * An endpoint whose host name does not resolve ({@code .invalid} never does, RFC 2606). Before: 500
   * internal with "CONFIGURATION (SdkClientException, cause UnknownHostException)".
   */
  @Test
  void openingAGraphOnAnUnknownHostIsStorageUnavailableAndSaysSo() {
    StorageConfig unknown = StorageConfig.fromEnvironment("s3://bucket/graph", Map.of(
        "AWS_ENDPOINT", "http://no-such-host.invalid:9000",
        "AWS_REGION", "us-east-1",
        "AWS_ACCESS_KEY_ID", "k",
        "AWS_SECRET_ACCESS_KEY", "s",
        "AWS_ALLOW_HTTP", "true"));
    Throwable failure = catchThrowable(() -> Omnigraph.open(unknown, OpenMode.READ_WRITE).close());
    assertThat(ErrorKind.of(failure)).isEqualTo(ErrorKind.STORAGE_UNAVAILABLE);
    assertThat(ErrorKind.STORAGE_UNAVAILABLE.message(failure))
        .isEqualTo("the object store did not answer (unknown host): endpoint http://no-such-host.invalid:9000"
            + ", graph root s3://bucket/graph; check the endpoint's host name, or retry later");
  }
}
