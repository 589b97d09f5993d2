package dev.omnigraph.cli;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress display on stderr for long commands (load, export), redrawn a few times a
 * second while bytes flow. Shown only on a terminal (or when asked for), so piped and scripted
 * output stays clean; stdout is never touched.
 */
final class Progress implements AutoCloseable {

  private final String label;
  private final long total;
  private final PrintStream err;
  private final AtomicLong bytes = new AtomicLong();
  private final Thread ticker;
  private volatile boolean done;

  private Progress(String label, long total, PrintStream err) {
    this.label = label;
    this.total = total;
    this.err = err;
    this.ticker = new Thread(this::tick, "omnigraph-progress");
    this.ticker.setDaemon(true);
    this.ticker.start();
  }

  /** Whether to draw: {@code forced} on/off, else only when attached to a terminal. */
  static boolean wanted(Boolean forced) {
    return forced != null ? forced : System.console() != null;
  }

  /** A display, or an inert one when {@code show} is false. */
  static Progress start(boolean show, String label, long totalBytes) {
    return show ? new Progress(label, totalBytes, System.err) : null;
  }

  static InputStream counting(Progress p, InputStream in) {
    if (p == null) {
      return in;
    }
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          p.bytes.incrementAndGet();
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
          p.bytes.addAndGet(n);
        }
        return n;
      }
    };
  }

  static OutputStream counting(Progress p, OutputStream out) {
    if (p == null) {
      return out;
    }
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        out.write(b);
        p.bytes.incrementAndGet();
      }

      @Override
      public void write(byte[] buf, int off, int len) throws IOException {
        out.write(buf, off, len);
        p.bytes.addAndGet(len);
      }
    };
  }

  String line() {
    long n = bytes.get();
    if (total > 0) {
      return String.format(Locale.ROOT, "%s %.1f / %.1f MiB (%d%%)", label, n / 1048576.0, total / 1048576.0,
          Math.min(100, n * 100 / total));
    }
    return String.format(Locale.ROOT, "%s %.1f MiB", label, n / 1048576.0);
  }

  private void tick() {
    while (!done) {
      err.print("\r" + line() + "   ");
      err.flush();
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    done = true;
    ticker.interrupt();
    try {
      ticker.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    err.println("\r" + line() + " done");
  }

  /** Closes {@code p} when there is one. */
  static void end(Progress p) {
    if (p != null) {
      p.close();
    }
  }
}
