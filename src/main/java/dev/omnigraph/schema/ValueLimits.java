package dev.omnigraph.schema;

import java.util.Collection;

/**
 * The length limits on what a write stores (docs/write-path.md, "Value limits"), in UTF-8 bytes. An
 * id or a {@code @key} tuple is at most {@link #MAX_ID_BYTES}; a string value, each element of a
 * string list included, at most {@link #MAX_STRING_BYTES}. Ids travel in every lookup filter, edge
 * endpoint and conflict report, and a value in every staged batch; without a bound, one 3 MB key
 * was committed and then repeated in each of them. Writers check before anything is staged, so a
 * value over a limit is a 400 and never a commit.
 */
public final class ValueLimits {

  /** An id: a key tuple's spelling ({@link KeyIds}), an edge endpoint. */
  public static final int MAX_ID_BYTES = 4 * 1024;
  /** One string value: the JSON body limit, so any stored string can be sent in a JSON body. */
  public static final int MAX_STRING_BYTES = 1024 * 1024;

  private ValueLimits() {}

  /** Whether {@code s} is over {@code limit} UTF-8 bytes; counted without encoding, stopping past the limit. */
  public static boolean over(CharSequence s, int limit) {
    return s.length() > limit || utf8Length(s, limit) > limit;
  }

  /**
   * Why {@code value} (a string, or a list of them) cannot be stored: a string over
   * {@link #MAX_STRING_BYTES}; null when it can.
   */
  public static String stringTooLong(Object value) {
    if (value instanceof CharSequence s && over(s, MAX_STRING_BYTES)) {
      return "a string value is at most " + MAX_STRING_BYTES + " bytes (UTF-8), got "
          + utf8Length(s, Integer.MAX_VALUE) + " bytes";
    }
    if (value instanceof Collection<?> list) {
      for (Object element : list) {
        String m = stringTooLong(element);
        if (m != null) {
          return m;
        }
      }
    }
    return null;
  }

  /** The message for an id over {@link #MAX_ID_BYTES}, or null when it is within it. */
  public static String idTooLong(String what, String id) {
    if (!over(id, MAX_ID_BYTES)) {
      return null;
    }
    return what + " is at most " + MAX_ID_BYTES + " bytes (UTF-8), got " + utf8Length(id, Integer.MAX_VALUE)
        + " bytes";
  }

  /** UTF-8 bytes of {@code s}, counted up to a little past {@code stopAfter}. */
  private static long utf8Length(CharSequence s, int stopAfter) {
    long n = 0;
    for (int i = 0; i < s.length() && n <= stopAfter; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
