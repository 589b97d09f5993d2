package dev.omnigraph.engine;

import java.time.Instant;

/** Commit timestamps in Unix epoch microseconds, the lineage's unit. */
final class Clock {

  private Clock() {}

  static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
