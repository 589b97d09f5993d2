package dev.omnigraph.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Cuts a failing history to a shorter one that fails the same way, greedily:
 * first whole chunks of steps (halves, quarters, ... single steps, as in delta debugging), then each
 * remaining step made simpler ({@code simpler}: its faults off, its crash unarmed), keeping every cut
 * after which {@code failsSameWay} still holds (the empty list is never tried). Greedy, one pass:
 * short, not guaranteed minimal.
 *
 * <p>Generic over the step type so it is tested on a plain predicate ({@code ShrinkerTest}); the
 * simulation's predicate reruns a {@link History} on the candidate plan.
 */
final class Shrinker {

  /** How a shrink went: the shortest failing list found and how many candidates were tried. */
  record Shrunk<T>(List<T> steps, int tries) {}

  private Shrinker() {}

  /**
   * @param failing a list for which {@code failsSameWay} holds
   * @param simpler the simpler variants of one step, most simplified first (empty: none)
   * @param maxTries stop trying after this many candidates (each may be a whole history run)
   */
  static <T> Shrunk<T> shrink(List<T> failing, Function<T, List<T>> simpler, Predicate<List<T>> failsSameWay,
      int maxTries) {
    List<T> current = List.copyOf(failing);
    int tries = 0;
    for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && tries < maxTries; chunk /= 2) {
      for (int from = 0; from < current.size() && tries < maxTries; ) {
        List<T> candidate = new ArrayList<>(current.subList(0, from));
        candidate.addAll(current.subList(Math.min(current.size(), from + chunk), current.size()));
        if (candidate.isEmpty()) {
          from += chunk;
          continue;
        }
        tries++;
        if (failsSameWay.test(candidate)) {
          current = List.copyOf(candidate); // same start: the next chunk moved into this place
        } else {
          from += chunk;
        }
      }
    }
    for (int i = 0; i < current.size() && tries < maxTries; i++) {
      for (T variant : simpler.apply(current.get(i))) {
        List<T> candidate = new ArrayList<>(current);
        candidate.set(i, variant);
        tries++;
        if (failsSameWay.test(candidate)) {
          current = List.copyOf(candidate);
          break;
        }
        if (tries >= maxTries) {
          break;
        }
      }
    }
    return new Shrunk<>(current, tries);
  }
}
