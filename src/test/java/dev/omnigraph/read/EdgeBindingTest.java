package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static dev.omnigraph.read.PeopleGraph.knows;
import static dev.omnigraph.read.PeopleGraph.person;

import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.QueryParseException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edge binding {@code $a $w:edge $b} (reference docs/user/queries/index.md, "Edge binding"): the
 * matched edge's declared properties in filters, projections and order; one row per edge, parallel
 * edges apart; with the undirected form and inside {@code not}; and the refusals (several hops, a
 * name already bound, a bare edge variable).
 */
class EdgeBindingTest {

  @TempDir Path dir;
  private Omnigraph graph;

  @BeforeEach
  void seed() throws Exception {
    // ann -> bob twice (parallel, 2001 and 2010), bob -> cy (2020), cy -> ann (no year).
    graph = PeopleGraph.create(dir, person("ann"), person("bob"), person("cy"),
        knows("ann", "bob", "2001"), knows("ann", "bob", "2010"), knows("bob", "cy", "2020"), knows("cy", "ann", null));
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private ReadOutput run(String body) {
    return graph.query(Optional.empty(), Optional.empty(), "query q() { " + body + " }", "q", null);
  }

  @Test
  void eachEdgeIsARowWithItsProperties() {
    ReadOutput out = run("match { $a: Person { name: \"ann\" } $a $w:knows $b } return { $b.name, $w.since }"
        + " order { $w.since }");
    assertThat(out.rows()).containsExactly(Map.of("b.name", "bob", "w.since", 2001L),
        Map.of("b.name", "bob", "w.since", 2010L));
    // Unbound, the same traversal is a set of pairs: bob once.
    assertThat(run("match { $a: Person { name: \"ann\" } $a knows $b } return { $b.name }").rows()).hasSize(1);
  }

  @Test
  void edgePropertiesFilterAndOrderAndWorkBothWays() {
    ReadOutput recent = run("match { $a $w:knows $b  $w.since >= 2010 } return { $a.name, $b.name, $w.since as y }"
        + " order { y desc }");
    assertThat(recent.rows()).containsExactly(Map.of("a.name", "bob", "b.name", "cy", "y", 2020L),
        Map.of("a.name", "ann", "b.name", "bob", "y", 2010L));
    // From the bound destination, and undirected: bob's edges either way, one row each.
    ReadOutput intoBob = run("match { $b: Person { name: \"bob\" } $a $w:knows $b } return { $a.name, $w.since }"
        + " order { $w.since }");
    assertThat(intoBob.rows()).extracting(r -> r.get("w.since")).containsExactly(2001L, 2010L);
    ReadOutput aroundBob = run("match { $b: Person { name: \"bob\" } $b $w:<knows> $o } return { $o.name, $w.since }"
        + " order { $w.since }");
    assertThat(aroundBob.rows()).extracting(r -> r.get("o.name") + "/" + r.get("w.since"))
        .containsExactly("ann/2001", "ann/2010", "cy/2020");
    // Nulls first ascending, and a filter on an edge property inside not { }.
    ReadOutput noRecent = run("match { $a: Person  not { $a $w:knows $b  $w.since >= 2015 } } return { $a.name }"
        + " order { $a.name }");
    assertThat(noRecent.rows()).extracting(r -> r.get("a.name")).containsExactly("ann", "cy");
  }

  @Test
  void theRefusals() {
    assertThat(catchThrowable(() -> run("match { $a $w:knows{1,2} $b } return { $b.name }")))
        .isInstanceOf(QueryParseException.class).hasMessageContaining("$w binds one edge, but {1,2}");
    assertThat(catchThrowable(() -> run("match { $w: Person $a $w:knows $b } return { $b.name }")))
        .isInstanceOf(QueryParseException.class).hasMessageContaining("$w is already bound");
    assertThat(catchThrowable(() -> run("match { $a $w:knows $b } return { $w }")))
        .isInstanceOf(QueryParseException.class).hasMessageContaining("$w is a Knows edge; return one of its properties");
    assertThat(catchThrowable(() -> run("match { $a $w:knows $b } return { $w.weight }")))
        .isInstanceOf(QueryParseException.class).hasMessageContaining("$w is a Knows edge, which has no property 'weight'");
  }

}
