package dev.omnigraph.table;

import java.util.List;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A committed Blob cell as a scan answers it: Lance's description of the out-of-line bytes
 * ({@code position} in the data file, {@code size}), never the bytes themselves
 * (docs/lance-write-layer.md, "Blob columns"). The bytes are read lazily through {@link BlobReads}.
 *
 * @param position the payload's offset in its data file
 * @param size the payload's length in bytes
 */
public record StoredBlob(long position, long size) {

  private static final List<String> FIELDS = List.of("position", "size");

  /**
   * The managed payload bytes a row carries as committed cells: what a writer that copies the row
   * (a merge chunk, a schema rewrite) reads and writes beside its Arrow bytes, and charges to its
   * 32 MiB. External cells decode as references and weigh nothing here.
   */
  public static long carriedBytes(java.util.Map<String, Object> row) {
    long bytes = 0;
    for (Object v : row.values()) {
      if (v instanceof StoredBlob b) {
        bytes += b.size();
      }
    }
    return bytes;
  }

  static boolean isDescription(StructVector vector) {
    return vector.getField().getChildren().stream().map(Field::getName).toList().equals(FIELDS);
  }

  static StoredBlob of(StructVector vector, int index) {
    return new StoredBlob(((UInt8Vector) vector.getChild("position")).get(index),
        ((UInt8Vector) vector.getChild("size")).get(index));
  }
}
