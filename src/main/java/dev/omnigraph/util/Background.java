package dev.omnigraph.util;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Independent object-store requests of one operation run side by side here instead of one after
 * another: a write's latency on object storage is its serial round trips (docs/write-path.md). Threads
 * are daemons, so pending work never keeps a process alive; callers that must see work finish join it.
 *
 * <p>The pool is bounded ({@value #DEFAULT_THREADS} threads, or the system property
 * {@value #THREADS_PROPERTY}) so a burst of concurrent requests cannot grow threads without limit.
 * When every thread is busy the work runs on the caller's thread instead of queueing: the caller
 * would join it anyway, and work started from inside background work (a table commit that fans out
 * its own reads) can never wait on a queue that its own pool must drain, so a saturated pool slows
 * down but never deadlocks.
 */
public final class Background {

  static final String THREADS_PROPERTY = "omnigraph.io.threads";
  static final int DEFAULT_THREADS = 64;

  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ThreadPoolExecutor IO = pool(Integer.getInteger(THREADS_PROPERTY, DEFAULT_THREADS));

  /** At most {@code max} threads, each dropped after a minute idle; a full pool runs work on the caller. */
  static ThreadPoolExecutor pool(int max) {
    if (max < 1) {
      throw new IllegalArgumentException(THREADS_PROPERTY + " must be at least 1, got " + max);
    }
    ThreadPoolExecutor pool = new ThreadPoolExecutor(0, max, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(r, "omnigraph-io-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    }, new ThreadPoolExecutor.CallerRunsPolicy());
    return pool;
  }

  /** The pool's size limit, for tests and diagnostics. */
  static int maxThreads() {
    return IO.getMaximumPoolSize();
  }

  private Background() {}

  /** Starts {@code work} on an I/O thread. */
  public static <T> CompletableFuture<T> start(Supplier<T> work) {
    return start(work, IO);
  }

  static <T> CompletableFuture<T> start(Supplier<T> work, ThreadPoolExecutor on) {
    return CompletableFuture.supplyAsync(work, on);
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
