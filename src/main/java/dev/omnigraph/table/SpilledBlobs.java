package dev.omnigraph.table;

import dev.omnigraph.schema.BlobValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.vector.LargeVarBinaryVector;

/**
 * Writes a Blob cell into its Arrow vector. A {@link BlobValue#spilled} value (an overwrite load's
 * payload past the NDJSON line bound) is copied from its file through a memory map, so the bytes go
 * from the page cache to Arrow's off-heap buffer and are never whole on the Java heap
 * (docs/lance-write-layer.md, "Blob columns").
 */
final class SpilledBlobs {

  private SpilledBlobs() {}

  static void set(LargeVarBinaryVector vector, int index, BlobValue value) {
    java.util.Optional<Path> file = value.file();
    if (file.isEmpty()) {
      vector.setSafe(index, value.bytes());
      return;
    }
    if (value.size() > Integer.MAX_VALUE) {
      // Arrow's setter takes an int length: one cell of a batch is at most 2 GiB - 1.
      throw new dev.omnigraph.api.ResourceLimitExceeded(BlobValue.PAYLOAD_RESOURCE, Integer.MAX_VALUE, value.size());
    }
    try (FileChannel channel = FileChannel.open(file.get(), StandardOpenOption.READ)) {
      MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, value.size());
      vector.setSafe(index, mapped, 0, (int) value.size());
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the spilled Blob value " + file.get(), e);
    }
  }
}
