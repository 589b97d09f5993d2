package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The progress line's format and its rate and ETA arithmetic (issue 45 item 6), on a fake clock:
 * every time below is a nanosecond value handed to the meter, nothing sleeps.
 */
class ProgressTest {

  private static final long S = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  /** {@code n} NDJSON lines of {@code width} bytes each (newline included). */
  private static byte[] lines(int n, int width) {
    byte[] b = new byte[n * width];
    java.util.Arrays.fill(b, (byte) 'x');
    for (int i = 1; i <= n; i++) {
      b[i * width - 1] = '\n';
    }
    return b;
  }

  @Test
  void aRateIsOverTheLastWindowNotSinceTheStart() {
    RateWindow w = new RateWindow(5 * S, 0);
    // 10 s at 1,000/s, then 5 s at 4,000/s, sampled every 250 ms as the display redraws.
    long count = 0;
    double rate = Double.NaN;
    for (long t = 250_000_000L; t <= 15 * S; t += 250_000_000L) {
      count += t <= 10 * S ? 250 : 1_000;
      rate = w.perSecond(t, count);
    }
    assertThat(count).isEqualTo(30_000);
    assertThat(rate).isEqualTo(4_000.0); // the average since start would be 2,000/s
  }

  @Test
  void aRateNeedsATickOfHistoryAndDecaysFromTheLastProgressWhenNothingMoves() {
    RateWindow w = new RateWindow(5 * S, 0);
    assertThat(w.perSecond(50_000_000L, 10)).isNaN(); // 50 ms: noise, no rate
    assertThat(w.perSecond(S, 100)).isEqualTo(100.0);
    assertThat(w.perSecond(2 * S, 200)).isEqualTo(100.0);
    // Nothing moves for 18 s (one large step): the rate is the last increase (100) over the time since
    // the sample before it (1 s), decaying but never 0 once something has happened.
    for (long t = 3 * S; t <= 20 * S; t += S) {
      w.perSecond(t, 200);
    }
    assertThat(w.perSecond(20 * S, 200)).isCloseTo(100 / 19.0, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aPlateauBeforeTheWindowCountsFromTheWindowStart() {
    RateWindow w = new RateWindow(5 * S, 0);
    for (long t = S; t <= 7 * S; t += S) {
      w.perSecond(t, 0); // 7 s of planning, nothing counted
    }
    // 100 rows in the quarter second after: over the window (2.25 s .. 7.25 s), 20 rows/s.
    assertThat(w.perSecond(7 * S + 250_000_000L, 100)).isEqualTo(20.0);
  }

  @Test
  void loadShowsLinesBytesOfTheFileItsLineRateAndAnEtaFromTheByteRate() throws Exception {
    // 40 MiB of 64-byte lines: 655,360 lines; 12 MiB read in 3 s is 4 MiB/s, 28 MiB left: 7 s.
    StreamMeter m = new StreamMeter("read", "lines", 40 * MIB, -1, 0);
    assertThat(m.line(0)).isEqualTo("read 0 lines, 0.0 / 40.0 MiB (0%)");
    byte[] second = lines(65_536, 64); // 4 MiB
    try (InputStream in = m.counting(new ByteArrayInputStream(lines(3 * 65_536, 64)))) {
      for (int s = 1; s <= 3; s++) {
        assertThat(in.readNBytes(second.length)).hasSize(second.length);
        m.line(s * S);
      }
    }
    assertThat(m.line(3 * S)).isEqualTo("read 196,608 lines, 12.0 / 40.0 MiB (30%), 65,536 lines/s, ETA 7 s");
  }

  @Test
  void stdinHasNoTotalSoNoPercentageAndNoEta() throws Exception {
    StreamMeter m = new StreamMeter("read", "lines", 0, -1, 0);
    m.counting(new ByteArrayInputStream(lines(1_000, 100))).readAllBytes();
    assertThat(m.line(2 * S)).isEqualTo("read 1,000 lines, 0.1 MiB, 500 lines/s");
  }

  @Test
  void exportCountsTheRowsItWritesAgainstTheSnapshotTotal() throws Exception {
    StreamMeter m = new StreamMeter("exported", "rows", 0, 2_000, 0);
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    try (OutputStream out = m.counting(sink)) {
      out.write(lines(500, 50));
      out.write('{');
      out.write('\n'); // the single-byte path counts its newline too
    }
    assertThat(sink.size()).isEqualTo(500 * 50 + 2);
    // 501 rows in 2 s: 250.5 rows/s rounds to 251 (shown) and leaves 1,499 rows: 5.98.. s, 6 s.
    assertThat(m.line(2 * S)).isEqualTo("exported 501 / 2,000 rows (25%), 0.0 MiB, 251 rows/s, ETA 6 s");
    StreamMeter remote = new StreamMeter("exported", "rows", 0, -1, 0);
    remote.counting(new ByteArrayOutputStream()).write("a\nb\n".getBytes(StandardCharsets.UTF_8));
    assertThat(remote.line(4 * S)).isEqualTo("exported 2 rows, 0.0 MiB, 0.5 rows/s");
  }

  @Test
  void stepsShowTheTableUnderWayItsPositionTheRowRateAndAnEtaFromTheStepRate() {
    StepMeter m = new StepMeter("optimize main", 0);
    assertThat(m.line(0)).isEqualTo("optimize main: preparing");
    m.step("node:Company", 0, 5, 1_000);
    m.line(S);
    m.step("node:Person", 1, 5, 30_000);
    m.line(2 * S);
    m.step("edge:Knows", 2, 5, 50_000);
    // 2 tables (31,000 rows) finished in 2 s: 15,500 rows/s; 3 tables left at 1 table/s: 3 s.
    assertThat(m.line(2 * S)).isEqualTo("optimize main: edge:Knows (3/5 tables), 15,500 rows/s, ETA 3 s");
    m.finish();
    assertThat(m.line(4 * S)).isEqualTo("optimize main: 5/5 tables, 20,250 rows/s");
  }

  @Test
  void stepsWithoutRowsShowTablesPerSecondAndARePlanStartsAgain() {
    StepMeter m = new StepMeter("cleanup", 0);
    m.step("node:A", 0, 3, -1);
    m.step("node:B", 1, 3, -1);
    m.step("edge:C", 2, 3, -1);
    assertThat(m.line(2 * S)).isEqualTo("cleanup: edge:C (3/3 tables), 1.0 tables/s, ETA 1 s");
    m.step("node:A", 0, 3, -1); // a re-planned attempt: position from the start, rates keep counting
    assertThat(m.line(4 * S)).isEqualTo("cleanup: node:A (1/3 tables), 0.5 tables/s, ETA 6 s");
    StepMeter idle = new StepMeter("optimize main", 0);
    idle.finish();
    assertThat(idle.line(S)).isEqualTo("optimize main: 0/0 tables, 0.0 tables/s");
  }

  @Test
  void anEtaReadsInSecondsMinutesOrHours() {
    assertThat(Progress.eta(10, 0)).isEmpty();
    assertThat(Progress.eta(10, Double.NaN)).isEmpty();
    assertThat(Progress.eta(0.5, 1)).isEqualTo(", ETA 1 s");
    assertThat(Progress.eta(125, 1)).isEqualTo(", ETA 2 min 5 s");
    assertThat(Progress.eta(3_780, 1)).isEqualTo(", ETA 1 h 3 min");
    assertThat(Progress.rate(2.06, "tables")).isEqualTo(", 2.1 tables/s");
    assertThat(Progress.rate(40_000.4, "lines")).isEqualTo(", 40,000 lines/s");
  }

  @Test
  void theDisplayDrawsItsLastStateOnceMoreAtTheEndAndOnlyThen() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    StepMeter meter = new StepMeter("cleanup", 0);
    long[] now = {0};
    Progress p = Progress.start(new java.io.PrintStream(err, true, StandardCharsets.UTF_8), meter, () -> now[0]);
    meter.step("node:A", 0, 1, -1);
    now[0] = S;
    Progress.finish(p);
    Progress.end(p); // after finish: nothing more
    String drawn = err.toString(StandardCharsets.UTF_8);
    assertThat(drawn).endsWith("\rcleanup: 1/1 tables, 1.0 tables/s, done\n");
    assertThat(drawn.split("\n", -1)).hasSize(2);
  }
}
