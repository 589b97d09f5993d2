package dev.omnigraph.util;

import java.time.Instant;
import java.util.function.LongSupplier;

/** Wall-clock time in Unix epoch microseconds: the unit of lineage, sidecar and audit timestamps. */
public final class Micros {

  /**
   * The clock behind {@link #now} (the clock seam of the deterministic simulation, docs/testing.md): the wall clock in production; a
   * deterministic simulation installs its own ({@link #install}), so lineage and sidecar times are
   * the same in every run of one seed.
   */
  private static volatile LongSupplier clock = () -> of(Instant.now());

  private Micros() {}

  /** Now, in microseconds since the epoch. */
  public static long now() {
    return clock.getAsLong();
  }

  /**
   * Makes {@code micros} the process's clock until the returned handle is closed, which puts back
   * the one it replaced. For simulations; nothing in production calls it.
   */
  public static AutoCloseable install(LongSupplier micros) {
    LongSupplier before = clock;
    clock = micros;
    return () -> clock = before;
  }

  /** An instant in microseconds since the epoch (truncated). */
  public static long of(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }
}
