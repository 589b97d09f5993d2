package dev.omnigraph.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.storage.StorageException.Kind;
import dev.omnigraph.testing.S3TestServer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
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

  /**
   * Wrong credentials must be loud. S3Mock accepts any signature, so against it this test can only
   * establish that fact and is skipped; against a store that checks credentials (MinIO, LocalStack,
   * AWS) it asserts CONFIGURATION.
   */
  @Test
  void wrongCredentialsAreConfiguration() {
    StorageConfig good = S3TestServer.get().freshRoot("creds");
    try (StorageAdapter seed = StorageAdapters.open(good)) {
      seed.putText("probe", "x");
    }
    StorageConfig bad = new StorageConfig(good.rootUri(), good.endpoint(), good.region(),
        good.pathStyle(), good.allowHttp(), Optional.of("wrong-key"), Optional.of("wrong-secret"),
        Optional.empty());
    try (StorageAdapter store = StorageAdapters.open(bad)) {
      StorageException e =
          catchThrowableOfType(StorageException.class, () -> store.exists("probe"));
      Assumptions.assumeTrue(e != null,
          "the S3 server accepted a request signed with wrong credentials (S3Mock does not check"
              + " signatures); nothing to classify");
      assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION);
      assertThat(kindOf(() -> store.readTextIfExists("probe"))).isEqualTo(Kind.CONFIGURATION);
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
