package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/** Key rules shared by every backend, so both refuse and filter exactly the same names. */
final class Keys {

  /** The local backend's staging shape {@code name#<digits>} (docs/storage.md, "The temp-name rule"). */
  private static final Pattern TEMP_SEGMENT = Pattern.compile(".*#[0-9]+");

  private static final AtomicLong TEMP_COUNTER = new AtomicLong();

  private Keys() {}

  /** True when the last segment of {@code key} has the temp shape. */
  static boolean isTemp(String key) {
    int slash = key.lastIndexOf('/');
    return TEMP_SEGMENT.matcher(key.substring(slash + 1)).matches();
  }

  /**
   * True when a stored name is one the adapter would address: listings return only such keys, so a
   * listed key can always be passed back. This hides temp residue (a temp-shaped segment anywhere)
   * and, on S3, foreign names no local directory could hold (console "folder" markers ending in
   * {@code /}, {@code a//b}, {@code ..}).
   */
  static boolean addressable(String key) {
    return key != null && !key.isEmpty() && problem(key) == null;
  }

  /**
   * Checks an object key: non-empty, relative, no empty/{@code .}/{@code ..} segment, no backslash,
   * no NUL, and no temp-shaped segment anywhere.
   *
   * @return the key unchanged
   * @throws StorageException of kind {@link StorageException.Kind#PERMANENT} otherwise
   */
  static String object(String operation, String key) {
    if (key == null || key.isEmpty()) {
      throw invalid(operation, key, "empty key");
    }
    return checkSegments(operation, key);
  }

  /**
   * Checks a directory prefix; the empty string is the root. A trailing slash is dropped.
   *
   * @return the prefix without trailing slash
   */
  static String prefix(String operation, String prefix) {
    if (prefix == null) {
      throw invalid(operation, null, "null prefix");
    }
    String p = prefix;
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.isEmpty() ? p : checkSegments(operation, p);
  }

  /** A fresh temp name next to {@code key}: {@code key#<digits>}. */
  static String tempFor(String key) {
    long n = (System.nanoTime() & 0x7fffffffffffL) * 1000 + TEMP_COUNTER.incrementAndGet() % 1000;
    return key + "#" + n + ThreadLocalRandom.current().nextInt(1000, 10000);
  }

  private static String checkSegments(String operation, String key) {
    String problem = problem(key);
    if (problem != null) {
      throw invalid(operation, key, problem);
    }
    return key;
  }

  /** Why a non-empty key is refused, or null when it is fine. */
  private static String problem(String key) {
    if (key.startsWith("/")) {
      return "key must be relative to the graph root";
    }
    if (key.indexOf('\\') >= 0 || key.indexOf('\0') >= 0) {
      return "key contains a backslash or NUL";
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return "key has an empty, '.' or '..' segment";
      }
      if (TEMP_SEGMENT.matcher(segment).matches()) {
        return "temp-shaped names (name#<digits>) are reserved for staging";
      }
    }
    return null;
  }

  private static StorageException invalid(String operation, String key, String why) {
    return new StorageException(StorageException.Kind.PERMANENT, operation, key, why);
  }
}
