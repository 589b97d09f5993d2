package dev.omnigraph.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The case loop of the fuzz tests: seeded, bounded, and exact about what failed. Each property draws
 * its inputs from a {@link SplittableRandom} seeded from the run's seed and the property's name, so
 * one property's inputs do not shift when another property changes, and a run is replayed by its
 * seed alone. No shrinking: a failure prints the seed and the exact failing input as a Java string
 * literal, which pastes into a regression test as it is.
 *
 * <p>{@code -Domnigraph.fuzz.seed=S} replays (or varies) a run; {@code -Domnigraph.fuzz.cases=N}
 * runs {@code N} cases per property instead of each property's default.
 */
public final class Fuzz {

  /** The default seed: fixed, so the default suite is deterministic and a failure there replays. */
  public static final long DEFAULT_SEED = 0x0012_F022L;

  /** Failures described in full; past this many, only counted (one bug usually fails many cases). */
  private static final int DESCRIBED = 5;

  private Fuzz() {}

  /** The run's seed: {@code omnigraph.fuzz.seed}, else {@link #DEFAULT_SEED}. */
  public static long seed() {
    return Long.getLong("omnigraph.fuzz.seed", DEFAULT_SEED);
  }

  /** Cases per property: {@code omnigraph.fuzz.cases}, else {@code defaultCases}. */
  public static int cases(int defaultCases) {
    return Integer.getInteger("omnigraph.fuzz.cases", defaultCases);
  }

  /** The check of one case; may throw anything, which is what the loop reports. */
  @FunctionalInterface
  public interface Check<T> {
    void accept(T input) throws Exception;
  }

  /**
   * Runs {@code check} on {@link #cases(int)} inputs drawn by {@code generate}. Every case runs, so
   * the count of failing cases is exact; any {@link Throwable} from {@code check} fails the case
   * (a {@link StackOverflowError} included: it is the crash the fuzz tests exist to find). Then
   * throws one {@link AssertionError} naming the property, the seed, and the failing inputs.
   */
  public static <T> void forAll(String property, int defaultCases, Function<SplittableRandom, T> generate,
      Function<T, String> show, Check<T> check) {
    long seed = seed();
    int cases = cases(defaultCases);
    SplittableRandom random = new SplittableRandom(seed ^ (property.hashCode() * 0x9E37_79B9_7F4A_7C15L));
    List<Throwable> failures = new ArrayList<>();
    int failed = 0;
    for (int i = 0; i < cases; i++) {
      T input = generate.apply(random);
      try {
        check.accept(input);
      } catch (Throwable t) {
        failed++;
        if (failures.size() < DESCRIBED) {
          AssertionError described = new AssertionError("case " + i + ", input: " + show.apply(input)
              + "\n  failed with: " + t, t);
          failures.add(described);
        }
      }
    }
    if (failed > 0) {
      AssertionError error = new AssertionError(property + ": " + failed + " of " + cases + " cases failed (seed "
          + seed + "; rerun with -Domnigraph.fuzz.seed=" + seed + "). First: " + failures.get(0).getMessage(),
          failures.get(0).getCause());
      failures.stream().skip(1).forEach(error::addSuppressed);
      throw error;
    }
  }

  /** {@code s} as a Java string literal: quotes, backslashes and every char outside printable ASCII escaped. */
  public static String literal(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /**
   * {@code bytes} as a Java expression: the string literal when they are exactly the UTF-8 of a
   * string, else one byte per char read as ISO-8859-1 (exact for any bytes, and ASCII stays legible).
   */
  public static String literal(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)) {
      return literal(text) + ".getBytes(UTF_8)";
    }
    return literal(new String(bytes, StandardCharsets.ISO_8859_1)) + ".getBytes(ISO_8859_1)";
  }
}
