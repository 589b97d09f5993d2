package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.QueryParseException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@code return} clause may hold besides properties and aggregates (reference
 * docs/user/queries/index.md): a bound variable (its id, column named after it), a parameter, a
 * literal ({@code literal} unaliased), {@code now()}; in plain and aggregating queries, and as order
 * keys by alias.
 */
class ReturnValuesTest {

  @TempDir Path dir;
  private Omnigraph graph;

  @BeforeEach
  void seed() throws Exception {
    graph = PeopleGraph.create(dir,
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":40}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"cy\",\"age\":40}}");
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private ReadOutput run(String query, String params) throws Exception {
    return graph.query(Optional.empty(), Optional.empty(), query, "q",
        params == null ? null : new ObjectMapper().readTree(params));
  }

  @Test
  void aVariableReturnsItsIdAndConstantsRepeatOnEveryRow() throws Exception {
    Instant before = Instant.now();
    ReadOutput out = run("""
        query q($tag: String) {
          match { $p: Person }
          return { $p, $p.name, $tag, "x" as s, 7, 2.5 as f, true as b, date("2024-01-02") as d, [1, 2] as l,
                   now() as at }
          order { $p.name }
        }
        """, "{\"tag\":\"t1\"}");
    assertThat(out.columns()).containsExactly("p", "p.name", "tag", "s", "literal", "f", "b", "d", "l", "at");
    assertThat(out.rows()).hasSize(3);
    Map<String, Object> first = out.rows().get(0);
    assertThat(first.get("p")).isEqualTo("ann");
    assertThat(first.get("p.name")).isEqualTo("ann");
    assertThat(first.get("tag")).isEqualTo("t1");
    assertThat(first.get("s")).isEqualTo("x");
    assertThat(first.get("literal")).isEqualTo(7L);
    assertThat(first.get("f")).isEqualTo(2.5);
    assertThat(first.get("b")).isEqualTo(true);
    assertThat(first.get("d")).isEqualTo("2024-01-02");
    assertThat(first.get("l")).isEqualTo(List.of(1L, 2L));
    // UTC wall-clock time without a zone, as the reference spells a DateTime (RFC 0051).
    Instant at = java.time.LocalDateTime.parse((String) first.get("at")).toInstant(java.time.ZoneOffset.UTC);
    assertThat(at).isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), Instant.now());
    // One instant for the whole run, on every row.
    assertThat(out.rows()).extracting(r -> r.get("at")).containsOnly(first.get("at"));
    assertThat(out.rows()).extracting(r -> r.get("p")).containsExactly("ann", "bob", "cy");
  }

  @Test
  void constantsInAnAggregatingQueryAndOrderByAConstantsAlias() throws Exception {
    ReadOutput out = run("""
        query q() {
          match { $p: Person }
          return { $p.age, count($p) as n, "people" as what }
          order { what, $p.age desc }
        }
        """, null);
    assertThat(out.columns()).containsExactly("p.age", "n", "what");
    assertThat(out.rows()).containsExactly(
        Map.of("p.age", 40, "n", 2L, "what", "people"),
        Map.of("p.age", 30, "n", 1L, "what", "people"));
  }

  @Test
  void whatCannotBeReturnedIsRefusedAtItsPosition() {
    Throwable bareNull = catchThrowable(() -> run("query q() { match { $p: Person } return { null } }", null));
    assertThat(bareNull).isInstanceOf(QueryParseException.class).hasMessageContaining("1:43")
        .hasMessageContaining("a bare null has no type");
    Throwable unbound = catchThrowable(() -> run("query q() { match { $p: Person } return { $x } }", null));
    assertThat(unbound).isInstanceOf(QueryParseException.class).hasMessageContaining("$x is not bound");
    Throwable twice = catchThrowable(() -> run("query q() { match { $p: Person } return { 1, 2 } }", null));
    assertThat(twice).isInstanceOf(QueryParseException.class)
        .hasMessageContaining("return column 'literal' is produced twice");
    Throwable mixedList = catchThrowable(() -> run("query q() { match { $p: Person } return { [1, \"a\"] as l } }",
        null));
    assertThat(mixedList).isInstanceOf(QueryParseException.class).hasMessageContaining("first element is I64");
  }
}
