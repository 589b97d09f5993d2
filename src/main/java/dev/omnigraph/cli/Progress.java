package dev.omnigraph.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on stderr for long commands (load, export, index ensure, optimize,
 * branch merge, cleanup), redrawn a few times a second from a {@link Meter}. Shown only when stderr
 * is a terminal (or when asked for with {@code --progress}), so piped and scripted output stays
 * clean; stdout is never touched. The last state is always drawn once more at the end, so even a
 * run faster than one redraw leaves one line.
 */
final class Progress implements AutoCloseable {

  /** What the display shows. Called from the display's thread: implementations are thread-safe. */
  interface Meter {

    /** The line for time {@code nanos} (of the display's clock). */
    String line(long nanos);

    /** The command finished successfully: whatever was under way is done. */
    default void finish() {}
  }

  /** Redraws per second: often enough to look live, rarely enough to cost nothing. */
  private static final long TICK_MILLIS = 250;

  /** The span rates are measured over: a few seconds, so a rate follows what happens now. */
  static final long WINDOW_NANOS = 5_000_000_000L;

  /** Set by the launcher from {@code [ -t 2 ]}: whether stderr is a terminal. */
  static final String STDERR_TTY = "omnigraph.stderr.tty";

  private final Meter meter;
  private final PrintStream err;
  private final LongSupplier clock;
  private final Thread ticker;
  private volatile boolean done;
  private int drawn;

  private Progress(Meter meter, PrintStream err, LongSupplier clock) {
    this.meter = meter;
    this.err = err;
    this.clock = clock;
    this.ticker = new Thread(this::tick, "omnigraph-progress");
    this.ticker.setDaemon(true);
    this.ticker.start();
  }

  /**
   * Whether to draw: {@code forced} on/off, else only when stderr is a terminal. The launcher knows
   * that ({@value #STDERR_TTY}); run without it, the JVM's console (stdin and stdout a terminal) is
   * the nearest answer Java has.
   */
  static boolean wanted(Boolean forced) {
    if (forced != null) {
      return forced;
    }
    String tty = System.getProperty(STDERR_TTY);
    return tty != null ? Boolean.parseBoolean(tty) : System.console() != null;
  }

  /** A display of {@code meter} on stderr, or none (null) when {@code show} is false. */
  static Progress start(boolean show, Meter meter) {
    return show ? start(System.err, meter, System::nanoTime) : null;
  }

  /** A display of {@code meter} on {@code err} with the given clock (tests use a fake one). */
  static Progress start(PrintStream err, Meter meter, LongSupplier clock) {
    return new Progress(meter, err, clock);
  }

  /** The clock meters of a display started now measure against. */
  static long now() {
    return System.nanoTime();
  }

  private synchronized void draw(String line, String end) {
    // Pad over the previous line's tail instead of an ANSI erase: a forced display may go to a file.
    err.print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())) + end);
    err.flush();
    drawn = end.isEmpty() ? line.length() : 0;
  }

  /**
   * Prints {@code line} to {@code out} in the live line's place (erased first, so the two never mix
   * on a terminal); the display redraws below it. Without a display, just prints it.
   */
  static void printAbove(Progress p, PrintStream out, String line) {
    if (p == null) {
      out.println(line);
      return;
    }
    synchronized (p) {
      p.err.print("\r" + " ".repeat(p.drawn) + "\r");
      p.err.flush();
      p.drawn = 0;
      out.println(line);
      out.flush();
    }
  }

  private void tick() {
    while (!done) {
      draw(meter.line(clock.getAsLong()), "");
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void stop() {
    done = true;
    ticker.interrupt();
    try {
      ticker.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The command succeeded: the final line, marked done. */
  static void finish(Progress p) {
    if (p != null && !p.done) {
      p.stop();
      p.meter.finish();
      p.draw(p.meter.line(p.clock.getAsLong()) + ", done", "\n");
    }
  }

  /** Ends the display (the final line as it stands, so an error starts on a line of its own). */
  @Override
  public void close() {
    if (!done) {
      stop();
      draw(meter.line(clock.getAsLong()), "\n");
    }
  }

  /** Closes {@code p} when there is one (after {@link #finish}, nothing more is drawn). */
  static void end(Progress p) {
    if (p != null) {
      p.close();
    }
  }

  // --- the line's parts, shared by every meter ---

  /** {@code 120,000}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 12.0 MiB}. */
  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }

  /** {@code 40,000 lines/s}, {@code 2.1 tables/s}; empty while the rate is unknown. */
  static String rate(double perSecond, String unit) {
    if (Double.isNaN(perSecond)) {
      return "";
    }
    return ", " + (perSecond >= 100 ? count(Math.round(perSecond)) : String.format(Locale.ROOT, "%.1f", perSecond))
        + " " + unit + "/s";
  }

  /** {@code , ETA 7 s} for {@code remaining} units at {@code perSecond}; empty when unknown or stalled. */
  static String eta(double remaining, double perSecond) {
    if (Double.isNaN(perSecond) || perSecond <= 0 || remaining < 0) {
      return "";
    }
    long s = (long) Math.ceil(remaining / perSecond);
    if (s < 60) {
      return ", ETA " + s + " s";
    }
    if (s < 3600) {
      return ", ETA " + s / 60 + " min " + s % 60 + " s";
    }
    return ", ETA " + s / 3600 + " h " + s % 3600 / 60 + " min";
  }
}
