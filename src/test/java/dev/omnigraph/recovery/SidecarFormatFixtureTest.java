package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.UnreadableSidecar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sidecars persist across builds: the fixtures under {@code sidecars/v9} were written by the
 * encoder before the writer kind became a sealed type (the string-and-three-payloads record), and
 * this build must read each as its kind and write it back byte for byte.
 */
class SidecarFormatFixtureTest {

  private static String fixture(String name) throws IOException {
    try (InputStream in = SidecarFormatFixtureTest.class.getResourceAsStream("/sidecars/v9/" + name + ".json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void everyWriterKindWrittenBeforeReadsAsItsKindAndWritesBackIdentically() throws IOException {
    Map<String, Class<? extends WriterKind>> kinds = Map.of(
        "mutation", WriterKind.Mutation.class,
        "load", WriterKind.Load.class,
        "optimize", WriterKind.Optimize.class,
        "revert", WriterKind.Revert.class,
        "branch_merge", WriterKind.BranchMerge.class,
        "schema_apply", WriterKind.SchemaApply.class,
        "ensure_indices", WriterKind.EnsureIndices.class,
        "ensure_indices_armed", WriterKind.EnsureIndices.class);
    for (Map.Entry<String, Class<? extends WriterKind>> e : kinds.entrySet()) {
      String text = fixture(e.getKey());
      RecoverySidecar s = SidecarStore.decode(e.getKey(), text);
      assertThat(s.kind()).as(e.getKey()).isInstanceOf(e.getValue());
      assertThat(s.kind().wire()).isEqualTo(s.writerKind());
      assertThat(new String(SidecarStore.encode(s), StandardCharsets.UTF_8)).as(e.getKey()).isEqualTo(text);
      // Built from its kind, the same sidecar is the same document.
      RecoverySidecar rebuilt = new RecoverySidecar(s.kind(), s.operationId(), s.actor(), s.authority(), s.tables(),
          s.state(), s.lineage(), s.createdAtMicros());
      assertThat(rebuilt).isEqualTo(s);
      assertThat(new String(SidecarStore.encode(rebuilt), StandardCharsets.UTF_8)).as(e.getKey()).isEqualTo(text);
    }
  }

  @Test
  void theKindsPayloadIsReadFromItsHistoricalField() throws IOException {
    WriterKind.BranchMerge merge = (WriterKind.BranchMerge) SidecarStore.decode("m", fixture("branch_merge")).kind();
    assertThat(merge.payload().mergedParent()).isEqualTo("01HSRC");
    assertThat(merge.payload().chains().get(TableKey.node("Person"))).hasSize(1);
    WriterKind.SchemaApply apply = (WriterKind.SchemaApply) SidecarStore.decode("s", fixture("schema_apply")).kind();
    assertThat(apply.payload().targetIdentity()).isEqualTo("schema-2");
    assertThat(apply.graphGlobal()).isTrue();
    WriterKind.EnsureIndices ensure = (WriterKind.EnsureIndices) SidecarStore.decode("e", fixture("ensure_indices_armed"))
        .kind();
    assertThat(ensure.payload().delta()).isNull();
    assertThat(new WriterKind.Mutation().graphGlobal()).isFalse();
  }

  @Test
  void anUnknownKindOrAPayloadOfAnotherKindIsUnreadable() throws IOException {
    String unknown = fixture("mutation").replace("\"writer_kind\" : \"mutation\"", "\"writer_kind\" : \"teleport\"");
    assertThatThrownBy(() -> SidecarStore.decode("u", unknown)).isInstanceOf(UnreadableSidecar.class)
        .hasMessageContaining("unknown writer_kind teleport");
    String swapped = fixture("branch_merge").replace("\"writer_kind\" : \"branch_merge\"", "\"writer_kind\" : \"load\"");
    assertThatThrownBy(() -> SidecarStore.decode("w", swapped)).isInstanceOf(UnreadableSidecar.class)
        .hasMessageContaining("protocol_v4 is present exactly on a branch_merge sidecar");
    RecoverySidecar load = SidecarStore.decode("l", fixture("load"));
    assertThatThrownBy(() -> load.withKind(new WriterKind.Mutation())).isInstanceOf(IllegalArgumentException.class);
    assertThat(List.of(load.withKind(new WriterKind.Load()))).containsExactly(load);
  }
}
