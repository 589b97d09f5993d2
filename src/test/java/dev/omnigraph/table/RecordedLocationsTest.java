package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The wire-level rewrite on a manifest laid out as Lance writes one (a section before, the inline
 * clone transaction, the manifest, the footer): locations move, everything else keeps its bytes,
 * and rewriting back restores the file exactly. Real Lance files are covered by
 * {@code AbstractRootCopyTest}, which reads every relocated branch through Lance.
 */
class RecordedLocationsTest {

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static void field(ByteArrayOutputStream out, int field, byte[] value) {
    varint(out, (long) field << 3 | 2);
    varint(out, value.length);
    out.writeBytes(value);
  }

  private static void field(ByteArrayOutputStream out, int field, long value) {
    varint(out, (long) field << 3);
    varint(out, value);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void section(ByteArrayOutputStream out, byte[] message) {
    out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(message.length).array());
    out.writeBytes(message);
  }

  /** A branch's first manifest: an index section, the inline Clone, base paths, an unknown field. */
  private static byte[] manifest(String parent) {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    section(file, utf8("index section"));
    int txPos = file.size();
    ByteArrayOutputStream clone = new ByteArrayOutputStream();
    field(clone, 1, 1); // is_shallow
    field(clone, 2, utf8("f"));
    field(clone, 3, 4);
    field(clone, 4, utf8(parent + "/tree/f"));
    field(clone, 5, utf8("g"));
    ByteArrayOutputStream tx = new ByteArrayOutputStream();
    field(tx, 1, 4);
    field(tx, 2, utf8("uuid"));
    field(tx, 113, clone.toByteArray());
    section(file, tx.toByteArray());
    int manifestPos = file.size();
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    field(m, 3, 5);
    for (String base : new String[] {parent, parent + "/tree/f"}) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      field(b, 3, 1); // is_dataset_root
      field(b, 4, utf8(base));
      field(m, 18, b.toByteArray());
    }
    field(m, 21, txPos);
    field(m, 99, utf8("a field this code does not know"));
    section(file, m.toByteArray());
    file.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(manifestPos).array());
    file.writeBytes(new byte[] {0, 0, 2, 0});
    file.writeBytes(RecordedLocations.MAGIC);
    return file.toByteArray();
  }

  @Test
  void aManifestsLocationsMoveAndEverythingElseKeepsItsBytes() {
    byte[] original = manifest("/data/g/nodes/t");
    assertThat(RecordedLocations.ofManifest(original))
        .containsExactly("/data/g/nodes/t", "/data/g/nodes/t/tree/f", "/data/g/nodes/t/tree/f");

    byte[] moved = RecordedLocations.rewriteManifest(original,
        p -> p.replace("/data/g/", "s3://bucket/backups/2026/g/"));
    assertThat(RecordedLocations.ofManifest(moved)).containsExactly("s3://bucket/backups/2026/g/nodes/t",
        "s3://bucket/backups/2026/g/nodes/t/tree/f", "s3://bucket/backups/2026/g/nodes/t/tree/f");
    // The section before the transaction stays where the manifest says it is.
    byte[] index = new byte[4 + "index section".length()];
    System.arraycopy(original, 0, index, 0, index.length);
    assertThat(Arrays.copyOf(moved, index.length)).isEqualTo(index);
    assertThat(new String(moved, StandardCharsets.ISO_8859_1)).contains("a field this code does not know");

    // Mapping back restores the file byte for byte (the footer's position included).
    assertThat(RecordedLocations.rewriteManifest(moved, p -> p.replace("s3://bucket/backups/2026/g/", "/data/g/")))
        .isEqualTo(original);
    // A map that changes nothing returns the very same array: nothing to write.
    assertThat(RecordedLocations.rewriteManifest(original, p -> p)).isSameAs(original);
  }

  @Test
  void aFileNotLaidOutAsAManifestIsRefusedNotRewritten() {
    assertThatThrownBy(() -> RecordedLocations.rewriteManifest(utf8("not a manifest, no footer at all"), p -> p))
        .isInstanceOf(RecordedLocations.Unreadable.class);
    byte[] truncated = manifest("/data/g/nodes/t");
    byte[] cut = Arrays.copyOfRange(truncated, 10, truncated.length);
    assertThatThrownBy(() -> RecordedLocations.rewriteManifest(cut, p -> p))
        .isInstanceOf(RecordedLocations.Unreadable.class);
  }
}
