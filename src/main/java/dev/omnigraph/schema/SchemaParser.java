package dev.omnigraph.schema;

import java.util.Objects;

/**
 * Entry point of the schema language: {@code .pg} text to a typechecked {@link Catalog}.
 * The language is described in {@code docs/schema-language.md}.
 */
public final class SchemaParser {

  /**
   * How deep brackets ({@code { [ (} counted together) may nest. A real schema uses three (a body,
   * a list type, an annotation's arguments); the limit exists so that no input can overflow the
   * parser's stack.
   */
  public static final int MAX_NESTING = 64;

  private SchemaParser() {}

  /**
   * Parses and typechecks a schema.
   *
   * @param source the {@code .pg} text
   * @return the catalog, in canonical order
   * @throws SchemaParseException on the first syntax or semantic error, with its line and column, including
   *     brackets nested deeper than {@link #MAX_NESTING}
   */
  public static Catalog parse(String source) {
    Objects.requireNonNull(source, "source");
    return SchemaChecker.check(SyntaxReader.read(source));
  }
}
