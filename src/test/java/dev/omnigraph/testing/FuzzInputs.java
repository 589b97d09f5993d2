package dev.omnigraph.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Structured inputs for the front-end fuzz tests: valid sample files with a few random edits
 * (delete, duplicate, swap, truncate, insert a token of the language or an odd character), random
 * token soups, arbitrary text and bytes, and bracket nesting, each drawn from the caller's seeded
 * {@link SplittableRandom} (the case loop is {@link Fuzz#forAll}). Each property bounds its own case
 * count so the default suite stays within seconds.
 */
public final class FuzzInputs {

  private FuzzInputs() {}

  /** Characters that break naive text handling: NUL, controls, BOM, RTL override, lone and paired surrogates, astral. */
  public static final List<String> ODD = List.of("\u0000", "\u0001", "\u001b", "\u007f", "\ufeff", "\u202e",
      "\u2028", "\ud800", "\udfff", "\ud83d\ude00", "\ud835\udd18", "\u00e9", "e\u0301", "\uffff", "\ufffd", "\t",
      "\r", "\r\n", "\n", " ", "\\", "\\u", "\\ud800", "\\u0000", "\"", "'", "`", "${", "*/", "/*", "//", "#");

  /** The sample files of {@code src/test/resources/graphs} ending in {@code suffix}. */
  public static List<String> samples(String suffix) {
    URL dir = FuzzInputs.class.getClassLoader().getResource("graphs");
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      List<String> out = new ArrayList<>();
      for (Path p : files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList()) {
        out.add(Files.readString(p, StandardCharsets.UTF_8));
      }
      if (out.isEmpty()) {
        throw new IllegalStateException("no graphs/*" + suffix + " samples");
      }
      return out;
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One classpath resource as text. */
  public static String resource(String name) {
    try (InputStream in = FuzzInputs.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One edit of a text; positions are fractions of the current length so they always apply. */
  public record Edit(int kind, double at, double to, String token) {
    String apply(String s) {
      int n = s.length();
      int a = (int) (at * n);
      int b = Math.min(n, a + (int) (to * Math.min(n, 64)));
      switch (kind) {
        case 0:
          return s.substring(0, a) + s.substring(b); // delete a range
        case 1:
          return s.substring(0, b) + s.substring(a, b) + s.substring(b); // duplicate a range
        case 2:
          return s.substring(0, a); // truncate
        case 3: {
          int c = (int) (to * n);
          int lo = Math.min(a, c);
          int hi = Math.max(a, c);
          int mid = lo + (hi - lo) / 2;
          return s.substring(0, lo) + s.substring(mid, hi) + s.substring(lo, mid) + s.substring(hi); // swap halves
        }
        case 4:
          return s.substring(0, a) + token + s.substring(b); // replace a range with a token
        default:
          return s.substring(0, a) + token + s.substring(a); // insert a token
      }
    }
  }

  /** One element of {@code items}. */
  public static <T> T pick(SplittableRandom r, List<T> items) {
    return items.get(r.nextInt(items.size()));
  }

  /**
   * A token for an edit: one of the language's {@code tokens}, an {@link #ODD} character, a short
   * arbitrary string, or a very short one of any chars (lone surrogates included).
   */
  public static String token(SplittableRandom r, List<String> tokens) {
    return switch (r.nextInt(4)) {
      case 0 -> pick(r, tokens);
      case 1 -> pick(r, ODD);
      case 2 -> text(r, 8);
      default -> anyChars(r, 4);
    };
  }

  /** A valid sample with 1..{@code maxEdits} edits drawing tokens from {@code tokens} and {@link #ODD}. */
  public static String mutated(SplittableRandom r, List<String> samples, List<String> tokens, int maxEdits) {
    String out = pick(r, samples);
    int edits = 1 + r.nextInt(maxEdits);
    for (int i = 0; i < edits; i++) {
      out = new Edit(r.nextInt(7), r.nextDouble(), r.nextDouble(), token(r, tokens)).apply(out);
    }
    return out;
  }

  /** Up to {@code maxTokens} of the language's tokens (three in four) and odd characters, space separated or not. */
  public static String tokenSoup(SplittableRandom r, List<String> tokens, int maxTokens) {
    int n = r.nextInt(maxTokens + 1);
    String separator = pick(r, List.of(" ", "", "\n"));
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : separator).append(r.nextInt(4) < 3 ? pick(r, tokens) : pick(r, ODD));
    }
    return b.toString();
  }

  /**
   * Arbitrary text of up to {@code maxLength} chars, short lengths and the empty string likely:
   * printable ASCII, any UTF-16 unit (so lone surrogates and noncharacters), astral pairs and
   * {@link #ODD} characters mixed.
   */
  public static String text(SplittableRandom r, int maxLength) {
    int length = length(r, maxLength);
    StringBuilder b = new StringBuilder(length);
    while (b.length() < length) {
      int kind = r.nextInt(20);
      if (kind < 10) {
        b.append((char) r.nextInt(0x20, 0x7f));
      } else if (kind < 14) {
        b.append((char) r.nextInt(0x10000));
      } else if (kind < 16) {
        b.appendCodePoint(r.nextInt(0x10000, 0x110000));
      } else {
        b.append(pick(r, ODD));
      }
    }
    return b.toString();
  }

  /** Up to {@code maxLength} chars, each any UTF-16 unit. */
  public static String anyChars(SplittableRandom r, int maxLength) {
    char[] cs = new char[r.nextInt(maxLength + 1)];
    for (int i = 0; i < cs.length; i++) {
      cs[i] = (char) r.nextInt(0x10000);
    }
    return new String(cs);
  }

  /** Up to {@code maxLength} arbitrary bytes, short lengths and the empty array likely. */
  public static byte[] bytes(SplittableRandom r, int maxLength) {
    byte[] out = new byte[length(r, maxLength)];
    r.nextBytes(out);
    return out;
  }

  /** One {@link #ODD} character, or up to six of them run together. */
  public static String odd(SplittableRandom r) {
    if (r.nextBoolean()) {
      return pick(r, ODD);
    }
    StringBuilder b = new StringBuilder();
    for (int i = r.nextInt(7); i > 0; i--) {
      b.append(pick(r, ODD));
    }
    return b.toString();
  }

  /**
   * A nesting depth from 1 to {@code max}: the limit's neighbourhood ({@code limit - 2 ..
   * limit + 2}) and the extremes one time in two, else uniform, so a few cases cover both sides
   * of the limit and the deep end.
   */
  public static int depth(SplittableRandom r, int limit, int max) {
    if (r.nextBoolean()) {
      return pick(r, List.of(1, limit - 2, limit - 1, limit, limit + 1, limit + 2, max));
    }
    return r.nextInt(1, max + 1);
  }

  /** Lengths skewed short: a quarter up to 4, a quarter up to 16, the rest up to {@code max}. */
  private static int length(SplittableRandom r, int max) {
    int bound = switch (r.nextInt(4)) {
      case 0 -> Math.min(max, 4);
      case 1 -> Math.min(max, 16);
      default -> max;
    };
    return r.nextInt(bound + 1);
  }

  /** JSON and NDJSON tokens over the sample schemas' names, odd numbers and escapes among them. */
  public static final List<String> NDJSON_TOKENS = List.of("{", "}", "[", "]", ":", ",", "\"", "null", "true",
      "false", "0", "-0", "1e309", "-1e309", "1.5", "9223372036854775808", "-9223372036854775809",
      "99999999999999999999999999", "2147483648", "\"type\"", "\"edge\"", "\"data\"", "\"from\"", "\"to\"",
      "\"Person\"", "\"Company\"", "\"Knows\"", "\"WorksAt\"", "\"name\"", "\"age\"", "\"score\"", "\"tags\"",
      "\"since\"", "\"founded\"", "\"2024-02-30\"", "\"1999-12-31\"", "\"\\ud800\"", "\"\\u0000\"",
      "\"\\uDFFF\\uD800\"", "\"x\"", "\"\"", "NaN", "Infinity", "'x'", "/* */", "{}", "[]", "\n", "\r\n");

  /** Up to eight NDJSON lines: token soups, node lines with odd types and names, edge lines with odd endpoints. */
  public static String ndjsonLines(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    for (int n = r.nextInt(9), i = 0; i < n; i++) {
      b.append(i == 0 ? "" : "\n").append(switch (r.nextInt(3)) {
        case 0 -> tokenSoup(r, NDJSON_TOKENS, 20);
        case 1 -> "{\"type\":\"" + pick(r, List.of("Person", "Company", "person", "Nope", "", "\u00e9", "\ud800"))
            + "\",\"data\":{\"name\":" + tokenSoup(r, NDJSON_TOKENS, 12) + "}}";
        default -> "{\"edge\":\"" + pick(r, List.of("Knows", "knows", "WorksAt", "Nope")) + "\",\"from\":"
            + pick(r, NDJSON_TOKENS) + ",\"to\":" + pick(r, NDJSON_TOKENS) + "}";
      });
    }
    return b.toString();
  }

  /**
   * Up to six byte edits of {@code base}: insert or replace a byte, or insert a truncated four-byte
   * sequence, so the result is often not UTF-8.
   */
  public static byte[] byteEdited(SplittableRandom r, byte[] base) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] cur = base;
    for (int edits = 1 + r.nextInt(6); edits > 0; edits--) {
      int at = r.nextInt(cur.length + 1);
      int b = r.nextInt(256);
      out.reset();
      out.write(cur, 0, at);
      switch (r.nextInt(3)) {
        case 0 -> { // insert a byte
          out.write(b);
          out.write(cur, at, cur.length - at);
        }
        case 1 -> { // replace a byte
          out.write(b);
          if (at < cur.length) {
            out.write(cur, at + 1, cur.length - at - 1);
          }
        }
        default -> { // a truncated four-byte sequence
          out.write(new byte[] {(byte) 0xF0, (byte) 0x9F}, 0, 1 + (b & 1));
          out.write(cur, at, cur.length - at);
        }
      }
      cur = out.toByteArray();
    }
    return cur;
  }

  /** {@code open} repeated {@code depth} times, then {@code inner}, then {@code close} as often. */
  public static String nested(String open, String inner, String close, int depth) {
    return open.repeat(depth) + inner + close.repeat(depth);
  }
}
