package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AbstractBlobTest} on a local root, and the backend-independent Blob limits. */
class BlobLocalTest extends AbstractBlobTest {
  @TempDir Path dir;
  private int roots;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir.resolve("root" + roots++));
  }

  /** The limit is checked before anything touches storage: one backend is enough. */
  @Test
  void payloadsOver32MiBAreRefusedBeforeTheSidecarAndMoveNothing() {
    addDoc("seed", base64(new byte[] {1}));
    SnapshotOutput before = graph.snapshot("main");
    List<String> committedDataFiles = dataFiles();
    // One cell over the limit: refused from the text's length, before the decoder allocates it.
    String oneTooMany = BlobValue.MANAGED_PREFIX + "A".repeat((int) (BlobValue.MAX_OPERATION_BYTES / 3 * 4) + 8);
    assertThatThrownBy(() -> addDoc("big", oneTooMany)).isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
      assertThat(e.resource()).isEqualTo(BlobValue.PAYLOAD_RESOURCE);
      assertThat(e.limit()).isEqualTo(32L * 1024 * 1024);
      assertThat(e.actual()).isGreaterThan(32L * 1024 * 1024);
    });
    // Two cells under the limit each, over it together: summed before anything is staged.
    String seventeen = base64(new byte[17 * 1024 * 1024]);
    assertThatThrownBy(() -> graph.mutate("main", GQ, "add_two", JSON.createObjectNode().put("x", seventeen)
        .put("y", seventeen), Optional.of("blob-test"), Optional.empty()))
        .isInstanceOfSatisfying(ResourceLimitExceeded.class,
            e -> assertThat(e.actual()).isEqualTo(34L * 1024 * 1024));
    assertThat(graph.snapshot("main")).isEqualTo(before);
    // No data file was written for the refused writes: the table holds only what its versions name.
    assertThat(dataFiles()).isEqualTo(committedDataFiles);
    assertThat(sidecars()).isEmpty();
  }

  /** The materialising rewrite charges the committed bytes it carries before reading any of them. */
  @Test
  void anUpdateWhoseMatchedBlobsExceed32MiBIsRefusedWithNothingMoved() {
    String seventeen = base64(new byte[17 * 1024 * 1024]);
    addDoc("x", seventeen);
    addDoc("y", seventeen);
    SnapshotOutput before = graph.snapshot("main");
    List<String> committedDataFiles = dataFiles();
    assertThatThrownBy(() -> graph.mutate("main", GQ, "note_two", JSON.createObjectNode().put("note", "n"),
        Optional.of("blob-test"), Optional.empty())).isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
          assertThat(e.resource()).isEqualTo(BlobValue.PAYLOAD_RESOURCE);
          assertThat(e.actual()).isEqualTo(34L * 1024 * 1024);
        });
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(dataFiles()).isEqualTo(committedDataFiles);
    assertThat(sidecars()).isEmpty();
  }
}
