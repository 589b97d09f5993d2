package dev.omnigraph.table;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One table's rows of a streamed overwrite load (docs/write-path.md), held on local disk instead of the heap:
 * rows are encoded {@link #batchRows()} at a time into Arrow batches appended to one Arrow IPC
 * stream file, so what a load holds in memory is one batch per table, whatever the input's size.
 * The overwrite's staging ({@link TableStaging#stageOverwrite(String, java.util.Optional, long,
 * RowSpill, String)}) streams the file into Lance, and may do so again (a first-touch table is
 * staged after its fork exists); validation reads the rows back through {@link #live()}.
 *
 * <p>An id given twice in an overwrite keeps its last row (as an upsert would): the earlier row is
 * marked {@link #supersede superseded} by its ordinal and skipped by every reader.
 */
public final class RowSpill implements AutoCloseable {

  /** Rows per spilled batch by default: the bound of what one table's spill holds in memory. */
  public static final int BATCH_ROWS = 65_536;

  /**
   * Rows per spilled batch: {@value #BATCH_ROWS}, or the system property
   * {@code omnigraph.load.spill-batch-rows} (less memory per table, or more per Arrow batch).
   */
  public static int batchRows() {
    return Integer.getInteger("omnigraph.load.spill-batch-rows", BATCH_ROWS);
  }

  private final int batchRows = batchRows();

  private final Schema schema;
  private final Path file;
  private final BufferAllocator allocator = new RootAllocator();
  private final List<Map<String, Object>> buffer = new ArrayList<>();
  private final Set<Long> superseded = new HashSet<>();
  /** Iterations of {@link #live()} not read to the end (a validation that threw): closed with the spill. */
  private final List<LiveRows> reading = new ArrayList<>();
  private OutputStream out;
  private VectorSchemaRoot sink;
  private ArrowStreamWriter writer;
  private long rows;
  private long arrowBytes;

  /** An empty spill of rows of {@code schema} in a new file under {@code dir}. */
  public RowSpill(Schema schema, Path dir) {
    this.schema = schema;
    try {
      this.file = Files.createTempFile(dir, "spill-", ".arrows");
      this.out = Files.newOutputStream(file);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a load spill file under " + dir, e);
    }
    this.sink = VectorSchemaRoot.create(schema, allocator);
    this.writer = new ArrowStreamWriter(sink, null, out);
  }

  /** Adds {@code row} (every column of the schema, by name); returns its ordinal. */
  public long add(Map<String, Object> row) {
    buffer.add(row);
    if (buffer.size() >= batchRows) {
      flush();
    }
    return rows++;
  }

  /** Marks the row at {@code ordinal} as replaced by a later row of the same id. */
  public void supersede(long ordinal) {
    superseded.add(ordinal);
  }

  /** The table's Arrow schema. */
  Schema schema() {
    return schema;
  }

  /** Rows added and not superseded. */
  public long liveRows() {
    return rows - superseded.size();
  }

  /** The Arrow bytes of every row added (superseded ones included). */
  public long arrowBytes() {
    finish();
    return arrowBytes;
  }

  /**
   * A rough heap weight of a parsed row (its strings, bytes and lists), for a caller bounding what
   * it buffers in bytes as well as rows: rows of large values fill memory long before a batch of
   * rows is complete.
   */
  public static long weight(Map<String, Object> row) {
    long w = 64;
    for (Object v : row.values()) {
      if (v instanceof String s) {
        w += 40 + 2L * s.length();
      } else if (v instanceof byte[] b) {
        w += 16 + b.length;
      } else if (v instanceof dev.omnigraph.schema.BlobValue b) {
        // A spilled value's bytes are off the heap until the batch is encoded, but then they are
        // in it: a large one must end the batch it is in, not wait for a batch of rows.
        w += 16 + b.size();
      } else if (v instanceof java.util.Collection<?> c) {
        w += 16 + 16L * c.size();
      } else {
        w += 16;
      }
    }
    return w;
  }

  /** Encodes and writes the rows buffered so far (a caller's own bound across spills). */
  public void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    try (VectorSchemaRoot batch = RowCodec.encode(schema, buffer, allocator)) {
      arrowBytes += RowCodec.arrowBytes(batch);
      try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
        new VectorLoader(sink).load(record);
      }
      writer.writeBatch();
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the load spill " + file, e);
    }
    buffer.clear();
  }

  /** Writes what is buffered and ends the stream: the rows can be read back from here on. */
  private void finish() {
    if (writer == null) {
      return;
    }
    flush();
    try {
      writer.end();
      writer.close();
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not finish the load spill " + file, e);
    }
    writer = null;
    out = null;
    sink.close();
    sink = null;
  }

  /** Whether a reader must filter rows (some id was given twice). */
  boolean hasSuperseded() {
    return !superseded.isEmpty();
  }

  /** Whether the row at {@code ordinal} is live. */
  boolean live(long ordinal) {
    return superseded.isEmpty() || !superseded.contains(ordinal);
  }

  /** Hands every spilled batch, in order, to {@code batch}; the root is reused and valid only during the call. */
  void forEachBatch(BufferAllocator readAllocator, Consumer<VectorSchemaRoot> batch) {
    finish();
    try (InputStream in = Files.newInputStream(file); ArrowStreamReader reader = new ArrowStreamReader(in, readAllocator)) {
      while (reader.loadNextBatch()) {
        batch.accept(reader.getVectorSchemaRoot());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the load spill " + file, e);
    }
  }

  /** A reader of the spill file, for Lance to stream (the caller closes it). */
  ArrowStreamReader reader(BufferAllocator readAllocator) {
    finish();
    try {
      return new ArrowStreamReader(Files.newInputStream(file), readAllocator);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the load spill " + file, e);
    }
  }

  /**
   * The live rows in input order, decoded one batch at a time as they are iterated: a validation
   * pass over them holds one batch, not the table. Each iteration reads the file again.
   */
  public java.util.Collection<Map<String, Object>> live() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<Map<String, Object>> iterator() {
        LiveRows it = new LiveRows();
        reading.add(it);
        return it;
      }

      @Override
      public int size() {
        return (int) liveRows();
      }
    };
  }

  /** Iterates the live rows, one decoded batch in memory at a time. */
  private final class LiveRows implements Iterator<Map<String, Object>> {
    private final BufferAllocator readAllocator = allocator.newChildAllocator("spill-read", 0, Long.MAX_VALUE);
    private final ArrowStreamReader reader = reader(readAllocator);
    private final List<Map<String, Object>> batch = new ArrayList<>();
    private int next;
    private long ordinal;
    private boolean done;

    void close() {
      if (!done) {
        done = true;
        try {
          reader.close();
        } catch (IOException ignored) {
          // a local file: nothing to recover
        }
        readAllocator.close();
      }
    }

    @Override
    public boolean hasNext() {
      while (next == batch.size() && !done) {
        batch.clear();
        next = 0;
        try {
          if (!reader.loadNextBatch()) {
            close();
            reading.remove(this);
            break;
          }
        } catch (IOException e) {
          throw new UncheckedIOException("could not read the load spill " + file, e);
        }
        VectorSchemaRoot root;
        try {
          root = reader.getVectorSchemaRoot();
        } catch (IOException e) {
          throw new UncheckedIOException("could not read the load spill " + file, e);
        }
        for (int i = 0; i < root.getRowCount(); i++, ordinal++) {
          if (live(ordinal)) {
            batch.add(RowCodec.decode(root, i));
          }
        }
      }
      return next < batch.size();
    }

    @Override
    public Map<String, Object> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return batch.get(next++);
    }
  }

  /** Deletes the file and frees the buffers. */
  @Override
  public void close() {
    reading.forEach(LiveRows::close);
    reading.clear();
    try {
      if (writer != null) {
        writer.close();
      }
      if (out != null) {
        out.close();
      }
    } catch (IOException ignored) {
      // the file is deleted below all the same
    }
    if (sink != null) {
      sink.close();
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // a temp file left behind is the temp directory's to clean
    }
    allocator.close();
  }
}
