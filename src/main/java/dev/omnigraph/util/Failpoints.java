package dev.omnigraph.util;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named failpoints at the write path's phase boundaries, inert unless a test enables them: a
 * disabled point costs one volatile read. Actions: {@code error} throws {@link Injected};
 * {@code exit} halts the JVM at once, as a crash would (no shutdown hooks, no finally blocks);
 * {@code sleep:<ms>} holds the thread there (a slow write, for drain tests of a packaged service); a
 * test may also install a callback. Enabled programmatically or, for a child JVM, through the
 * system property {@code omnigraph.failpoints=name=action[,name=action]}.
 */
public final class Failpoints {

  /** The error an {@code error} failpoint throws. */
  public static final class Injected extends RuntimeException {
    public Injected(String name) {
      super("failpoint " + name + " fired");
    }
  }

  private static final Map<String, Runnable> ACTIONS = new ConcurrentHashMap<>();
  private static volatile boolean any;

  static {
    String spec = System.getProperty("omnigraph.failpoints");
    if (spec != null && !spec.isBlank()) {
      for (String entry : spec.split(",")) {
        String[] kv = entry.split("=", 2);
        String action = kv.length > 1 ? kv[1].trim() : "error";
        enable(kv[0].trim(), action.equals("exit") ? () -> Runtime.getRuntime().halt(137)
            : action.startsWith("sleep:") ? pause(Long.parseLong(action.substring("sleep:".length())))
            : errorAction(kv[0].trim()));
      }
    }
  }

  private Failpoints() {}

  /** Runs the action of {@code name} if it is enabled. */
  public static void hit(String name) {
    if (any) {
      Runnable action = ACTIONS.get(name);
      if (action != null) {
        action.run();
      }
    }
  }

  /** Enables {@code name} with {@code action}; returns a handle that disables it. */
  public static AutoCloseable enable(String name, Runnable action) {
    ACTIONS.put(name, action);
    any = true;
    return () -> disable(name);
  }

  /** Enables {@code name} to throw {@link Injected}. */
  public static AutoCloseable enableError(String name) {
    return enable(name, errorAction(name));
  }

  public static void disable(String name) {
    ACTIONS.remove(name);
    any = !ACTIONS.isEmpty();
  }

  private static Runnable pause(long millis) {
    return () -> java.util.concurrent.locks.LockSupport.parkNanos(millis * 1_000_000L);
  }

  private static Runnable errorAction(String name) {
    return () -> {
      throw new Injected(name);
    };
  }
}
