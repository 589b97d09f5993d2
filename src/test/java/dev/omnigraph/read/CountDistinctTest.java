package dev.omnigraph.read;

import static dev.omnigraph.read.PeopleGraph.knows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.QueryParseException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code count(distinct ...)} (issue 46 item 2): distinct bound nodes for a variable, distinct
 * non-null values for a property (1 and 1.0 one value, as comparisons see them), per group; only
 * count takes distinct, and {@code distinct} stays usable as a name.
 */
class CountDistinctTest {

  @TempDir Path dir;
  private Omnigraph graph;

  private static String person(String name, String age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"" + (age == null ? "" : ",\"age\":" + age) + "}}";
  }

  @BeforeEach
  void seed() throws Exception {
    // ann -> bob, ann -> cy, bob -> dan, cy -> dan: dan is reached twice.
    graph = PeopleGraph.create(dir, person("ann", "30"), person("bob", "30"), person("cy", "40"), person("dan", null),
        knows("ann", "bob", null), knows("ann", "cy", null), knows("bob", "dan", null), knows("cy", "dan", null));
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private List<Map<String, Object>> run(String body) {
    return graph.query(Optional.empty(), Optional.empty(), "query q() { " + body + " }", "q", null).rows();
  }

  @Test
  void distinctNodesAndDistinctNonNullValues() {
    assertThat(run("match { $p: Person  $p knows $f } return { count($f) as edges, count(distinct $f) as reached }"))
        .containsExactly(Map.of("edges", 4L, "reached", 3L));
    // Ages 30, 30, 40 and one null: two distinct values; count without distinct counts the three non-null.
    assertThat(run("match { $p: Person } return { count(distinct $p.age) as ages, count($p.age) as known }"))
        .containsExactly(Map.of("ages", 2L, "known", 3L));
    // Per group: how many distinct people each person's friends know (cy's and bob's friend is dan).
    assertThat(run("match { $p: Person  $p knows $f  $f knows $g } return { $p.name, count(distinct $g) as n }"
        + " order { $p.name }")).containsExactly(Map.of("p.name", "ann", "n", 1L));
    // Ordered by it, and distinct as an alias.
    assertThat(run("match { $p: Person  $p knows $f } return { $f.name, count(distinct $p) as distinct }"
        + " order { distinct desc, $f.name } limit 1")).containsExactly(Map.of("f.name", "dan", "distinct", 2L));
  }

  @Test
  void onlyCountTakesDistinct() {
    assertThat(catchThrowable(() -> run("match { $p: Person } return { sum(distinct $p.age) }")))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("sum(distinct ...): distinct is only for count");
  }
}
