package dev.omnigraph.engine;

/** Commit timestamps in Unix epoch microseconds, the lineage's unit. */
final class Clock {

  private Clock() {}

  static long micros() {
    return dev.omnigraph.util.Micros.now();
  }
}
