package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.ResourceLimitExceeded;
import java.util.Map;

/** The named bounds of the write path, in one place. */
public final class WriteLimits {

  /** Rows per keyed table transaction (strict insert, upsert, update match set). */
  public static final int MAX_KEYED_ROWS = 8_192;

  /** Arrow bytes per keyed table transaction. */
  public static final long MAX_KEYED_BYTES = 32L * 1024 * 1024;

  /** Full reprepares of an insert/upsert/append after unrelated authority movement. */
  public static final int MAX_REPREPARES = 5;

  /**
   * UTF-8 bytes of one NDJSON load line (one record): four string values at their limit
   * ({@link dev.omnigraph.schema.ValueLimits#MAX_STRING_BYTES}) with their keys and the line's
   * structure. The reader holds a line whole while it parses it, so without a bound one line was
   * the whole 32 MiB body, held two to three times over; past it the line is refused at the byte
   * that crosses it and the rest is never read.
   */
  public static final int MAX_NDJSON_LINE_BYTES = 4 * dev.omnigraph.schema.ValueLimits.MAX_STRING_BYTES;

  /** The {@code resource} of the refusal of a line over {@link #MAX_NDJSON_LINE_BYTES}. */
  public static final String NDJSON_LINE_RESOURCE = "ndjson_line_bytes";

  private WriteLimits() {}

  static void checkRows(TableKey tableKey, long rows) {
    if (rows > MAX_KEYED_ROWS) {
      throw new ResourceLimitExceeded("rows:" + tableKey, MAX_KEYED_ROWS, rows);
    }
  }

  /** An update's (or delete's) match set, checked while it streams. */
  static void checkMatches(TableKey tableKey, long matches, int limit) {
    if (matches > limit) {
      throw new ResourceLimitExceeded("matches:" + tableKey, limit, matches);
    }
  }

  static void checkBytes(TableKey tableKey, long bytes) {
    if (bytes > MAX_KEYED_BYTES) {
      throw new ResourceLimitExceeded("arrow_bytes:" + tableKey, MAX_KEYED_BYTES, bytes);
    }
  }
}
