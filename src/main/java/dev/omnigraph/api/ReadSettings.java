package dev.omnigraph.api;

import dev.omnigraph.api.ReadBudgetExceeded.Budget;
import java.util.function.Function;

/**
 * The budgets of one read query (docs/query-language.md, "Read budgets"). A read materializes its
 * bindings in memory, so without a bound twelve unconstrained node variables (a 16.7M-row cartesian
 * product) exhausted the heap and took the whole service down; each budget is charged where the
 * executor produces rows and, once exceeded, ends the read with
 * {@link dev.omnigraph.api.ReadBudgetExceeded}. Writes are not affected: a read holds no gate.
 *
 * @param maxIntermediateRows binding rows the read may produce in total: candidate rows scanned,
 *     rows made by each binding, traversal and {@code not} block
 * @param maxIntermediateBytes estimated bytes of those rows in total (a row of n variables counts
 *     {@code 16 + 8·n}), which bounds queries with very many variables
 * @param timeoutMillis wall-clock milliseconds the read may run, checked between and during its
 *     steps (a single Lance scan is not interrupted)
 */
public record ReadSettings(long maxIntermediateRows, long maxIntermediateBytes, long timeoutMillis) {

  public static final String MAX_INTERMEDIATE_ROWS = Budget.INTERMEDIATE_ROWS.setting();
  public static final String MAX_INTERMEDIATE_BYTES = Budget.INTERMEDIATE_BYTES.setting();
  public static final String TIMEOUT_MS = Budget.TIMEOUT_MS.setting();

  /**
   * The bytes the process's column cache may hold (docs/performance.md, "The column cache"): the
   * columns reads scanned, per exact table version, answering the next scans of that version from
   * memory. Process-wide, not per read; 0 turns it off.
   */
  public static final String COLUMN_CACHE_BYTES = "omnigraph.read.column-cache-bytes";

  /** Default column cache: 64 MiB. */
  public static final long DEFAULT_COLUMN_CACHE_BYTES = 64L << 20;

  /** Default row budget: far above any interactive read, far below what fills a 1 GiB heap. */
  public static final long DEFAULT_MAX_INTERMEDIATE_ROWS = 1_000_000;
  /** Default byte budget: 256 MiB. */
  public static final long DEFAULT_MAX_INTERMEDIATE_BYTES = 256L << 20;
  /** Default timeout: 30 s. */
  public static final long DEFAULT_TIMEOUT_MS = 30_000;

  public ReadSettings {
    if (maxIntermediateRows < 1 || maxIntermediateBytes < 1 || timeoutMillis < 1) {
      throw new IllegalArgumentException("read budgets must be positive: max-intermediate-rows="
          + maxIntermediateRows + ", max-intermediate-bytes=" + maxIntermediateBytes + ", timeout-ms=" + timeoutMillis);
    }
  }

  /** 1,000,000 rows, 256 MiB, 30 s. */
  public static ReadSettings defaults() {
    return new ReadSettings(DEFAULT_MAX_INTERMEDIATE_ROWS, DEFAULT_MAX_INTERMEDIATE_BYTES, DEFAULT_TIMEOUT_MS);
  }

  /** The settings from the JVM's system properties ({@link #MAX_INTERMEDIATE_ROWS} …), defaults for the rest. */
  public static ReadSettings fromSystemProperties() {
    return from(System::getProperty);
  }

  /**
   * The settings from any key → value lookup (null: unset), e.g. Quarkus/MicroProfile config.
   *
   * @throws IllegalArgumentException naming the key of a value that is not a positive integer
   */
  public static ReadSettings from(Function<String, String> lookup) {
    return new ReadSettings(
        positive(lookup, MAX_INTERMEDIATE_ROWS, DEFAULT_MAX_INTERMEDIATE_ROWS),
        positive(lookup, MAX_INTERMEDIATE_BYTES, DEFAULT_MAX_INTERMEDIATE_BYTES),
        positive(lookup, TIMEOUT_MS, DEFAULT_TIMEOUT_MS));
  }

  /**
   * The column cache's bytes from a key → value lookup ({@link #COLUMN_CACHE_BYTES}; unset: the
   * default).
   *
   * @throws IllegalArgumentException naming the key of a value that is not a non-negative integer
   */
  public static long columnCacheBytes(Function<String, String> lookup) {
    return atLeast(lookup, COLUMN_CACHE_BYTES, DEFAULT_COLUMN_CACHE_BYTES, 0);
  }

  private static long positive(Function<String, String> lookup, String key, long dflt) {
    return atLeast(lookup, key, dflt, 1);
  }

  private static long atLeast(Function<String, String> lookup, String key, long dflt, long min) {
    String v = lookup.apply(key);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the key
    }
    throw new IllegalArgumentException(key + " must be a " + (min == 0 ? "non-negative" : "positive")
        + " integer, not '" + v + "'");
  }
}
