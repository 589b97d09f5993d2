package dev.omnigraph.server;

import java.io.IOException;
import java.io.Reader;

/**
 * The content of one JSON string (RFC 8259 section 7, what lies between its quotes), taken one unit
 * at a time: {@link #accept} answers the character a unit stands for, or that it is part of an
 * escape, the closing quote, or not allowed in a string. Units are bytes of UTF-8 or chars: every
 * unit an escape is made of is ASCII, so the grammar is the same for both, and any other unit is
 * content as it is. This is the one escape grammar of {@link IngestEnvelope}: it checks the
 * {@code data} string of a load envelope as the body streams by, and decodes it again as the load
 * reads it ({@link #decoding}), so a 32 MiB string never has to be held whole, as Jackson holds
 * every string token it reads ({@code getText(Writer)} included).
 */
final class JsonStringEscapes {

  /** Part of an escape: nothing to emit yet. */
  static final int PENDING = -1;
  /** An unescaped {@code "}: the string ends here. */
  static final int END = -2;
  /** Not allowed here ({@link #problem}). */
  static final int INVALID = -3;

  /** 0 in content, 1 after a backslash, 2 to 5 while reading the four hex digits of {@code \}{@code u}. */
  private int state;
  private int hex;
  private String problem;

  /** The character {@code unit} stands for, or {@link #PENDING}, {@link #END} or {@link #INVALID}. */
  int accept(int unit) {
    if (state == 0) {
      if (unit == '\\') {
        state = 1;
        return PENDING;
      }
      if (unit == '"') {
        return END;
      }
      return unit < 0x20 ? invalid(String.format("an unescaped control character U+%04X in a string", unit)) : unit;
    }
    if (state == 1) {
      state = 0;
      switch (unit) {
        case '"', '\\', '/':
          return unit;
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case 'u':
          state = 2;
          hex = 0;
          return PENDING;
        default:
          return invalid("an invalid escape in a string");
      }
    }
    // Only ASCII hex digits: Character.digit would take other scripts' digits too.
    int digit = unit >= '0' && unit <= '9' ? unit - '0'
        : unit >= 'a' && unit <= 'f' ? unit - 'a' + 10
        : unit >= 'A' && unit <= 'F' ? unit - 'A' + 10 : -1;
    if (digit < 0) {
      state = 0;
      return invalid("a \\u escape needs four hex digits");
    }
    hex = hex << 4 | digit;
    if (++state == 6) {
      state = 0;
      return hex;
    }
    return PENDING;
  }

  /** Whether an escape is open: the content cannot end here. */
  boolean inEscape() {
    return state != 0;
  }

  /** What the last {@link #INVALID} refused. */
  String problem() {
    return problem;
  }

  private int invalid(String why) {
    problem = why;
    return INVALID;
  }

  /**
   * The characters that {@code content} (a string's content, escapes undecoded, without its quotes)
   * spells. The content must have been accepted whole by a {@link JsonStringEscapes} already: an
   * escape it refuses here is a broken invariant, not the client's mistake.
   */
  static Reader decoding(Reader content) {
    return new Reader() {
      private final JsonStringEscapes escapes = new JsonStringEscapes();
      private final char[] raw = new char[8192];

      @Override
      public int read(char[] buf, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        while (true) {
          // Decoding never lengthens: len raw units give at most len characters.
          int n = content.read(raw, 0, Math.min(len, raw.length));
          if (n < 0) {
            if (escapes.inEscape()) {
              throw new IllegalStateException("a checked JSON string ends inside an escape");
            }
            return -1;
          }
          int out = off;
          for (int i = 0; i < n; i++) {
            int c = escapes.accept(raw[i]);
            if (c >= 0) {
              buf[out++] = (char) c;
            } else if (c != PENDING) {
              throw new IllegalStateException("a checked JSON string holds " + (c == END ? "a quote" : escapes.problem()));
            }
          }
          if (out > off) {
            return out - off;
          }
        }
      }

      @Override
      public void close() throws IOException {
        content.close();
      }
    };
  }
}
