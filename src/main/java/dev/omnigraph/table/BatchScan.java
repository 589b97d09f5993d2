package dev.omnigraph.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;

/**
 * What the streaming cursors of this package share: a leased dataset handle, its scanner and reader,
 * the one reused batch, and the per-batch statistics. Closing releases reader, scanner and handle,
 * in that order, even when one of them fails.
 */
abstract class BatchScan implements AutoCloseable, ScanStats {

  private final AutoCloseable handle;
  private final LanceScanner scanner;
  private final ArrowReader reader;
  final VectorSchemaRoot root;
  private long batches;
  private long maxBatchRows;
  private long maxBatchBytes;

  BatchScan(AutoCloseable handle, LanceScanner scanner, ArrowReader reader) throws IOException {
    this.handle = handle;
    this.scanner = scanner;
    this.reader = reader;
    this.root = reader.getVectorSchemaRoot();
  }

  /** Loads the next batch into {@link #root}, counting it; {@code false} at the end. */
  final boolean loadBatch() {
    try {
      if (!reader.loadNextBatch()) {
        return false;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("scan failed", e);
    }
    batches++;
    maxBatchRows = Math.max(maxBatchRows, root.getRowCount());
    maxBatchBytes = Math.max(maxBatchBytes, RowCodec.arrowBytes(root));
    return true;
  }

  @Override
  public final long batches() {
    return batches;
  }

  @Override
  public final long maxBatchRows() {
    return maxBatchRows;
  }

  @Override
  public final long maxBatchBytes() {
    return maxBatchBytes;
  }

  @Override
  public final void close() {
    try {
      try {
        reader.close();
      } finally {
        try {
          scanner.close();
        } finally {
          handle.close();
        }
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("closing a scan failed: " + e.getMessage(), e);
    }
  }
}
