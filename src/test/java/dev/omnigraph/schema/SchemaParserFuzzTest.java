package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.testing.FuzzInputs;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Fuzzes the {@code .pg} front end: every input either yields a catalog or a
 * {@link SchemaParseException} (line and column); no other exception, no crash. Inputs are the
 * sample schemas with random edits, token soups and deep list-type nesting.
 */
class SchemaParserFuzzTest {

  static final List<String> TOKENS = List.of("node", "edge", "interface", "implements", "enum", "{", "}", "(", ")",
      "[", "]", ":", ";", ",", "?", "->", "..", "@key", "@unique", "@index", "@range", "@check", "@card",
      "@description", "@embed", "String", "I32", "I64", "U32", "U64", "F32", "F64", "Bool", "Date", "DateTime",
      "Blob", "Vector(3)", "Person", "Company", "Knows", "name", "age", "0", "-1", "150", "1.5", "1e309",
      "99999999999999999999999", "\"^[^@]+@[^@]+$\"", "\"(\"", "\"", "true", "null");

  static void parsesOrRefuses(String source) {
    try {
      assertThat(SchemaParser.parse(source)).isNotNull();
    } catch (SchemaParseException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> mutatedSamples() {
    return FuzzInputs.mutated(FuzzInputs.samples(".pg"), TOKENS, 4);
  }

  @Provide
  Arbitrary<String> soups() {
    return FuzzInputs.tokenSoup(TOKENS, 60);
  }

  @Property(tries = 1500)
  void mutatedSampleSchemasParseOrFailTyped(@ForAll("mutatedSamples") String source) {
    parsesOrRefuses(source);
  }

  @Property(tries = 1000)
  void tokenSoupsParseOrFailTyped(@ForAll("soups") String source) {
    parsesOrRefuses(source);
  }

  @Property(tries = 300)
  void arbitraryTextParsesOrFailsTyped(@ForAll String source) {
    parsesOrRefuses(source);
  }

  /**
   * Bounded below what the parser survives today: ~3,000 nested {@code [} in a property type make
   * {@link SchemaParser#parse} throw {@link StackOverflowError} (issue 12, item 1: no nesting limit
   * yet); 1,000 is refused typed. Raise this once the limit exists.
   */
  @Property(tries = 40)
  void nestedListTypesParseOrFailTyped(@ForAll @IntRange(min = 1, max = 1000) int depth) {
    parsesOrRefuses("node Person {\n  name: String @key\n  tags: " + FuzzInputs.nested("[", "String", "]", depth)
        + "?\n}\n");
    parsesOrRefuses("node Person {\n  name: String @key\n  @range(" + FuzzInputs.nested("(", "age", ")", depth)
        + ", 0..1)\n}\n");
  }

  @Property(tries = 200)
  void oddCharactersInNamesAndStringsParseOrFailTyped(@ForAll("odd") String odd) {
    parsesOrRefuses("node P" + odd + " {\n  name: String @key\n}\n");
    parsesOrRefuses("node P {\n  name: String @key @description(\"" + odd + "\")\n}\n");
    parsesOrRefuses("node P {\n  email: String\n  @check(email, \"" + odd + "\")\n}\n");
  }

  @Provide
  Arbitrary<String> odd() {
    return Arbitraries.oneOf(Arbitraries.of(FuzzInputs.ODD),
        Arbitraries.of(FuzzInputs.ODD).list().ofMaxSize(6).map(l -> String.join("", l)));
  }
}
