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
}
