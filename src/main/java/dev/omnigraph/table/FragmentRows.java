package dev.omnigraph.table;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;

/**
 * A pull cursor over the rows of some fragments of one exact table version, in the scan's own
 * order (fragment by fragment, unsorted), one scanner batch of at most
 * {@value DataTables#SCAN_BATCH_ROWS} rows held at a time as Arrow vectors. Rows are never decoded
 * whole: a caller reads the columns it needs ({@link #id()}, {@link #value}) and copies the row
 * into a {@link ChunkBuffer} as Arrow (the merge's certificate-proven route; docs/merge.md,
 * "Certificate fast path").
 *
 * <p>Deterministic: the same fragments of the same immutable version scanned again yield the same
 * rows in the same order, which is what lets a planner fix chunk boundaries and an effect cut at
 * them later. Not thread-safe; close it (it holds a leased dataset handle).
 */
public final class FragmentRows extends BatchScan {

  private final FieldVector idVector;
  private int index = -1;
  private int count;

  FragmentRows(AutoCloseable handle, LanceScanner scanner, ArrowReader reader) throws IOException {
    super(handle, scanner, reader);
    this.idVector = root.getVector(DataTables.ID);
    if (idVector == null) {
      throw new IllegalArgumentException("the scan has no '" + DataTables.ID + "' column");
    }
  }

  /** Moves to the next row; {@code false} at the end. */
  public boolean next() {
    index++;
    while (index >= count) {
      if (!loadBatch()) {
        return false;
      }
      count = root.getRowCount();
      index = 0;
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
}
