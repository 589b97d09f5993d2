package dev.omnigraph.util;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The one bounded retry loop (Iceberg's {@code Tasks}, Nessie's {@code CommitRetry}):
 * a named policy with its limits, an injectable sleeper, and an attempt that either settles
 * (a value) or asks for another try (empty). Nothing else in the code base sleeps to retry.
 */
public final class BoundedRetry {

  /** How to wait between attempts; tests inject one that records instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  /** The real clock. */
  public static final Sleeper REAL = d -> Thread.sleep(d.toMillis());

  /**
   * A retry policy.
   *
   * @param name what is retried, for messages
   * @param maxAttempts attempts in all, the first included (at least 1)
   * @param base the wait after the first attempt; doubled after each further one
   * @param cap the longest wait
   * @param jitter up to this much is added to each wait, so contenders do not retry in step
   */
  public record Policy(String name, int maxAttempts, Duration base, Duration cap, Duration jitter) {
    public Policy {
      Objects.requireNonNull(name, "name");
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("a retry policy runs at least one attempt");
      }
    }

    /** The wait after attempt {@code attempt} (1-based). */
    Duration backoff(int attempt) {
      long ms = Math.min(cap.toMillis(), base.toMillis() << Math.min(attempt - 1, 20));
      long extra = jitter.isZero() ? 0 : ThreadLocalRandom.current().nextLong(jitter.toMillis() + 1);
      return Duration.ofMillis(ms + extra);
    }
  }

  private BoundedRetry() {}

  /**
   * Runs {@code attempt} (given its 1-based number) until it returns a value, waiting
   * {@link Policy#backoff} between tries, at most {@link Policy#maxAttempts} times.
   *
   * @throws RuntimeException from {@code exhausted} when no attempt settled; from an attempt as is
   */
  public static <T> T run(Policy policy, Sleeper sleeper, IntFunction<Optional<T>> attempt,
      Supplier<? extends RuntimeException> exhausted) {
    for (int n = 1; n <= policy.maxAttempts(); n++) {
      Optional<T> settled = attempt.apply(n);
      if (settled.isPresent()) {
        return settled.get();
      }
      Duration wait = policy.backoff(n);
      if (n < policy.maxAttempts() && !wait.isZero()) {
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while retrying " + policy.name(), e);
        }
      }
    }
    throw exhausted.get();
  }
}
