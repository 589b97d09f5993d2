package dev.omnigraph.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A rate over the last few seconds of a growing count (a progress line's rows/s is what
 * the command does now, not its average since start, which hides a slow tail or a fast finish).
 *
 * <p>Samples come from the progress display's redraws, so the window stays small; a plateau (the
 * count not moving, say while one large table compacts) is kept as its first and last sample only,
 * so memory stays bounded however long a step takes. The base of the rate is the newest sample at
 * or before the window's start, but never one past the last increase: when nothing moved in the
 * window the rate decays from the last progress instead of dropping to zero (and losing the ETA).
 */
final class RateWindow {

  /** Below this span a rate is noise (one redraw interval or less of history). */
  static final long MIN_SPAN_NANOS = 100_000_000L;

  private final long windowNanos;
  private final List<long[]> samples = new ArrayList<>();

  /** A window of {@code windowNanos} whose count was 0 at {@code startNanos}. */
  RateWindow(long windowNanos, long startNanos) {
    this.windowNanos = windowNanos;
    samples.add(new long[] {startNanos, 0});
  }

  /**
   * Records {@code count} at {@code nanos} and returns the count's rate per second over the window
   * ending there, or NaN while there is less than {@link #MIN_SPAN_NANOS} of history.
   */
  synchronized double perSecond(long nanos, long count) {
    int n = samples.size();
    if (n >= 2 && samples.get(n - 1)[1] == count && samples.get(n - 2)[1] == count) {
      samples.get(n - 1)[0] = nanos; // extend the plateau instead of growing the list
    } else {
      samples.add(new long[] {nanos, count});
    }
    long start = nanos - windowNanos;
    while (samples.size() > 2 && samples.get(1)[0] <= start && samples.get(1)[1] < count) {
      samples.remove(0);
    }
    long[] base = samples.get(0);
    // On a plateau that began before the window, the count at the window's start is the plateau's.
    long baseTime = samples.size() > 1 && samples.get(1)[1] == base[1] ? Math.max(base[0], Math.min(start,
        samples.get(1)[0])) : base[0];
    long span = nanos - baseTime;
    if (span < MIN_SPAN_NANOS) {
      return Double.NaN;
    }
    return (count - base[1]) * 1e9 / span;
  }
}
