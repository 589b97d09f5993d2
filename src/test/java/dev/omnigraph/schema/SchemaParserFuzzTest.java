package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.testing.Fuzz;
import dev.omnigraph.testing.FuzzInputs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the {@code .pg} front end: every input either yields a catalog or a
 * {@link SchemaParseException} positioned inside the input (line and column, 1-based); no other
 * exception, no crash. Inputs are the sample schemas with random edits, token soups, arbitrary text,
 * odd characters in names and strings, and list-type nesting on both sides of the nesting limit.
 * Seeded case loops ({@link Fuzz}); {@code -Domnigraph.fuzz.seed} and {@code -Domnigraph.fuzz.cases}
 * vary them.
 */
class SchemaParserFuzzTest {

  static final List<String> TOKENS = List.of("node", "edge", "interface", "implements", "enum", "{", "}", "(", ")",
      "[", "]", ":", ";", ",", "?", "->", "..", "@key", "@unique", "@index", "@range", "@check", "@card",
      "@description", "@embed", "String", "I32", "I64", "U32", "U64", "F32", "F64", "Bool", "Date", "DateTime",
      "Blob", "Vector(3)", "Person", "Company", "Knows", "name", "age", "0", "-1", "150", "1.5", "1e309",
      "99999999999999999999999", "\"^[^@]+@[^@]+$\"", "\"(\"", "\"", "true", "null");

  private static final List<String> SAMPLES = FuzzInputs.samples(".pg");

  /** Parses {@code source}; a refusal must be typed and point at a line and column of the source. */
  static void parsesOrRefuses(String source) {
    refusal(source);
  }

  /** The refusal of {@code source}, or null when it parses. */
  static SchemaParseException refusal(String source) {
    try {
      assertThat(SchemaParser.parse(source)).isNotNull();
      return null;
    } catch (SchemaParseException e) {
      assertThat(e.reason()).isNotBlank();
      assertThat(e.line()).as("line of %s", e.getMessage()).isBetween(1, lines(source));
      assertThat(e.column()).as("column of %s", e.getMessage()).isPositive();
      assertThat(e.getMessage()).startsWith(e.line() + ":" + e.column() + ": ");
      return e;
    }
  }

  /** Lines as the lexer counts them: one more than the line feeds. */
  static int lines(String source) {
    return (int) source.chars().filter(c -> c == '\n').count() + 1;
  }

  @Test
  void mutatedSampleSchemasParseOrFailTyped() {
    Fuzz.forAll("pg.mutated", 1500, r -> FuzzInputs.mutated(r, SAMPLES, TOKENS, 4), Fuzz::literal,
        SchemaParserFuzzTest::parsesOrRefuses);
  }

  @Test
  void tokenSoupsParseOrFailTyped() {
    Fuzz.forAll("pg.soup", 1000, r -> FuzzInputs.tokenSoup(r, TOKENS, 60), Fuzz::literal,
        SchemaParserFuzzTest::parsesOrRefuses);
  }

  @Test
  void arbitraryTextParsesOrFailsTyped() {
    Fuzz.forAll("pg.text", 300, r -> FuzzInputs.text(r, 256), Fuzz::literal, SchemaParserFuzzTest::parsesOrRefuses);
  }

  /**
   * Depths up to 20,000, the limit's neighbourhood always among them: a list type nested past
   * {@link SchemaParser#MAX_NESTING} brackets (with the node's brace) is refused on its own line for
   * its depth, one within it never for its depth, and neither is a {@link StackOverflowError} (about
   * 3,000 overflowed before the limit).
   */
  @Test
  void nestedListTypesParseOrFailTyped() {
    Fuzz.forAll("pg.nested", 40, r -> FuzzInputs.depth(r, SchemaParser.MAX_NESTING, 20_000), d -> "depth " + d,
        depth -> {
          SchemaParseException refused = refusal("node Person {\n  name: String @key\n  tags: "
              + FuzzInputs.nested("[", "String", "]", depth) + "?\n}\n");
          if (depth + 1 > SchemaParser.MAX_NESTING) {
            assertThat(refused).as("refusal at depth %d", depth).isNotNull();
            assertThat(refused.line()).isEqualTo(3);
            assertThat(refused.reason()).contains("nests deeper than " + SchemaParser.MAX_NESTING);
          } else if (refused != null) {
            assertThat(refused.reason()).doesNotContain("nests deeper");
          }
          parsesOrRefuses("node Person {\n  name: String @key\n  @range("
              + FuzzInputs.nested("(", "age", ")", depth) + ", 0..1)\n}\n");
        });
  }

  @Test
  void oddCharactersInNamesAndStringsParseOrFailTyped() {
    Fuzz.forAll("pg.odd", 200, FuzzInputs::odd, Fuzz::literal, odd -> {
      parsesOrRefuses("node P" + odd + " {\n  name: String @key\n}\n");
      parsesOrRefuses("node P {\n  name: String @key @description(\"" + odd + "\")\n}\n");
      parsesOrRefuses("node P {\n  email: String\n  @check(email, \"" + odd + "\")\n}\n");
    });
  }
}
