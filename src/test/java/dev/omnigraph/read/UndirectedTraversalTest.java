package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static dev.omnigraph.read.PeopleGraph.knows;
import static dev.omnigraph.read.PeopleGraph.person;

import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.QueryParseException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code $a <edge> $b} (reference docs/user/queries/index.md, "Undirected traversal"): the edge in
 * either direction with set semantics, with hop bounds and inside {@code not}, and only on an edge
 * whose ends are one node type.
 */
class UndirectedTraversalTest {

  @TempDir Path dir;
  private Omnigraph graph;

  @BeforeEach
  void seed() throws Exception {
    // ann <-> bob (both ways), bob -> cy, dan alone.
    graph = PeopleGraph.create(dir, person("ann"), person("bob"), person("cy"), person("dan"),
        knows("ann", "bob", null), knows("bob", "ann", null), knows("bob", "cy", null));
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private List<Object> names(String match) {
    ReadOutput out = graph.query(Optional.empty(), Optional.empty(),
        "query q() { match { " + match + " } return { $f.name } order { $f.name } }", "q", null);
    return out.rows().stream().map(r -> r.get("f.name")).toList();
  }

  @Test
  void eitherDirectionOnceEach() {
    assertThat(names("$p: Person { name: \"bob\" } $p <knows> $f")).containsExactly("ann", "cy");
    assertThat(names("$p: Person { name: \"cy\" } $p <knows> $f")).containsExactly("bob");
    assertThat(names("$p: Person { name: \"cy\" } $p knows $f")).isEmpty();
    // The destination bound first: the traversal runs from whichever end is bound.
    assertThat(names("$f: Person $p: Person { name: \"cy\" } $f <knows> $p")).containsExactly("bob");
    // ann and bob are joined both ways: one row, not two.
    assertThat(names("$p: Person { name: \"ann\" } $p <knows> $f")).containsExactly("bob");
  }

  @Test
  void hopBoundsAndNegationCompose() {
    assertThat(names("$p: Person { name: \"cy\" } $p <knows>{1,2} $f")).containsExactly("ann", "bob");
    assertThat(names("$p: Person { name: \"cy\" } $p <knows>{2,2} $f")).containsExactly("ann");
    assertThat(names("$f: Person not { $f <knows> $x }")).containsExactly("dan");
  }

  @Test
  void anEdgeBetweenTwoNodeTypesIsRefused() {
    Throwable e = catchThrowable(() -> names("$p: Person $p <worksAt> $f"));
    assertThat(e).isInstanceOf(QueryParseException.class).hasMessageContaining("1:36")
        .hasMessageContaining("an undirected traversal needs an edge between one node type, but WorksAt goes "
            + "Person -> Company");
  }

}
