package dev.omnigraph.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one retry loop: bounded attempts, doubling capped waits, the settled value, the exhaustion. */
class BoundedRetryTest {

  private final List<Duration> waits = new ArrayList<>();
  private final BoundedRetry.Sleeper recording = waits::add;
  private final BoundedRetry.Policy policy = new BoundedRetry.Policy("test", 5, Duration.ofMillis(10),
      Duration.ofMillis(50), Duration.ZERO);

  @Test
  void retriesUntilAnAttemptSettlesWaitingLongerEachTime() {
    List<Integer> attempts = new ArrayList<>();
    String value = BoundedRetry.run(policy, recording, n -> {
      attempts.add(n);
      return n == 4 ? Optional.of("settled at " + n) : Optional.empty();
    }, () -> new IllegalStateException("exhausted"));
    assertThat(value).isEqualTo("settled at 4");
    assertThat(attempts).containsExactly(1, 2, 3, 4);
    assertThat(waits).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40));
  }

  @Test
  void stopsAtTheLimitWithTheCallersFailureAndCapsTheWait() {
    assertThatThrownBy(() -> BoundedRetry.run(policy, recording, n -> Optional.empty(),
        () -> new IllegalStateException("exhausted after 5")))
        .isInstanceOf(IllegalStateException.class).hasMessage("exhausted after 5");
    assertThat(waits).hasSize(4).last().isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void aFailingAttemptIsNotRetried() {
    assertThatThrownBy(() -> BoundedRetry.run(policy, recording, n -> {
      throw new IllegalArgumentException("boom " + n);
    }, IllegalStateException::new)).hasMessage("boom 1");
    assertThat(waits).isEmpty();
  }

  @Test
  void jitterStaysWithinItsBound() {
    BoundedRetry.Policy jittered = new BoundedRetry.Policy("j", 2, Duration.ofMillis(10), Duration.ofMillis(10),
        Duration.ofMillis(5));
    for (int i = 0; i < 50; i++) {
      assertThat(jittered.backoff(1).toMillis()).isBetween(10L, 15L);
    }
  }
}
