package dev.omnigraph.util;

import java.util.function.Consumer;

/**
 * Hits {@link Failpoint}s at the write path's phase boundaries. Inert in production: nothing in the
 * shipped code, configuration or environment can switch one on. Only test code in this package installs
 * the action that runs at a hit (the test sources' {@code FailpointControl}: throwing, halting the
 * JVM as a crash would, pausing), in-process or, for a child JVM or a packaged service, through a test
 * Java agent. A hit with nothing installed costs one volatile read.
 */
public final class Failpoints {

  private static volatile Consumer<Failpoint> installed;

  private Failpoints() {}

  /** Runs the installed action for {@code point}, if any. */
  public static void hit(Failpoint point) {
    Consumer<Failpoint> action = installed;
    if (action != null) {
      action.accept(point);
    }
  }

  /** Installs (or, with null, removes) what a hit runs: for test code in this package only. */
  static void install(Consumer<Failpoint> action) {
    installed = action;
  }
}
