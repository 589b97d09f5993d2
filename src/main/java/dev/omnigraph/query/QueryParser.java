package dev.omnigraph.query;

import java.util.Objects;

/**
 * Entry point of the query language: {@code .gq} text to a {@link QueryFile} of declarations. Parsing
 * needs no schema; {@link QueryChecker} types a declaration against one. The language is described in
 * {@code docs/query-language.md}.
 */
public final class QueryParser {

  /**
   * The deepest bracket nesting (braces, square brackets and parentheses counted together) a
   * {@code .gq} text may have. Real queries need about five (declaration, match, a {@code not} block, a
   * binding's property braces, a list literal); the limit keeps the recursive descent of parser,
   * checker and executor far from the thread stack's end.
   */
  public static final int MAX_NESTING = 64;

  private QueryParser() {}

  /**
   * Parses every declaration of a {@code .gq} file.
   *
   * <p>Besides syntax this rejects what is wrong whatever the schema: duplicate query or parameter
   * names, unknown parameter types, bad string escapes, and a mutation that mixes insert/update with
   * delete (the D₂ rule), and brackets nested deeper than {@link #MAX_NESTING}.
   *
   * @param source the {@code .gq} text
   * @return the declarations, in file order
   * @throws QueryParseException on the first error, with its line and column
   */
  public static QueryFile parse(String source) {
    Objects.requireNonNull(source, "source");
    return new QueryFile(AstBuilder.read(source).stream().map(Declaration::new).toList());
  }
}
