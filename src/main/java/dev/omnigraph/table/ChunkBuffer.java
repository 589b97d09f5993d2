package dev.omnigraph.table;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.arrow.vector.util.VectorAppender;

/**
 * One chunk transaction's rows as Arrow, filled by copying rows from a {@link FragmentRows} scan
 * vector by vector: the rows go from Lance's batches to the staged fragment without a Java map per
 * row ({@link TableStaging#stageInsert(String, java.util.Optional, long, ChunkBuffer, boolean, String)}).
 * Reused across chunks ({@link #clear()}), so it holds at most one chunk. Not thread-safe; close
 * it.
 */
public final class ChunkBuffer implements AutoCloseable {

  private final Schema schema;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot root;
  private VectorSchemaRoot checkedSource;
  /** Rows copied into {@link #root}. */
  private int copied;
  /** A run of consecutive rows of {@link #runSource} appended but not yet copied. */
  private VectorSchemaRoot runSource;
  private int runStart;
  private int runLength;

  /** An empty buffer for rows of {@code schema} (the table's write schema). */
  public ChunkBuffer(Schema schema) {
    this.schema = schema;
    // Staging exports the batch through the C data interface with the pinned handles' allocator,
    // which only accepts buffers of its own root.
    this.allocator = PinnedHandles.allocator().newChildAllocator("merge-chunk", 0, Long.MAX_VALUE);
    this.root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
  }

  /**
   * Appends the current row of {@code from}.
   *
   * @throws IllegalArgumentException when the scanned columns differ from this buffer's schema in
   *     names, types, nullability or nesting (the copy would otherwise reinterpret buffers)
   */
  public void append(FragmentRows from) {
    VectorSchemaRoot source = from.batch();
    if (source != checkedSource) {
      if (!TableStaging.sameShape(source.getSchema().getFields(), schema.getFields())) {
        throw new IllegalArgumentException("scanned schema " + source.getSchema() + " does not match the write schema "
            + schema);
      }
      checkedSource = source;
    }
    int at = from.index();
    if (source != runSource || at != runStart + runLength) {
      flush();
      runSource = source;
      runStart = at;
    }
    runLength++;
    if (at == source.getRowCount() - 1) {
      flush(); // the scan refills these vectors with its next batch
    }
  }

  /** Rows buffered. */
  public int rows() {
    return copied + runLength;
  }

  /**
   * Copies the pending run column by column: a whole range at once for the flat vector kinds (one
   * slice, one append: bulk memory copies), value by value for nested ones.
   */
  private void flush() {
    if (runLength == 0) {
      return;
    }
    List<FieldVector> to = root.getFieldVectors();
    List<FieldVector> of = runSource.getFieldVectors();
    for (int c = 0; c < to.size(); c++) {
      FieldVector target = to.get(c);
      FieldVector source = of.get(c);
      if (flat(target) && flat(source)) {
        target.setValueCount(copied);
        TransferPair slice = source.getTransferPair(source.getAllocator());
        slice.splitAndTransfer(runStart, runLength);
        try (ValueVector range = slice.getTo()) {
          range.accept(new VectorAppender(target), null);
        }
      } else {
        for (int i = 0; i < runLength; i++) {
          target.copyFromSafe(runStart + i, copied + i, source);
        }
      }
    }
    copied += runLength;
    runLength = 0;
    runSource = null;
  }

  private static boolean flat(FieldVector v) {
    return v instanceof BaseFixedWidthVector || v instanceof BaseVariableWidthVector;
  }

  /** The buffered rows' Arrow bytes, as they will be staged. */
  public long bytes() {
    return RowCodec.arrowBytes(seal());
  }

  /** Forgets the buffered rows (the next chunk reuses the buffers). */
  public void clear() {
    // reset keeps each buffer's capacity: the next chunk reuses it instead of growing it again.
    root.getFieldVectors().forEach(FieldVector::reset);
    root.setRowCount(0);
    copied = 0;
    runLength = 0;
    runSource = null;
  }

  Schema schema() {
    return schema;
  }

  /** The buffered rows as a batch, value counts set; valid until the next append or clear. */
  VectorSchemaRoot seal() {
    flush();
    root.setRowCount(copied);
    return root;
  }

  /** The buffered ids, distinct; {@code null} ids fail (the table contract: a non-null Utf8 id). */
  Set<String> distinctIds() {
    FieldVector id = seal().getVector(DataTables.ID);
    int rows = id.getValueCount();
    Set<String> ids = new HashSet<>(rows * 2);
    for (int i = 0; i < rows; i++) {
      Object v = RowCodec.get(id, i);
      if (!(v instanceof String s)) {
        throw new IllegalArgumentException("row " + i + ": column 'id' must be a non-null String");
      }
      ids.add(s);
    }
    return ids;
  }

  /**
   * The buffered ids' {@link StagedKeys#hash hashes}, sorted, read straight from the Arrow bytes (no
   * String per row for ASCII ids); {@code null} ids fail (the table contract: a non-null Utf8 id).
   */
  long[] sortedIdHashes() {
    FieldVector id = seal().getVector(DataTables.ID);
    if (!(id instanceof org.apache.arrow.vector.VarCharVector chars)) {
      throw new IllegalArgumentException("column 'id' is " + id.getField().getType() + ", not Utf8");
    }
    int rows = chars.getValueCount();
    long[] out = new long[rows];
    org.apache.arrow.memory.ArrowBuf offsets = chars.getOffsetBuffer();
    org.apache.arrow.memory.ArrowBuf data = chars.getDataBuffer();
    for (int i = 0; i < rows; i++) {
      if (chars.isNull(i)) {
        throw new IllegalArgumentException("row " + i + ": column 'id' must be a non-null String");
      }
      long start = offsets.getInt((long) i * 4);
      long end = offsets.getInt((long) (i + 1) * 4);
      out[i] = StagedKeys.hash(data, start, end);
    }
    java.util.Arrays.sort(out);
    return out;
  }

  /** Nulls only where the schema allows them, as {@link RowCodec#encode} guarantees for map rows. */
  void requireDeclaredNullability() {
    for (FieldVector v : seal().getFieldVectors()) {
      if (!v.getField().isNullable() && v.getNullCount() > 0) {
        throw new IllegalArgumentException("column '" + v.getName() + "' is not nullable but the chunk holds "
            + v.getNullCount() + " null(s)");
      }
    }
  }

  @Override
  public void close() {
    try {
      root.close();
    } finally {
      allocator.close();
    }
  }
}
