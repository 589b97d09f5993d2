package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.BlobFile;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Lazy reads of one Blob cell at an exact table version (docs/lance-write-layer.md, "Blob columns").
 * The row is found by its id with the column projected, which Lance answers as the cell's
 * (position, size) description; the bytes are then read through Lance's {@code BlobFile} in ranges
 * of at most {@link #CHUNK_BYTES}, so memory does not grow with the blob.
 */
public final class BlobReads {

  /**
   * The largest range one read asks Lance for, and so the most payload bytes held at once. Each read
   * is a fresh array (lance-java offers no read into a caller's buffer) and a storage request:
   * smaller reads cost more requests and did not keep G1 from growing the server's RSS; the serve
   * launcher's collector choice does (docs/performance.md, "Large Blobs").
   */
  public static final int CHUNK_BYTES = 4 * 1024 * 1024;

  private final StorageConfig config;
  private final LanceRoot lance;

  BlobReads(StorageConfig config, LanceRoot lance) {
    this.config = config;
    this.lance = lance;
  }

  /**
   * Opens the Blob cell {@code column} of the row with {@code id} at exactly {@code at}. The caller
   * closes the cell (it holds the table version open while the bytes stream).
   *
   * @return empty when no row has {@code id} at that version
   */
  public Optional<Cell> open(TableAt at, String id, String column) {
    TableHandle h = TableHandle.open(lance, config, at);
    try {
      Optional<Cell> cell = LanceCall.lance(() -> find(h, at, id, column));
      if (cell.isEmpty()) {
        h.close();
      }
      return cell;
    } catch (RuntimeException e) {
      h.close();
      throw e;
    }
  }

  /**
   * The whole managed payloads of the Blob cells {@code column} of the rows with {@code ids} at
   * exactly {@code at}: what a writer that carries committed rows (a merge chunk, a Blob write
   * beside another cell) writes back as bytes. One handle and one id scan per
   * {@link DataTables#chunks id chunk}, then one {@code takeBlobs} for the chunk's managed cells.
   * The caller has charged the sizes to its budget; null and external cells are left out.
   *
   * @throws IllegalStateException when a payload read back is not the size its description says
   */
  public Map<String, byte[]> readAll(TableAt at, String column, Collection<String> ids) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    try (TableHandle h = TableHandle.open(lance, config, at); BlobHomes homes = new BlobHomes(lance, config, at, h)) {
      LanceCall.lance(() -> {
        for (List<String> chunk : DataTables.chunks(ids)) {
          readChunk(h, homes, column, chunk, out);
        }
        return null;
      });
    }
    return out;
  }

  private void readChunk(TableHandle h, BlobHomes homes, String column, List<String> ids, Map<String, byte[]> out)
      throws Exception {
    String companion = TableSchemas.blobUriColumn(column);
    ScanOptions options = new ScanOptions.Builder().filter(Filter.in(DataTables.ID, ids).toSql())
        .columns(List.of(DataTables.ID, column, companion)).withRowId(true).withRowAddress(true).build();
    List<Long> rowIds = new ArrayList<>();
    List<TableHandle> rowHomes = new ArrayList<>();
    List<String> rowKeys = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    try (LanceScanner scanner = LanceScanner.create(h.table, options, h.allocator);
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        StructVector description = (StructVector) batch.getVector(column);
        for (int i = 0; i < batch.getRowCount(); i++) {
          if (description.isNull(i) || !batch.getVector(companion).isNull(i)) {
            continue; // null, or an external reference: no managed bytes
          }
          rowIds.add(((Number) batch.getVector("_rowid").getObject(i)).longValue());
          rowHomes.add(homes.of(((Number) batch.getVector("_rowaddr").getObject(i)).longValue(), column));
          rowKeys.add((String) RowCodec.get(batch.getVector(DataTables.ID), i));
          sizes.add(StoredBlob.of(description, i).size());
        }
      }
    }
    if (rowIds.isEmpty()) {
      return;
    }
    // One takeBlobs per home (on main, the one handle), which answers one file per row id, in the order asked.
    Map<TableHandle, List<Integer>> byHome = new LinkedHashMap<>();
    for (int i = 0; i < rowIds.size(); i++) {
      byHome.computeIfAbsent(rowHomes.get(i), k -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<TableHandle, List<Integer>> home : byHome.entrySet()) {
      List<Integer> rows = home.getValue();
      List<BlobFile> files = home.getKey().table.takeBlobs(rows.stream().map(rowIds::get).toList(), column);
      try {
        for (int j = 0; j < rows.size(); j++) {
          int i = rows.get(j);
          byte[] bytes = files.get(j).read();
          if (bytes.length != sizes.get(i)) {
            throw new IllegalStateException("Blob cell '" + rowKeys.get(i) + "'." + column + " read " + bytes.length
                + " bytes where its description says " + sizes.get(i));
          }
          out.put(rowKeys.get(i), bytes);
        }
      } finally {
        for (BlobFile f : files) {
          f.close();
        }
      }
    }
  }

  private Optional<Cell> find(TableHandle h, TableAt at, String id, String column) throws Exception {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
    String companion = TableSchemas.blobUriColumn(column);
    ScanOptions options = new ScanOptions.Builder().filter(Filter.eq(DataTables.ID, id).toSql())
        .columns(List.of(column, companion)).withRowId(true).withRowAddress(true).build();
    try (LanceScanner scanner = LanceScanner.create(h.table, options, h.allocator);
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        if (batch.getRowCount() == 0) {
          continue;
        }
        // Ids are unique within a table version: the first row is the row.
        StructVector description = (StructVector) batch.getVector(column);
        long rowId = ((Number) batch.getVector("_rowid").getObject(0)).longValue();
        long rowAddress = ((Number) batch.getVector("_rowaddr").getObject(0)).longValue();
        Optional<StoredBlob> stored = description.isNull(0) ? Optional.empty()
            : Optional.of(StoredBlob.of(description, 0));
        Object uri = RowCodec.get(batch.getVector(companion), 0);
        return Optional.of(new Cell(h, new BlobHomes(lance, config, at, h), column, rowId, rowAddress, stored,
            Optional.ofNullable((String) uri)));
      }
    }
    return Optional.empty();
  }

  /**
   * One row's Blob cell, open at its table version: its description without any payload read, and
   * ranged copies of its bytes. Not thread-safe; close it once.
   */
  public static final class Cell implements AutoCloseable {
    private final TableHandle handle;
    private final BlobHomes homes;
    private final String column;
    private final long rowId;
    private final long rowAddress;
    private final Optional<StoredBlob> stored;
    private final Optional<String> externalUri;
    private BlobFile file;

    Cell(TableHandle handle, BlobHomes homes, String column, long rowId, long rowAddress, Optional<StoredBlob> stored,
        Optional<String> externalUri) {
      this.handle = handle;
      this.homes = homes;
      this.column = column;
      this.rowId = rowId;
      this.rowAddress = rowAddress;
      this.stored = stored;
      this.externalUri = externalUri;
    }

    /**
     * The URI of an external cell (its bytes live at the source, none here); empty for a managed or
     * null cell. Known from the scan, so telling the kinds apart reads no payload and no source.
     */
    public Optional<String> externalUri() {
      return externalUri;
    }

    /** The row's stable Lance row id (part of the cell's entity tag). */
    public long rowId() {
      return rowId;
    }

    /** The cell's managed payload size; empty for a null or an external cell. */
    public OptionalLong size() {
      if (externalUri.isPresent()) {
        return OptionalLong.empty();
      }
      return stored.map(s -> OptionalLong.of(s.size())).orElse(OptionalLong.empty());
    }

    /**
     * The whole managed payload: a write's materialising rewrite carries a committed cell this way,
     * its size already charged to the operation's 32 MiB budget.
     */
    public byte[] readAll() {
      long size = size().orElseThrow(() -> new IllegalStateException("not a managed Blob cell"));
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) size);
      copyTo(0, size, out);
      return out.toByteArray();
    }

    /**
     * Copies {@code length} bytes from {@code offset} of the payload to {@code out}, in reads of at
     * most {@link #CHUNK_BYTES}.
     *
     * @throws IllegalStateException for a null cell
     * @throws IndexOutOfBoundsException when the range is not inside the payload
     * @throws UncheckedIOException when Lance or {@code out} fails
     */
    public void copyTo(long offset, long length, OutputStream out) {
      long size = size().orElseThrow(() -> new IllegalStateException("the Blob cell is null"));
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new IndexOutOfBoundsException("range " + offset + "+" + length + " outside " + size + " bytes");
      }
      try {
        BlobFile f = file();
        long done = 0;
        while (done < length) {
          int chunk = (int) Math.min(CHUNK_BYTES, length - done);
          out.write(f.readRange(offset + done, chunk));
          done += chunk;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private BlobFile file() {
      if (file == null) {
        TableHandle home = homes.of(rowAddress, column);
        List<BlobFile> files = LanceCall.lance(() -> home.table.takeBlobs(List.of(rowId), column));
        file = files.get(0);
      }
      return file;
    }

    @Override
    public void close() {
      try {
        if (file != null) {
          file.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        try {
          homes.close();
        } finally {
          handle.close();
        }
      }
    }
  }
}
