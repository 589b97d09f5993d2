package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/**
 * {@code @description} and {@code @instruction} on query declarations (reference
 * docs/user/queries/index.md): parsed and kept for catalogs; anything else, or either twice, is a
 * parse error at the annotation.
 */
class QueryAnnotationsTest {

  @Test
  void descriptionAndInstructionAreKeptOnTheDeclaration() {
    QueryFile file = QueryParser.parse("""
        query friends($name: String)
          @description("People who know $name, oldest first")
          @instruction("Use for \\"who knows X\\" questions") {
          match { $p: Person { name: $name } $p knows $f }
          return { $f.name }
        }
        query plain() { match { $p: Person } return { $p.name } }
        """);
    Declaration friends = file.declaration("friends");
    assertThat(friends.description()).hasValue("People who know $name, oldest first");
    assertThat(friends.instruction()).hasValue("Use for \"who knows X\" questions");
    assertThat(file.declaration("plain").description()).isEmpty();
    assertThat(file.declaration("plain").instruction()).isEmpty();
  }

  @Test
  void eitherOrderAndMutationsToo() {
    Declaration add = QueryParser.parse("""
        query add($n: String) @instruction("insert one") @description("adds a person") {
          insert Person { name: $n }
        }
        """).declaration("add");
    assertThat(add.description()).hasValue("adds a person");
    assertThat(add.instruction()).hasValue("insert one");
    assertThat(add.isMutation()).isTrue();
  }

  @Test
  void anUnknownOrRepeatedAnnotationIsRefusedAtItsPosition() {
    QueryParseException unknown = catchThrowableOfType(QueryParseException.class, () -> QueryParser.parse(
        "query q() @deprecated(\"x\") { match { $p: Person } return { $p.name } }"));
    assertThat(unknown.getMessage()).contains("1:11").contains("unknown query annotation @deprecated");
    QueryParseException twice = catchThrowableOfType(QueryParseException.class, () -> QueryParser.parse(
        "query q()\n  @description(\"a\")\n  @description(\"b\") { match { $p: Person } return { $p.name } }"));
    assertThat(twice.getMessage()).contains("3:3").contains("a second @description");
  }
}
