package dev.omnigraph.cli;

import dev.omnigraph.api.ProgressListener;

/**
 * Progress of an engine operation that works table by table (index ensure, optimize, branch merge,
 * cleanup), fed by the engine's {@link ProgressListener} calls:
 *
 * <pre>
 * optimize main: node:Person (3/5 tables), 40,000 rows/s, ETA 1 s   (steps that know their rows)
 * cleanup: edge:Knows (3/5 tables), 2.1 tables/s, ETA 1 s           (steps that do not)
 * </pre>
 *
 * The ETA is the steps left at the rate steps finish; the rate shown is rows/s when the steps report
 * their rows, tables/s otherwise. A step counts as finished when the next one begins (or the command
 * ends), so its rows count then.
 */
final class StepMeter implements Progress.Meter, ProgressListener {

  private final String label;
  private final RateWindow stepRate;
  private final RateWindow rowRate;
  private String what;
  private long done;
  private long total;
  private long current = -1;
  private boolean started;
  /** Steps and rows finished, never reset (a re-planned attempt's steps count again): the rates' counts. */
  private long finished;
  private long rowsDone;

  /** @param label what runs, e.g. {@code optimize main} */
  StepMeter(String label, long startNanos) {
    this.label = label;
    this.stepRate = new RateWindow(Progress.WINDOW_NANOS, startNanos);
    this.rowRate = new RateWindow(Progress.WINDOW_NANOS, startNanos);
  }

  @Override
  public synchronized void step(String what, long done, long total, long rows) {
    if (this.what != null && done > this.done) {
      finishCurrent();
    }
    this.what = what;
    this.done = done;
    this.total = total;
    this.current = rows;
    this.started = true;
  }

  private void finishCurrent() {
    finished++;
    rowsDone += Math.max(0, current);
  }

  @Override
  public synchronized void finish() {
    if (what != null) {
      finishCurrent();
    }
    what = null;
    done = total;
    started = true;
  }

  @Override
  public synchronized String line(long nanos) {
    double steps = stepRate.perSecond(nanos, finished);
    double rows = rowRate.perSecond(nanos, rowsDone);
    if (!started) {
      return label + ": preparing";
    }
    StringBuilder s = new StringBuilder(label).append(": ");
    if (what == null) {
      s.append(done).append('/').append(total).append(" tables");
    } else {
      s.append(what).append(" (").append(Math.min(done + 1, total)).append('/').append(total).append(" tables)");
    }
    s.append(current >= 0 ? Progress.rate(rows, "rows") : Progress.rate(steps, "tables"));
    if (what != null) {
      s.append(Progress.eta(total - done, steps));
    }
    return s.toString();
  }
}
