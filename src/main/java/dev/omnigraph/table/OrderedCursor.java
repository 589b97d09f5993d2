package dev.omnigraph.table;

import java.io.IOException;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;

/**
 * A pull cursor over one exact table version in ascending {@code id} order (Lance sorts: the scan
 * carries an {@code id ASC} column ordering), one scanner batch of at most {@value #BATCH_ROWS}
 * rows decoded at a time. A merge's ordered base/source/target cursors (docs/merge.md): two or three of these
 * merge-joined by id diff a table without holding it (BranchMerge step 4, commit changes).
 *
 * <p>Ids order by Unicode code point, which is UTF-8 byte order, Arrow's order for Utf8 and so
 * Lance's sort order; {@link #compareIds} is the same order in Java, so a join never disagrees with
 * the scan about which id comes first.
 *
 * <p>lance-java 7.0.0's {@code ScanOptions} has a row batch size but no decoded-bytes batch size
 * (the write path's second scanner setting, 32 MiB): each batch's exact Arrow size is measured instead
 * ({@link #maxBatchBytes()}), and each row's ({@link #peekBytes()}), so callers can refuse a row
 * above their byte bound. Not thread-safe; close it (it holds a leased dataset handle).
 */
public final class OrderedCursor extends BatchScan {

  /** Rows per scanner batch: 8,192. */
  public static final long BATCH_ROWS = DataTables.SCAN_BATCH_ROWS;

  private int index;
  private int count;
  private boolean done;
  private Map<String, Object> peeked;
  private long peekedBytes;
  private long peekedAddress = -1;

  private static final String ROW_ADDRESS = "_rowaddr";

  OrderedCursor(AutoCloseable handle, LanceScanner scanner, ArrowReader reader) throws IOException {
    super(handle, scanner, reader);
  }

  /** The same order as the scan's: Unicode code point (= UTF-8 byte) order. */
  public static int compareIds(String a, String b) {
    return Filter.compareCodePoints(a, b);
  }

  /** The next row without consuming it; {@code null} at the end. */
  public Map<String, Object> peek() {
    if (peeked == null && !done) {
      advance();
    }
    return peeked;
  }

  /** The id of {@link #peek()}; {@code null} at the end. */
  public String peekId() {
    Map<String, Object> row = peek();
    return row == null ? null : String.valueOf(row.get(DataTables.ID));
  }

  /** The Arrow bytes of {@link #peek()}'s row, its share of every column buffer; 0 at the end. */
  public long peekBytes() {
    peek();
    return peeked == null ? 0 : peekedBytes;
  }

  /**
   * The {@code _rowaddr} of {@link #peek()}'s row (fragment id in the high 32 bits) when the cursor
   * was opened with row addresses, else -1.
   */
  public long peekRowAddress() {
    peek();
    return peeked == null ? -1 : peekedAddress;
  }

  /** Consumes and returns the next row; {@code null} at the end. */
  public Map<String, Object> next() {
    Map<String, Object> row = peek();
    peeked = null;
    return row;
  }

  private void advance() {
    while (index >= count) {
      if (!loadBatch()) {
        done = true;
        return;
      }
      index = 0;
      count = root.getRowCount();
    }
    peeked = RowCodec.decode(root, index);
    Object address = peeked.remove(ROW_ADDRESS);
    peekedAddress = address == null ? -1 : ((Number) address).longValue();
    peekedBytes = rowBytes(root, index);
    index++;
  }

  /**
   * Row {@code i}'s exact share of the batch buffers: the size of the first {@code i + 1} values
   * minus that of the first {@code i}, per vector (offsets make this exact for strings and lists).
   */
  static long rowBytes(VectorSchemaRoot batch, int i) {
    long total = 0;
    for (FieldVector v : batch.getFieldVectors()) {
      total += Math.max(0, v.getBufferSizeFor(i + 1) - v.getBufferSizeFor(i));
    }
    return total;
  }
}
