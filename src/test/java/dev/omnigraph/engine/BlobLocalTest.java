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

  long docVersion(String branch) {
    return graph.snapshot(branch).datasets().stream().filter(d -> d.typeName().equals("Doc")).findFirst()
        .orElseThrow().publishedDatasetVersion();
  }

  /**
   * A merge charges each copied row's Blob bytes to its chunk: a row above the chunk bound on its
   * own is refused in the plan (before any sidecar: this was a RecoveryRequired after the arm while
   * chunks refused Blob rows at staging), and chunks are cut by those bytes. Limits tightened so
   * 1,000-byte cells reach them.
   */
  @Test
  void aMergeCutsChunksByBlobBytesAndRefusesARowAboveTheChunkBeforeTheArm() throws Exception {
    addDoc("seed", base64(new byte[] {1}));
    graph.branchCreate("f", "main", Optional.of("blob-test"));
    byte[] a = pattern(1000, 1);
    byte[] b = pattern(1000, 2);
    byte[] c = pattern(1000, 3);
    loadOn("f", dev.omnigraph.api.LoadMode.APPEND, doc("a", base64(a)), doc("b", base64(b)), doc("c", base64(c)));
    SnapshotOutput before = graph.snapshot("main");
    int commits = commitCount("main");
    assertThatThrownBy(() -> graph.branchMerge("f", "main", false, Optional.of("blob-test"),
        new dev.omnigraph.merge.MergeLimits(8_192, 900, 1_024, 32L * 1024 * 1024)))
        .isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
          assertThat(e.resource()).isEqualTo("merge_row_bytes:node:Doc");
          assertThat(e.limit()).isEqualTo(900);
          assertThat(e.actual()).isGreaterThan(1000).isLessThan(1200);
        });
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(commitCount("main")).isEqualTo(commits);
    assertThat(sidecars()).isEmpty();

    // 2,500 bytes a chunk: two rows fit (Arrow bytes and Blob bytes), the third is cut into a second.
    long version = docVersion("main");
    graph.branchMerge("f", "main", false, Optional.of("blob-test"),
        new dev.omnigraph.merge.MergeLimits(8_192, 2_500, 1_024, 32L * 1024 * 1024));
    assertThat(docVersion("main")).isEqualTo(version + 2);
    assertThat(sha256(content("main", "a"))).isEqualTo(sha256(a));
    assertThat(sha256(content("main", "b"))).isEqualTo(sha256(b));
    assertThat(sha256(content("main", "c"))).isEqualTo(sha256(c));
    assertThat(sidecars()).isEmpty();
  }

  /** A Blob write charges the row's other cells it carries to the same 32 MiB as its payload. */
  @Test
  void aBlobWriteWhosePayloadAndCarriedCellsPass32MiBIsRefusedBeforeTheSidecar() {
    graph.schemaApply(SCHEMA + "node Pic {\n  name: String @key\n  img: Blob\n  thumb: Blob?\n}\n", false,
        Optional.of("blob-test"));
    graph.load("main", new java.io.StringReader("{\"type\":\"Pic\",\"data\":{\"name\":\"p\",\"img\":\""
        + base64(new byte[] {1}) + "\"}}"), dev.omnigraph.api.LoadMode.APPEND, Optional.of("blob-test"));
    byte[] seventeen = new byte[17 * 1024 * 1024];
    graph.writeBlob("main", "node", "Pic", "p", "img", Optional.of(new java.io.ByteArrayInputStream(seventeen)),
        Optional.empty(), Optional.empty(), Optional.empty());
    SnapshotOutput before = graph.snapshot("main");
    assertThatThrownBy(() -> graph.writeBlob("main", "node", "Pic", "p", "thumb",
        Optional.of(new java.io.ByteArrayInputStream(seventeen)), Optional.empty(), Optional.empty(), Optional.empty()))
        .isInstanceOfSatisfying(ResourceLimitExceeded.class, e -> {
          assertThat(e.resource()).isEqualTo(BlobValue.PAYLOAD_RESOURCE);
          assertThat(e.actual()).isEqualTo(34L * 1024 * 1024);
        });
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(sidecars()).isEmpty();
  }
}
