package dev.omnigraph.read;

import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadBudgetExceeded.Budget;
import java.util.function.LongSupplier;

/**
 * One read's running account against its {@link ReadSettings}. Charged where rows are produced, so
 * the read stops before a product it cannot hold is built rather than after the heap is gone.
 * Not thread-safe: one per read, on the read's thread.
 */
final class ReadBudget {

  /** Rows between clock reads inside one step; a step boundary always reads the clock. */
  private static final int CLOCK_EVERY = 4_096;

  private final ReadSettings settings;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private long rows;
  private long bytes;
  private int sinceClock;

  ReadBudget(ReadSettings settings, LongSupplier nanoClock) {
    this.settings = settings;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
  }

  /**
   * Charges one produced row of {@code width} variable slots.
   *
   * @throws ReadBudgetExceeded when the row or byte budget is now exceeded, or the timeout passed
   */
  void row(int width) {
    rows++;
    bytes += 16 + 8L * width;
    if (rows > settings.maxIntermediateRows()) {
      throw new ReadBudgetExceeded(Budget.INTERMEDIATE_ROWS, settings.maxIntermediateRows(), rows);
    }
    if (bytes > settings.maxIntermediateBytes()) {
      throw new ReadBudgetExceeded(Budget.INTERMEDIATE_BYTES, settings.maxIntermediateBytes(), bytes);
    }
    if (++sinceClock >= CLOCK_EVERY) {
      checkTime();
    }
  }

  /**
   * Counts one step of work that holds nothing (a streamed row folded into an aggregate), so a long
   * stream still reads the clock every {@value #CLOCK_EVERY} steps.
   *
   * @throws ReadBudgetExceeded when the timeout has passed
   */
  void step() {
    if (++sinceClock >= CLOCK_EVERY) {
      checkTime();
    }
  }

  /** @throws ReadBudgetExceeded when the timeout has passed */
  void checkTime() {
    sinceClock = 0;
    long elapsedMillis = (nanoClock.getAsLong() - startNanos) / 1_000_000;
    if (elapsedMillis > settings.timeoutMillis()) {
      throw new ReadBudgetExceeded(Budget.TIMEOUT_MS, settings.timeoutMillis(), elapsedMillis);
    }
  }
}
