package dev.omnigraph.cli;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of an NDJSON stream (load reads one, export writes one): bytes and lines ('\n' bytes,
 * one per NDJSON record) counted as they pass, with their rates over the last few seconds and an
 * ETA from whichever total is known.
 *
 * <pre>
 * read 120,000 lines, 12.0 / 40.0 MiB (30%), 40,000 lines/s, ETA 7 s     (a file of known size)
 * exported 50,000 / 200,000 rows (25%), 12.0 MiB, 40,000 rows/s, ETA 4 s (the snapshot's row counts)
 * exported 50,000 rows, 12.0 MiB, 40,000 rows/s                          (no total: stdin, remote)
 * </pre>
 */
final class StreamMeter implements Progress.Meter {

  private final String verb;
  private final String unit;
  private final long totalBytes;
  private final long totalLines;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong lines = new AtomicLong();
  private final RateWindow byteRate;
  private final RateWindow lineRate;
  private volatile boolean finished;

  /**
   * @param verb what happens to the stream ({@code read}, {@code sent}, {@code exported})
   * @param unit what a line is ({@code lines}, {@code rows})
   * @param totalBytes the stream's size for a percentage and the ETA; 0 when unknown
   * @param totalLines its lines for a percentage and the ETA; -1 when unknown (used when there is no
   *     byte total)
   * @param startNanos when the stream starts, on the display's clock
   */
  StreamMeter(String verb, String unit, long totalBytes, long totalLines, long startNanos) {
    this.verb = verb;
    this.unit = unit;
    this.totalBytes = totalBytes;
    this.totalLines = totalLines;
    this.byteRate = new RateWindow(Progress.WINDOW_NANOS, startNanos);
    this.lineRate = new RateWindow(Progress.WINDOW_NANOS, startNanos);
  }

  /** Counts {@code len} bytes of {@code buf} from {@code off}. */
  void counted(byte[] buf, int off, int len) {
    long newlines = 0;
    for (int i = off; i < off + len; i++) {
      if (buf[i] == '\n') {
        newlines++;
      }
    }
    bytes.addAndGet(len);
    lines.addAndGet(newlines);
  }

  private void counted(int b) {
    bytes.incrementAndGet();
    if (b == '\n') {
      lines.incrementAndGet();
    }
  }

  /** {@code in}, counted into this meter. */
  InputStream counting(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          counted(b);
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
          counted(buf, off, n);
        }
        return n;
      }
    };
  }

  /** {@code out}, counted into this meter. */
  OutputStream counting(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        out.write(b);
        counted(b);
      }

      @Override
      public void write(byte[] buf, int off, int len) throws IOException {
        out.write(buf, off, len);
        counted(buf, off, len);
      }
    };
  }

  @Override
  public void finish() {
    finished = true; // the final line has no ETA
  }

  @Override
  public String line(long nanos) {
    long b = bytes.get();
    long n = lines.get();
    double bytesPerSecond = byteRate.perSecond(nanos, b);
    double linesPerSecond = lineRate.perSecond(nanos, n);
    StringBuilder s = new StringBuilder(verb).append(' ').append(Progress.count(n));
    if (totalBytes > 0) {
      s.append(' ').append(unit).append(", ").append(Progress.mib(b)).append(" / ").append(Progress.mib(totalBytes))
          .append(" MiB (").append(Math.min(100, b * 100 / totalBytes)).append("%)")
          .append(Progress.rate(linesPerSecond, unit)).append(finished ? "" : Progress.eta(totalBytes - b, bytesPerSecond));
    } else if (totalLines >= 0) {
      s.append(" / ").append(Progress.count(totalLines)).append(' ').append(unit).append(" (")
          .append(totalLines == 0 ? 100 : Math.min(100, n * 100 / totalLines)).append("%), ")
          .append(Progress.mib(b)).append(" MiB").append(Progress.rate(linesPerSecond, unit))
          .append(finished ? "" : Progress.eta(totalLines - n, linesPerSecond));
    } else {
      s.append(' ').append(unit).append(", ").append(Progress.mib(b)).append(" MiB")
          .append(Progress.rate(linesPerSecond, unit));
    }
    return s.toString();
  }
}
