package dev.omnigraph.merge;

import dev.omnigraph.table.ScanStats;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the merges of this process held at most, so a test can assert the write path's bounds (docs/merge.md:
 * ordered cursors at 8,192 rows per batch, chunks of at most 8,192 rows / 32 MiB, one 32 MiB
 * validation budget) instead of trusting the code's shape. Monotonic maxima and a batch count;
 * {@link #reset()} starts a new observation. Observation only: nothing reads it to decide.
 */
public final class MergeMemory {

  private static final AtomicLong BATCHES = new AtomicLong();
  private static final AtomicLong MAX_BATCH_ROWS = new AtomicLong();
  private static final AtomicLong MAX_BATCH_BYTES = new AtomicLong();
  private static final AtomicLong MAX_CHUNK_ROWS = new AtomicLong();
  private static final AtomicLong MAX_CHUNK_BYTES = new AtomicLong();
  private static final AtomicLong MAX_VALIDATION_BYTES = new AtomicLong();
  private static final AtomicLong PROVEN_TABLES = new AtomicLong();
  private static final AtomicLong JOINED_TABLES = new AtomicLong();

  private MergeMemory() {}

  /** Forgets what earlier merges held. */
  public static void reset() {
    for (AtomicLong a : new AtomicLong[] {BATCHES, MAX_BATCH_ROWS, MAX_BATCH_BYTES, MAX_CHUNK_ROWS, MAX_CHUNK_BYTES,
        MAX_VALIDATION_BYTES, PROVEN_TABLES, JOINED_TABLES}) {
      a.set(0);
    }
  }

  static void cursors(ScanStats... cursors) {
    for (ScanStats c : cursors) {
      if (c != null) {
        BATCHES.addAndGet(c.batches());
        MAX_BATCH_ROWS.accumulateAndGet(c.maxBatchRows(), Math::max);
        MAX_BATCH_BYTES.accumulateAndGet(c.maxBatchBytes(), Math::max);
      }
    }
  }

  /** A chunk buffered for staging: its rows and bytes. */
  public static void chunk(long rows, long bytes) {
    MAX_CHUNK_ROWS.accumulateAndGet(rows, Math::max);
    MAX_CHUNK_BYTES.accumulateAndGet(bytes, Math::max);
  }

  static void validation(long bytes) {
    MAX_VALIDATION_BYTES.accumulateAndGet(bytes, Math::max);
  }

  static void planned(boolean proven) {
    (proven ? PROVEN_TABLES : JOINED_TABLES).incrementAndGet();
  }

  /** Tables the planner classified by the certificate proof (no target join). */
  public static long provenTables() {
    return PROVEN_TABLES.get();
  }

  /** Tables the planner classified by the ordered three-way join. */
  public static long joinedTables() {
    return JOINED_TABLES.get();
  }

  /** Scanner batches the merge cursors read. */
  public static long batches() {
    return BATCHES.get();
  }

  /** The most rows one cursor batch held. */
  public static long maxBatchRows() {
    return MAX_BATCH_ROWS.get();
  }

  /** The most Arrow bytes one cursor batch held. */
  public static long maxBatchBytes() {
    return MAX_BATCH_BYTES.get();
  }

  /** The most rows one chunk buffer held before its stage. */
  public static long maxChunkRows() {
    return MAX_CHUNK_ROWS.get();
  }

  /** The most bytes one chunk buffer held before its stage. */
  public static long maxChunkBytes() {
    return MAX_CHUNK_BYTES.get();
  }

  /** The most bytes the validation delta of one merge retained. */
  public static long maxValidationBytes() {
    return MAX_VALIDATION_BYTES.get();
  }
}
