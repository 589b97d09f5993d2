package dev.omnigraph.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The shrinker on deliberately failing predicates, no storage involved. */
class ShrinkerTest {

  /** A step: a number and whether it is "faulty" (the simpler variant is the same number, not faulty). */
  record S(int n, boolean faulty) {}

  private static List<S> steps(int count) {
    return IntStream.rangeClosed(1, count).mapToObj(n -> new S(n, true)).toList();
  }

  private static List<S> simpler(S s) {
    return s.faulty() ? List.of(new S(s.n(), false)) : List.of();
  }

  @Test
  void cutsToTheStepsTheFailureNeedsInOrder() {
    List<List<S>> tried = new ArrayList<>();
    // Fails when step 3 comes before step 17 and step 17 is faulty: the kept steps, nothing else.
    Shrinker.Shrunk<S> s = Shrinker.shrink(steps(20), ShrinkerTest::simpler, l -> {
      tried.add(l);
      int three = l.stream().map(S::n).toList().indexOf(3);
      int seventeen = l.stream().map(S::n).toList().indexOf(17);
      return three >= 0 && seventeen > three && l.get(seventeen).faulty();
    }, 1000);
    assertThat(s.steps()).containsExactly(new S(3, false), new S(17, true));
    assertThat(s.tries()).isEqualTo(tried.size()).isLessThan(60);
  }

  @Test
  void keepsTheInputWhenNothingSmallerFails() {
    Shrinker.Shrunk<S> s = Shrinker.shrink(steps(4), ShrinkerTest::simpler,
        l -> l.size() == 4 && l.stream().allMatch(S::faulty), 1000);
    assertThat(s.steps()).isEqualTo(steps(4));
  }

  @Test
  void stopsAtTheTryBudget() {
    List<List<S>> tried = new ArrayList<>();
    Shrinker.Shrunk<S> s = Shrinker.shrink(steps(20), ShrinkerTest::simpler, l -> {
      tried.add(l);
      return l.stream().anyMatch(x -> x.n() == 20);
    }, 3);
    assertThat(tried).hasSize(3);
    assertThat(s.tries()).isEqualTo(3);
    assertThat(s.steps()).contains(new S(20, true));
  }
}
