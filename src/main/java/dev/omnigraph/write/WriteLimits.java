package dev.omnigraph.write;

import dev.omnigraph.api.ResourceLimitExceeded;

/** The named bounds of the write path, in one place. */
public final class WriteLimits {

  /** Rows per keyed table transaction (strict insert, upsert, update match set). */
  public static final int MAX_KEYED_ROWS = 8_192;

  /** Arrow bytes per keyed table transaction. */
  public static final long MAX_KEYED_BYTES = 32L * 1024 * 1024;

  /** Full reprepares of an insert/upsert/append after unrelated authority movement. */
  public static final int MAX_REPREPARES = 5;

  private WriteLimits() {}

  static void checkRows(String tableKey, long rows) {
    if (rows > MAX_KEYED_ROWS) {
      throw new ResourceLimitExceeded("rows:" + tableKey, MAX_KEYED_ROWS, rows);
    }
  }

  /** An update's (or delete's) match set, checked while it streams. */
  static void checkMatches(String tableKey, long matches, int limit) {
    if (matches > limit) {
      throw new ResourceLimitExceeded("matches:" + tableKey, limit, matches);
    }
  }

  static void checkBytes(String tableKey, long bytes) {
    if (bytes > MAX_KEYED_BYTES) {
      throw new ResourceLimitExceeded("arrow_bytes:" + tableKey, MAX_KEYED_BYTES, bytes);
    }
  }
}
