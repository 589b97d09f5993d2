package dev.omnigraph.api;

import java.io.OutputStream;

/**
 * One managed or external Blob cell resolved at one pinned graph snapshot ({@code GET /graphs/{id}/blob}). It
 * holds the cell's table version open until closed, so the bytes read are the snapshot's whatever
 * writes follow. Close it once, after the last read.
 */
public interface BlobRead extends AutoCloseable {

  /** The graph commit the read resolved to: the {@code Omnigraph-Snapshot-Id} of every answer. */
  String snapshotId();

  /**
   * The URI of an external cell, stored as a reference: a read answers it with a redirect and never
   * reads the source; {@link #size}, {@link #etag} and {@link #copyTo} are for managed cells only
   * (they throw {@link IllegalStateException} for an external one). Empty for a managed cell.
   */
  default java.util.Optional<String> externalUri() {
    return java.util.Optional.empty();
  }

  /** The payload length in bytes, known without reading the payload. */
  long size();

  /**
   * The strong entity tag of this exact cell version (quoted): it changes with the cell's table
   * version or row, so two reads with the same tag read the same bytes.
   */
  String etag();

  /**
   * Copies {@code length} bytes from {@code offset} to {@code out}, reading at most 4 MiB at a time.
   *
   * @throws IndexOutOfBoundsException when the range is not inside the payload
   * @throws java.io.UncheckedIOException when the store or {@code out} fails
   */
  void copyTo(long offset, long length, OutputStream out);

  @Override
  void close();
}
