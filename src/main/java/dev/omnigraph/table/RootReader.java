package dev.omnigraph.table;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An {@link ArrowReader} over one in-memory batch, so it can be exported as a Lance source stream. */
final class RootReader extends ArrowReader {

  private final VectorSchemaRoot source;
  private boolean done;

  RootReader(BufferAllocator allocator, VectorSchemaRoot source) {
    super(allocator);
    this.source = source;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (done) {
      return false;
    }
    ensureInitialized();
    try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
      loadRecordBatch(batch);
    }
    done = true;
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    // The source root belongs to the caller.
  }

  @Override
  protected Schema readSchema() {
    return source.getSchema();
  }
}
