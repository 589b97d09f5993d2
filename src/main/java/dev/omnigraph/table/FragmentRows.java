package dev.omnigraph.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;

/**
 * A pull cursor over the rows of some fragments of one exact table version, in the scan's own
 * order (fragment by fragment, unsorted), one scanner batch of at most
 * {@value DataTables#SCAN_BATCH_ROWS} rows held at a time as Arrow vectors. Rows are never decoded
 * whole: a caller reads the columns it needs ({@link #id()}, {@link #value}) and copies the row
 * into a {@link ChunkBuffer} as Arrow (the merge's certificate-proven route, seed: "stream the
 * pinned range directly into the bounded recovery chain").
 *
 * <p>Deterministic: the same fragments of the same immutable version scanned again yield the same
 * rows in the same order, which is what lets a planner fix chunk boundaries and an effect cut at
 * them later. Not thread-safe; close it (it holds a leased dataset handle).
 */
public final class FragmentRows implements AutoCloseable, ScanStats {

  private final AutoCloseable handle;
  private final LanceScanner scanner;
  private final ArrowReader reader;
  private final VectorSchemaRoot root;
  private final FieldVector idVector;
  private int index = -1;
  private int count;
  private long batches;
  private long maxBatchRows;
  private long maxBatchBytes;

  FragmentRows(AutoCloseable handle, LanceScanner scanner, ArrowReader reader) throws IOException {
    this.handle = handle;
    this.scanner = scanner;
    this.reader = reader;
    this.root = reader.getVectorSchemaRoot();
    this.idVector = root.getVector(DataTables.ID);
    if (idVector == null) {
      throw new IllegalArgumentException("the scan has no '" + DataTables.ID + "' column");
    }
  }

  /** Moves to the next row; {@code false} at the end. */
  public boolean next() {
    index++;
    try {
      while (index >= count) {
        if (!reader.loadNextBatch()) {
          return false;
        }
        batches++;
        count = root.getRowCount();
        index = 0;
        maxBatchRows = Math.max(maxBatchRows, count);
        maxBatchBytes = Math.max(maxBatchBytes, RowCodec.arrowBytes(root));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("fragment scan failed", e);
    }
    return true;
  }

  /** The current row's id ({@code null} only for a row that breaks the table contract). */
  public String id() {
    Object id = RowCodec.get(idVector, index);
    return id == null ? null : id.toString();
  }

  /** The current row's exact share of the batch's Arrow buffers. */
  public long rowBytes() {
    return OrderedCursor.rowBytes(root, index);
  }

  /** One column of the current row, decoded; {@code null} also for a column the table lacks. */
  public Object value(String column) {
    FieldVector v = root.getVector(column);
    return v == null ? null : RowCodec.get(v, index);
  }

  VectorSchemaRoot batch() {
    return root;
  }

  int index() {
    return index;
  }

  @Override
  public long batches() {
    return batches;
  }

  @Override
  public long maxBatchRows() {
    return maxBatchRows;
  }

  @Override
  public long maxBatchBytes() {
    return maxBatchBytes;
  }

  @Override
  public void close() {
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
      throw new IllegalStateException("closing a fragment scan failed: " + e.getMessage(), e);
    }
  }
}
