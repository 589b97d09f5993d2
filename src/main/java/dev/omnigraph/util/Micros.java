package dev.omnigraph.util;

import java.time.Instant;

/** Wall-clock time in Unix epoch microseconds: the unit of lineage, sidecar and audit timestamps. */
public final class Micros {

  private Micros() {}

  /** Now, in microseconds since the epoch. */
  public static long now() {
    return of(Instant.now());
  }

  /** An instant in microseconds since the epoch (truncated). */
  public static long of(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }
}
