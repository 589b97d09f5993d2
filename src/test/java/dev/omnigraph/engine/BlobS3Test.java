package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.BlobRead;
import dev.omnigraph.api.ExternalBlobUnreadable;
import dev.omnigraph.api.ExternalBlobPolicy;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.storage.StoreRequests;
import dev.omnigraph.testing.ConditionalWriteSerializer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BlobS3Test extends AbstractBlobTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("blob");
  }

  /** An {@code s3://} source is read through the AWS SDK with the graph's S3 settings (S3Mock here). */
  @Test
  void anAllowedS3SourceIsMaterialisedAndAMissingOneIs424() throws Exception {
    byte[] bytes = pattern(70_000, 4);
    try (StorageAdapter ext = StorageAdapters.open(S3TestServer.get().rootBeside(config, "ext"))) {
      ext.put("docs/a.bin", bytes);
    }
    String base = "s3://" + config.bucket() + "/ext/";
    graph.allowExternalBlobs(ExternalBlobPolicy.parse(base));
    load(LoadMode.APPEND, doc("a", base + "docs/a.bin"));
    try (BlobRead cell = read("a", Optional.empty())) {
      assertThat(cell.externalUri()).isEmpty();
      assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(bytes));
    }
    var before = graph.snapshot("main");
    assertThatThrownBy(() -> addDoc("b", base + "docs/missing.bin"))
        .isInstanceOfSatisfying(ExternalBlobUnreadable.class, e -> {
          assertThat(e.uri()).isEqualTo(base + "docs/missing.bin");
          assertThat(e.reason()).isEqualTo("no such object");
        });
    assertThat(graph.snapshot("main")).isEqualTo(before);
  }

  /**
   * A keyed write whose {@code s3://} sources sum above 32 MiB is refused after their
   * HEADs, before any payload GET, as the counting S3 front records it and as the write's request
   * accounting ({@link StoreRequests}, kind {@code external}) counts it; an accepted source costs one
   * HEAD and one GET of exactly its bytes.
   */
  @Test
  void s3SourcesOverTheOperationLimitAreRefusedWithHeadsOnlyAndTheAccountingCountsThem() throws Exception {
    StorageConfig extRoot = S3TestServer.get().rootBeside(config, "ext");
    byte[] small = pattern(70_000, 9);
    try (StorageAdapter ext = StorageAdapters.open(extRoot)) {
      ext.put("docs/small.bin", small);
      ext.put("docs/big1.bin", pattern(17 * 1024 * 1024, 1));
      ext.put("docs/big2.bin", pattern(17 * 1024 * 1024, 2));
    }
    String base = "s3://" + config.bucket() + "/ext/";
    graph.allowExternalBlobs(ExternalBlobPolicy.parse(base));
    var before = graph.snapshot("main");
    long heads = StoreRequests.count(StoreRequests.Op.HEAD, StoreRequests.Kind.EXTERNAL);
    long gets = StoreRequests.count(StoreRequests.Op.GET, StoreRequests.Kind.EXTERNAL);
    long got = StoreRequests.bytes(StoreRequests.Op.GET, StoreRequests.Kind.EXTERNAL);
    try (ConditionalWriteSerializer.RequestLog log = S3TestServer.get().record(extRoot)) {
      assertThatThrownBy(() -> graph.mutate("main", GQ, "add_two", JSON.createObjectNode()
          .put("x", base + "docs/big1.bin").put("y", base + "docs/big2.bin"), Optional.of("blob-test"), Optional.empty()))
          .isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
            assertThat(e.resource()).isEqualTo(BlobValue.PAYLOAD_RESOURCE);
            assertThat(e.actual()).isEqualTo(34L * 1024 * 1024);
          });
      assertThat(log.drain()).extracting(r -> r.method() + " " + r.key())
          .containsExactlyInAnyOrder("HEAD docs/big1.bin", "HEAD docs/big2.bin");
      assertThat(StoreRequests.count(StoreRequests.Op.HEAD, StoreRequests.Kind.EXTERNAL)).isEqualTo(heads + 2);
      assertThat(StoreRequests.count(StoreRequests.Op.GET, StoreRequests.Kind.EXTERNAL)).isEqualTo(gets);
      assertThat(graph.snapshot("main")).isEqualTo(before);
      assertThat(sidecars()).isEmpty();

      load(LoadMode.APPEND, doc("s", base + "docs/small.bin"));
      assertThat(log.drain()).extracting(r -> r.method() + " " + r.key())
          .containsExactly("HEAD docs/small.bin", "GET docs/small.bin");
      assertThat(StoreRequests.count(StoreRequests.Op.HEAD, StoreRequests.Kind.EXTERNAL)).isEqualTo(heads + 3);
      assertThat(StoreRequests.count(StoreRequests.Op.GET, StoreRequests.Kind.EXTERNAL)).isEqualTo(gets + 1);
      assertThat(StoreRequests.bytes(StoreRequests.Op.GET, StoreRequests.Kind.EXTERNAL)).isEqualTo(got + small.length);
    }
    try (BlobRead cell = read("s", Optional.empty())) {
      assertThat(sha256(bytes(cell, 0, cell.size()))).isEqualTo(sha256(small));
    }
  }
}
