package dev.omnigraph.util;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Independent object-store requests of one operation run side by side here instead of one after
 * another (issue 11: a write's latency on object storage is its serial round trips). Threads are
 * daemons, so pending work never keeps a process alive; callers that must see work finish join it.
 */
public final class Background {

  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService IO = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "omnigraph-io-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  private Background() {}

  /** Starts {@code work} on an I/O thread. */
  public static <T> CompletableFuture<T> start(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, IO);
  }

  /** Starts {@code work} on an I/O thread. */
  public static CompletableFuture<Void> run(Runnable work) {
    return CompletableFuture.runAsync(work, IO);
  }

  /**
   * Waits for {@code started} and returns its value, rethrowing its failure as thrown (not wrapped),
   * so typed outcomes reach the caller exactly as if the work had run on the caller's thread.
   */
  public static <T> T join(CompletableFuture<T> started) {
    try {
      return started.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for storage", e);
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause.getMessage(), cause);
    }
  }
}
