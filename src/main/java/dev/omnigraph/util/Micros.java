package dev.omnigraph.util;

import java.time.Instant;

/** Wall-clock time in Unix epoch microseconds: the unit of lineage, sidecar and audit timestamps. */
public final class Micros {

  private Micros() {}

  /** Now, in microseconds since the epoch. */
  public static long now() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
