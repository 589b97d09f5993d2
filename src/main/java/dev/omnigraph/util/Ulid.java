package dev.omnigraph.util;

import java.security.SecureRandom;

/**
 * ULIDs (26 Crockford base-32 characters: 48-bit millisecond time, 80 random bits) for commit and
 * operation ids. Ids minted by one process are strictly increasing, even within one millisecond, so
 * lexical order is creation order there.
 */
public final class Ulid {

  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private static long lastMillis;
  private static long lastHigh; // upper 16 of the 80 random bits
  private static long lastLow; // lower 64 of the 80 random bits

  private Ulid() {}

  /** A new ULID. */
  public static synchronized String next() {
    long now = System.currentTimeMillis();
    if (now <= lastMillis) {
      // Same (or a backwards) millisecond: increment the random part to keep ids monotonic.
      now = lastMillis;
      lastLow++;
      if (lastLow == 0) {
        lastHigh = (lastHigh + 1) & 0xFFFF;
      }
    } else {
      lastMillis = now;
      lastHigh = RANDOM.nextInt(1 << 16);
      lastLow = RANDOM.nextLong();
    }
    return encode(now, lastHigh, lastLow);
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
