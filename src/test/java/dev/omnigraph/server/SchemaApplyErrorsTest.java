package dev.omnigraph.server;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.SchemaApplyBlocked;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.api.UnsupportedSchemaChange;
import dev.omnigraph.engine.StoredQueries;
import dev.omnigraph.write.ConstraintViolation;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How {@code POST /schema/apply}'s refusals are answered, by type through the one table (no engine
 * needed), and the stored-query check that runs before the engine is called.
 */
class SchemaApplyErrorsTest {

  private static final String PEOPLE = resource("graphs/people.pg");

  @Test
  void anUnsupportedChangeIs400NamingTheEntityAndOtherBranchesAre409() {
    Response unsupported = ErrorMapper.response(new UnsupportedSchemaChange(List.of(
        new SchemaStep.UnsupportedChange("node:Company.founded", "changing the type is not supported"),
        new SchemaStep.UnsupportedChange("edge:Knows", "changing endpoints is not supported"))));
    assertThat(unsupported.getStatus()).isEqualTo(400);
    ErrorOutput body = (ErrorOutput) unsupported.getEntity();
    assertThat(body.code()).isEqualTo("bad_request");
    assertThat(body.error()).contains("node:Company.founded").contains("1 more unsupported change");

    Response blocked = ErrorMapper.response(new SchemaApplyBlocked(List.of("feature", "review")));
    assertThat(blocked.getStatus()).isEqualTo(409);
    assertThat(((ErrorOutput) blocked.getEntity()).code()).isEqualTo("conflict");
    assertThat(((ErrorOutput) blocked.getEntity()).error()).contains("feature, review")
        .contains("merge or delete them first");

    Response violated = ErrorMapper.response(
        new ConstraintViolation(TableKey.node("Person"), "@range(age, 0..150)", "ann", "age 200 is above 150"));
    assertThat(violated.getStatus()).isEqualTo(400);
    assertThat(((ErrorOutput) violated.getEntity()).error()).contains("ann");
  }

  private static StoredQueries stored(String source) {
    return StoredQueries.of(List.of(new StoredQueries.Source("people.gq", source)));
  }

  @Test
  void aDesiredSchemaThatBreaksAStoredQueryIsRefusedNamingIt() {
    StoredQueries queries = stored("""
        query ages() { match { $p: Person } return { $p.name, $p.age } }
        query names() { match { $p: Person } return { $p.name } }
        query set_age($name: String, $age: I32?) { update Person set { age: $age } where name = $name }
        """);
    String renamed = PEOPLE.replace("age: I32?", "years: I32? @rename_from(\"age\")")
        .replace("@range(age,", "@range(years,");
    assertThatThrownBy(() -> queries.checkSchema("g", PEOPLE, renamed))
        .isInstanceOf(InvalidRequest.class)
        .hasMessageStartingWith("schema apply refused, nothing was changed: graph 'g': 2 stored queries failed the"
            + " schema check:\n  query 'ages': ")
        .hasMessageContaining("\n  query 'set_age': ")
        .hasMessageNotContaining("'names'");
  }

  @Test
  void aQueryAlreadyBrokenOrUntouchedDoesNotBlockAnApply() {
    // D₂ (insert and delete in one mutation) fails on every schema: not a breakage the apply causes.
    StoredQueries queries = stored("""
        query mixed($name: String) {
          insert Person { name: $name }
          delete Person where name = $name
        }
        query names() { match { $p: Person } return { $p.name } }
        """);
    queries.checkSchema("g", PEOPLE, PEOPLE + "\nnode City { name: String @key }\n");
    StoredQueries.none().checkSchema("g", PEOPLE, "not even a schema");
  }

  @Test
  void aDesiredSchemaThatDoesNotParseIsTheParseErrorAtItsPosition() {
    assertThatThrownBy(() -> (stored("query names() { match { $p: Person }"
        + " return { $p.name } }")).checkSchema("g", PEOPLE, "node Person {\n  name: Strin @key\n}\n"))
        .isInstanceOf(dev.omnigraph.schema.SchemaParseException.class)
        .hasMessageContaining("2:");
  }

  private static String resource(String name) {
    try (InputStream in = SchemaApplyErrorsTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
