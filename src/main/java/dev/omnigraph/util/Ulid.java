package dev.omnigraph.util;

import java.security.SecureRandom;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * ULIDs (26 Crockford base-32 characters: 48-bit millisecond time, 80 random bits) for commit and
 * operation ids. Ids minted by one process are strictly increasing, even within one millisecond, so
 * lexical order is creation order there.
 */
public final class Ulid {

  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

  /**
   * Where every id comes from (the id seam of the deterministic simulation, docs/testing.md): the wall clock and {@link SecureRandom} in
   * production; a deterministic simulation installs a seeded generator over its own clock
   * ({@link #install}), so one seed mints the same ids in every run.
   */
  private static volatile Generator source = new Generator(System::currentTimeMillis, new SecureRandom());

  private Ulid() {}

  /** A new ULID. */
  public static String next() {
    return source.next();
  }

  /**
   * Makes {@code generator} the process's id source until the returned handle is closed, which puts
   * back the one it replaced. For simulations; nothing in production calls it.
   */
  public static AutoCloseable install(Generator generator) {
    Generator before = source;
    source = generator;
    return () -> source = before;
  }

  /**
   * Monotonic ULIDs over a millisecond clock and a random source: ids minted by one generator are
   * strictly increasing, even within one millisecond or when the clock goes back.
   */
  public static final class Generator {
    private final LongSupplier millis;
    private final RandomGenerator random;
    private long lastMillis;
    private long lastHigh; // upper 16 of the 80 random bits
    private long lastLow; // lower 64 of the 80 random bits

    public Generator(LongSupplier millis, RandomGenerator random) {
      this.millis = millis;
      this.random = random;
    }

    /** The next id. */
    public synchronized String next() {
      long now = millis.getAsLong();
      if (now <= lastMillis) {
        // Same (or a backwards) millisecond: increment the random part to keep ids monotonic.
        now = lastMillis;
        lastLow++;
        if (lastLow == 0) {
          lastHigh = (lastHigh + 1) & 0xFFFF;
        }
      } else {
        lastMillis = now;
        lastHigh = random.nextInt(1 << 16);
        lastLow = random.nextLong();
      }
      return encode(now, lastHigh, lastLow);
    }
  }

  /** True when {@code s} is a syntactically valid ULID. */
  public static boolean isValid(String s) {
    if (s == null || s.length() != 26 || s.charAt(0) > '7') {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (new String(ALPHABET).indexOf(Character.toUpperCase(s.charAt(i))) < 0) {
        return false;
      }
    }
    return true;
  }

  static String encode(long millis, long high16, long low64) {
    char[] out = new char[26];
    // 48-bit time: 10 chars, 5 bits each (the first char carries 3 bits).
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (millis & 31)];
      millis >>>= 5;
    }
    // 80 random bits: 16 chars.
    long lo = low64;
    long hi = high16;
    for (int i = 25; i >= 10; i--) {
      out[i] = ALPHABET[(int) (lo & 31)];
      lo = (lo >>> 5) | ((hi & 31) << 59);
      hi >>>= 5;
    }
    return new String(out);
  }
}
