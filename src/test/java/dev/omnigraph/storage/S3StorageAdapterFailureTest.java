package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.storage.StorageException.Kind;
import dev.omnigraph.testing.S3TestServer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Typed S3 failures against a real S3 protocol server: each must surface as a {@link StorageException}
 * of the documented kind, never as absence ({@code Optional.empty()}, {@code false}, an empty list).
 */
class S3StorageAdapterFailureTest {

  @Test
  void aMissingBucketIsConfigurationForEveryOperation() {
    try (StorageAdapter store = StorageAdapters.open(S3TestServer.get().missingBucketRoot())) {
      // The absence-reporting reads are the ones that must not turn NoSuchBucket into "absent".
      assertThat(kindOf(() -> store.readTextIfExists("x.json"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.exists("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.list(""))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.read("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.readText("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.putText("x", "x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.putTextIfAbsent("x", "x")))
          .isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.delete("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.deletePrefix("x"))).isEqualTo(Kind.CONFIGURATION);
    }
  }

  @Test
  void anEndpointWithNothingListeningIsConfiguration() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    StorageConfig config = configWith(Map.of("AWS_ENDPOINT", "http://127.0.0.1:" + port));
    try (StorageAdapter store = StorageAdapters.open(config)) {
      assertThat(kindOf(() -> store.readTextIfExists("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.exists("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.list("x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.putTextIfAbsent("x", "x")))
          .isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.putText("x", "x"))).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.deletePrefix(""))).isEqualTo(Kind.CONFIGURATION);
    }
  }

  @Test
  void aPlainHttpEndpointWithoutAllowHttpIsRefusedAtOpen() {
    StorageConfig config = configWith(Map.of("AWS_ALLOW_HTTP", "false"));

    StorageException e =
        catchThrowableOfType(StorageException.class, () -> StorageAdapters.open(config).close());

    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION);
  }

  @Test
  void aPermissionFailureIsConfigurationNeverAbsentOrFalse() throws Exception {
    StorageConfig root = S3TestServer.get().freshRoot("denied");
    try (StorageAdapter store = StorageAdapters.open(root)) {
      store.putText("locked/obj", "x");
      store.putText("open/obj", "y");
      try (AutoCloseable denied = S3TestServer.get().injectFault(root, "locked", 403, "AccessDenied")) {
        assertThat(kindOf(() -> store.exists("locked/obj"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.exists("locked"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.readTextIfExists("locked/obj"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.list("locked"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.putIfAbsent("locked/new", new byte[] {1}))).isEqualTo(Kind.CONFIGURATION);
        assertThat(store.readTextIfExists("open/obj")).contains("y");
      }
      assertThat(store.exists("locked/obj")).isTrue();
    }
  }

  @Test
  void throttlingIsTransient() throws Exception {
    StorageConfig root = S3TestServer.get().freshRoot("slow");
    try (StorageAdapter store = StorageAdapters.open(root);
        AutoCloseable slow = S3TestServer.get().injectFault(root, "hot", 503, "SlowDown")) {
      assertThat(kindOf(() -> store.readTextIfExists("hot/key"))).isEqualTo(Kind.TRANSIENT);
      assertThat(kindOf(() -> store.list("hot"))).isEqualTo(Kind.TRANSIENT);
    }
  }

  private static StorageConfig configWith(Map<String, String> overrides) {
    StorageConfig base = S3TestServer.get().freshRoot("fail");
    Map<String, String> env = new HashMap<>(Map.of(
        "AWS_ENDPOINT", S3TestServer.get().endpoint(),
        "AWS_REGION", S3TestServer.REGION,
        "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY,
        "AWS_ALLOW_HTTP", "true"));
    env.putAll(overrides);
    return StorageConfig.fromEnvironment(base.rootUri(), env);
  }

  private static Kind kindOf(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e.kind();
  }
}
