package dev.omnigraph.util;

/**
 * Decodes the double-quoted string literals of both grammars ({@code .pg} and {@code .gq}), which
 * share one escape set: {@code \" \\ \n \r \t}. Anything else is refused rather than guessed, at the
 * position of its backslash, so both languages report the same error at the same place.
 */
public final class QuotedStrings {

  /** Builds the grammar's own positioned error. */
  @FunctionalInterface
  public interface ErrorAt {
    RuntimeException at(int line, int column, String message);
  }

  private QuotedStrings() {}

  /**
   * @param raw the token text, quotes included
   * @param line the token's 1-based line
   * @param column the 1-based column of {@code raw[1]}, just after the opening quote
   */
  public static String unquote(String raw, int line, int column, ErrorAt error) {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 1; i < raw.length() - 1; i++) {
      char ch = raw.charAt(i);
      if (ch == '\\') {
        char next = raw.charAt(i + 1);
        switch (next) {
          case '"' -> out.append('"');
          case '\\' -> out.append('\\');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          default -> throw error.at(line, column,
              "unsupported escape sequence '\\" + next + "' in string (use \\\" \\\\ \\n \\r or \\t)");
        }
        i++;
        column += 2;
        continue;
      }
      if (Character.isSurrogate(ch)) {
        // A lone surrogate has no UTF-8 form: Lance and Arrow cannot hold it, and it would surface
        // later as an internal error far from the text that carried it.
        boolean paired = Character.isHighSurrogate(ch) && i + 1 < raw.length() - 1
            && Character.isLowSurrogate(raw.charAt(i + 1));
        if (!paired) {
          throw error.at(line, column, String.format("unpaired surrogate U+%04X in string", (int) ch));
        }
        out.append(ch).append(raw.charAt(i + 1));
        i++;
        column++; // one character, one column
        continue;
      }
      out.append(ch);
      if (ch == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return out.toString();
  }
}
