package dev.omnigraph.util;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Switches failpoints on, for tests only: the shipped code has no switch (docs/testing.md,
 * "Failpoints"). In-process, a test enables a point with an action and closes the handle; a child JVM
 * or a packaged service gets a spec, {@code name=action[,name=action]}, through its main
 * ({@link #enableSpec}) or through {@link FailpointAgent}. Actions: {@code error} throws
 * {@link Injected}; {@code exit} halts the JVM at once, as a crash would (no shutdown hooks, no finally
 * blocks); {@code sleep:<ms>} holds the thread there.
 */
public final class FailpointControl {

  /** The error an {@code error} failpoint throws. */
  public static final class Injected extends RuntimeException {
    public Injected(Failpoint point) {
      super("failpoint " + point.wireName() + " fired");
    }
  }

  private static final Map<Failpoint, Runnable> ACTIONS = new ConcurrentHashMap<>();

  private FailpointControl() {}

  /** Enables {@code name} (a {@link Failpoint#wireName()}) with {@code action}; the handle disables it. */
  public static AutoCloseable enable(String name, Runnable action) {
    return enable(Failpoint.named(name), action);
  }

  public static AutoCloseable enable(Failpoint point, Runnable action) {
    synchronized (ACTIONS) {
      ACTIONS.put(point, action);
      Failpoints.install(FailpointControl::run);
    }
    return () -> disable(point);
  }

  /** Enables {@code name} to throw {@link Injected}. */
  public static AutoCloseable enableError(String name) {
    Failpoint point = Failpoint.named(name);
    return enable(point, errorAction(point));
  }

  /** Whether a test has {@code point} enabled (the simulation leaves such a point to that test). */
  public static boolean isEnabled(Failpoint point) {
    return ACTIONS.containsKey(point);
  }

  public static void disable(String name) {
    disable(Failpoint.named(name));
  }

  public static void disable(Failpoint point) {
    synchronized (ACTIONS) {
      ACTIONS.remove(point);
      if (ACTIONS.isEmpty()) {
        Failpoints.install(null);
      }
    }
  }

  /** Enables every {@code name=action} of a spec; a blank spec enables nothing. */
  public static void enableSpec(String spec) {
    if (spec == null || spec.isBlank()) {
      return;
    }
    for (String entry : spec.split(",")) {
      String[] kv = entry.split("=", 2);
      Failpoint point = Failpoint.named(kv[0].trim());
      String action = kv.length > 1 ? kv[1].trim() : "error";
      enable(point, action.equals("exit") ? () -> Runtime.getRuntime().halt(137)
          : action.startsWith("sleep:") ? pause(Long.parseLong(action.substring("sleep:".length())))
          : errorAction(point));
    }
  }

  private static void run(Failpoint point) {
    Runnable action = ACTIONS.get(point);
    if (action != null) {
      action.run();
    }
  }

  private static Runnable pause(long millis) {
    return () -> LockSupport.parkNanos(millis * 1_000_000L);
  }

  private static Runnable errorAction(Failpoint point) {
    return () -> {
      throw new Injected(point);
    };
  }
}
