package dev.omnigraph.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BackgroundTest {

  @Test
  void theProcessPoolIsBounded() {
    assertEquals(Background.DEFAULT_THREADS, Background.maxThreads());
    assertThrows(IllegalArgumentException.class, () -> Background.pool(0));
  }

  @Test
  void aFullPoolRunsTheWorkOnTheCallerAndNeverGrowsPastItsBound() throws Exception {
    ThreadPoolExecutor pool = Background.pool(2);
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<String>> busy = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      busy.add(Background.start(() -> {
        await(release);
        return Thread.currentThread().getName();
      }, pool));
    }
    String caller = Thread.currentThread().getName();
    // Both threads are blocked: the third piece of work runs here, at once, instead of queueing.
    assertEquals(caller, Background.join(Background.start(() -> Thread.currentThread().getName(), pool)));
    assertEquals(2, pool.getPoolSize());
    release.countDown();
    for (CompletableFuture<String> f : busy) {
      assertTrue(Background.join(f).startsWith("omnigraph-io-"));
    }
    pool.shutdown();
    assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
  }

  @Test
  void workStartedFromSaturatedBackgroundWorkCompletesInsteadOfDeadlocking() {
    ThreadPoolExecutor pool = Background.pool(1);
    // The only thread starts nested work and joins it: with a queue this would wait forever.
    int depth = Background.join(Background.start(() -> 1 + Background.join(Background.start(
        () -> 1 + Background.join(Background.start(() -> 1, pool)), pool)), pool));
    assertEquals(3, depth);
    pool.shutdown();
  }

  @Test
  void aFailureReachesTheJoinerUnwrapped() {
    ThreadPoolExecutor pool = Background.pool(1);
    IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> Background.join(Background.start(() -> {
          throw new IllegalStateException("typed");
        }, pool)));
    assertEquals("typed", thrown.getMessage());
    pool.shutdown();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
