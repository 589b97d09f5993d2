package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.storage.StorageException.Kind;
import dev.omnigraph.testing.S3TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3-only behaviour the shared contract cannot reach: listing pages and delete batches crossed with
 * a small page size, residue spread over several pages, a bucket-root prefix, and the conditional
 * put's single attempt.
 */
class S3StorageAdapterPagingTest {

  private static final int PAGE = 3;

  @Test
  void listAndDeletePrefixCrossPageAndBatchBoundaries() {
    StorageConfig root = S3TestServer.get().freshRoot("paging");
    try (S3StorageAdapter store = new S3StorageAdapter(root, PAGE)) {
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 11; i++) {
        String key = "p/" + (i % 3) + "/k" + i;
        keys.add(key);
        store.putText(key, key);
      }
      RawBackend.write(root, "p/1/k1#42", "residue".getBytes(UTF_8));
      store.putText("pz", "sibling");

      assertThat(store.list("p")).containsExactlyElementsOf(keys.stream().sorted().toList());

      store.deletePrefix("p");

      assertThat(store.list("")).containsExactly("pz");
      assertThat(RawBackend.exists(root, "p/1/k1#42")).isFalse();
    }
  }

  @Test
  void existsLooksPastPagesOfResidue() {
    StorageConfig root = S3TestServer.get().freshRoot("residue-pages");
    try (S3StorageAdapter store = new S3StorageAdapter(root, PAGE)) {
      for (int i = 0; i < 7; i++) {
        // "a…#n" sorts before "z", so the first pages hold nothing but residue.
        RawBackend.write(root, "q/a" + i + "#" + (100 + i), new byte[] {1});
      }
      assertThat(store.exists("q")).isFalse();

      store.putText("q/z", "real");
      assertThat(store.exists("q")).isTrue();
      assertThat(store.list("q")).containsExactly("q/z");
    }
  }

  @Test
  void aBucketRootHasNoPrefix() {
    String bucket = "omnigraph-root-" + UUID.randomUUID();
    StorageConfig root = S3TestServer.get().freshRoot("unused").withRoot("s3://" + bucket);
    try (S3Client raw = RawBackend.client(root)) {
      raw.createBucket(b -> b.bucket(bucket));
    }
    try (StorageAdapter store = StorageAdapters.open(root)) {
      assertThat(store.rootUri()).isEqualTo("s3://" + bucket);
      store.putText("a/b", "x");
      store.putText("c", "y");
      RawBackend.write(root, "d#1", new byte[] {1});

      assertThat(store.list("")).containsExactly("a/b", "c");
      assertThat(store.exists("a")).isTrue();
      assertThat(store.readText("c")).isEqualTo("y");

      store.deletePrefix("");

      assertThat(store.list("")).isEmpty();
      assertThat(RawBackend.exists(root, "d#1")).isFalse();
    }
  }

  @Test
  void theConditionalPutIsAttemptedOnceWhileOtherCallsRetry() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    StorageConfig closed = StorageConfig.fromEnvironment(
        S3TestServer.get().freshRoot("attempts").rootUri(),
        Map.of(
            "AWS_ENDPOINT", "http://127.0.0.1:" + port,
            "AWS_REGION", S3TestServer.REGION,
            "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY,
            "AWS_ALLOW_HTTP", "true"));
    try (StorageAdapter store = StorageAdapters.open(closed)) {
      StorageException conditional =
          catchThrowableOfType(StorageException.class, () -> store.putTextIfAbsent("k", "v"));
      StorageException plain =
          catchThrowableOfType(StorageException.class, () -> store.putText("k", "v"));

      assertThat(conditional.kind()).isEqualTo(Kind.CONFIGURATION);
      assertThat(attempts(conditional)).isEqualTo(1);
      assertThat(attempts(plain)).isGreaterThan(1);
    }
  }

  private static int attempts(StorageException e) {
    assertThat(e.getCause()).isInstanceOf(SdkException.class);
    Integer n = ((SdkException) e.getCause()).numAttempts();
    assertThat(n).as("the SDK records its attempt count").isNotNull();
    return n;
  }
}
