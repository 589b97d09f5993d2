package dev.omnigraph.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.ReadSetMember;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The bounded reprepare re-plans only a moved read set that the revalidation found (replannable)
 * and the writer accepts; a final one (a plan's own check, the publisher's exact head) is answered
 * on the first attempt, and what escapes is always final.
 */
class ReprepareTest {

  private static ReadSetChanged moved(boolean replannable) {
    return replannable
        ? ReadSetChanged.replannable(new ReadSetMember.GraphHead("main"), Optional.of("a"), Optional.of("b"))
        : new ReadSetChanged(new ReadSetMember.GraphHead("main"), Optional.of("a"), Optional.of("b"));
  }

  @Test
  void aReplannableMoveIsRetriedUpToTheBoundThenAnsweredFinal() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> CommitTemplate.reprepared("t", m -> true, n -> {
      attempts.incrementAndGet();
      throw moved(true);
    })).isInstanceOfSatisfying(ReadSetChanged.class, e -> {
      assertThat(e.replannable()).isFalse();
      assertThat(e.member()).isEqualTo("graph_head:main");
      assertThat(e.expected()).contains("a");
      assertThat(e.actual()).contains("b");
    });
    assertThat(attempts.get()).isEqualTo(WriteLimits.MAX_REPREPARES + 1);
  }

  @Test
  void aReplannableMoveThenSuccessReturnsTheSecondAttempt() {
    int answered = CommitTemplate.<Integer>reprepared("t", m -> true, n -> {
      if (n == 0) {
        throw moved(true);
      }
      return n;
    });
    assertThat(answered).isEqualTo(1);
  }

  @Test
  void aFinalMoveIsNeverRetried() {
    AtomicInteger attempts = new AtomicInteger();
    ReadSetChanged fin = moved(false);
    assertThatThrownBy(() -> CommitTemplate.reprepared("t", m -> true, n -> {
      attempts.incrementAndGet();
      throw fin;
    })).isSameAs(fin);
    assertThat(attempts.get()).isEqualTo(1);
  }

  @Test
  void aMoveTheWriterRefusesIsAnsweredFinalAtOnce() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> CommitTemplate.reprepared("t", m -> false, n -> {
      attempts.incrementAndGet();
      throw moved(true);
    })).isInstanceOfSatisfying(ReadSetChanged.class, e -> assertThat(e.replannable()).isFalse());
    assertThat(attempts.get()).isEqualTo(1);
  }
}
