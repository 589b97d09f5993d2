package dev.omnigraph.syntax;

/** What both languages do to source text before lexing it. */
public final class SourceText {

  private SourceText() {}

  /**
   * The text without a leading UTF-8 byte-order mark: it is invisible in editors, and counting it as a
   * column would shift every position reported on line 1.
   */
  public static String withoutBom(String source) {
    return source.startsWith("\uFEFF") ? source.substring(1) : source;
  }
}
