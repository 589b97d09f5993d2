package dev.omnigraph.table;

/** What a streaming scan held at most, so callers can assert the write path's per-batch bounds. */
public interface ScanStats {

  /** Scanner batches read so far. */
  long batches();

  /** The most rows one scanner batch held so far. */
  long maxBatchRows();

  /** The largest scanner batch seen so far, in exact Arrow bytes. */
  long maxBatchBytes();
}
