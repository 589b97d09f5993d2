package dev.omnigraph.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** Starts racers together, for the "exactly one winner" tests of every compare-and-swap. */
public final class Races {

  private Races() {}

  /**
   * Runs {@code body(i)} for i in 0..threads-1 on threads of their own, all released at once once
   * every one is ready, and waits for all; a racer's exception fails the test.
   */
  public static void atOnce(int threads, IntConsumer body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        int n = i;
        futures.add(pool.submit(() -> {
          ready.countDown();
          go.await();
          body.accept(n);
          return null;
        }));
      }
      assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
      go.countDown();
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
