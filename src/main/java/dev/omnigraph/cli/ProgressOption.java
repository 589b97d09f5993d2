package dev.omnigraph.cli;

import dev.omnigraph.api.ProgressListener;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** {@code --[no-]progress} of the commands that draw a {@link Progress} line. */
public class ProgressOption {

  @Option(names = "--progress", negatable = true,
      description = "Show a progress line on stderr (default: only when stderr is a terminal).")
  Boolean progress;

  /** Whether to draw. */
  boolean wanted() {
    return Progress.wanted(progress);
  }

  /**
   * Runs an engine operation that reports its tables to a listener, under a step display labelled
   * {@code label} when one is wanted ({@link ProgressListener#NONE} otherwise); the display ends
   * with the operation, marked done only when it returned.
   */
  <T> T steps(String label, Function<ProgressListener, T> operation) {
    if (!wanted()) {
      return operation.apply(ProgressListener.NONE);
    }
    StepMeter meter = new StepMeter(label, Progress.now());
    Progress p = Progress.start(true, meter);
    try {
      T out = operation.apply(meter);
      Progress.finish(p);
      return out;
    } finally {
      Progress.end(p);
    }
  }
}
