package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A read replica is another process: it holds its own open handles and caches, and hears nothing
 * of the writer's branch deletes and creates. A branch deleted and created again under the same name
 * reuses its data tables' Lance branch names and version numbers for other contents, so a replica
 * must never answer the new branch from what it held for the old one. Run on each backend (the
 * replica's identity check reads the branch's ref through the root's storage).
 */
abstract class AbstractReplicaBranchReuseTest extends AbstractGraphFixture {

  private static final String Q = "query all() { match { $p: Person } return { $p.name } order { $p.name asc } }";

  private static final String FRIENDS = "query friends($n: String) { match { $p: Person { name: $n }  $p knows $f }"
      + " return { $f.name } order { $f.name asc } }";

  private static List<String> friends(Omnigraph g, String branch) {
    List<String> out = new ArrayList<>();
    g.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), FRIENDS, "friends", new com.fasterxml.jackson.databind.ObjectMapper()
        .createObjectNode().put("n", "a")).rows().forEach(r -> out.add(String.valueOf(r.get("f.name"))));
    return out;
  }

  private static String knows(String from, String to) {
    return "{\"edge\":\"Knows\",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}";
  }

  /** In the writer's own process: the traversal's adjacency of the old branch's edge table must not serve the new one. */
  @Test
  void aTraversalOfABranchCreatedAgainUnderTheSameNameSeesItsOwnEdges() {
    load("main", LoadMode.APPEND, person("a", 1), person("b", 2), person("c", 3));
    graph.branchCreate("scratch", "main", Optional.empty());
    load("scratch", LoadMode.APPEND, knows("a", "b"));
    var before = dataset("scratch", "Knows");
    for (int i = 0; i < 4; i++) { // probes first, then builds the adjacency (docs/performance.md, "Hops: probe or build")
      assertThat(friends(graph, "scratch")).containsExactly("b");
    }
    graph.branchDelete("scratch", Optional.empty());
    graph.branchCreate("scratch", "main", Optional.empty());
    load("scratch", LoadMode.APPEND, knows("a", "c"));
    var after = dataset("scratch", "Knows");
    assertThat(after.nativeDatasetBranch()).isEqualTo(before.nativeDatasetBranch());
    assertThat(after.publishedDatasetVersion()).isEqualTo(before.publishedDatasetVersion());
    for (int i = 0; i < 4; i++) {
      assertThat(friends(graph, "scratch")).as("read %d", i).containsExactly("c");
    }
  }

  private static List<String> names(Omnigraph g, String branch) {
    List<String> out = new ArrayList<>();
    g.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), Q, "all", new com.fasterxml.jackson.databind.ObjectMapper()
        .createObjectNode()).rows().forEach(r -> out.add(String.valueOf(r.get("p.name"))));
    return out;
  }

  @Test
  void aReplicaReadsABranchCreatedAgainUnderTheSameNameAsItIsNow() {
    load("main", LoadMode.APPEND, person("root", 1));
    // Another process: its own GraphRoots, so nothing the writer forgets is forgotten here.
    try (Omnigraph replica = Omnigraph.open(new GraphRoots(), config, OpenMode.READ_ONLY,
        OptimizeSettings.defaults(), dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties())) {
      graph.branchCreate("scratch", "main", Optional.empty());
      load("scratch", LoadMode.APPEND, person("first", 2));
      var before = dataset("scratch", "Person");
      for (int i = 0; i < 3; i++) { // more than once: what a replica keeps, it keeps from the 2nd read
        assertThat(names(replica, "scratch")).containsExactly("first", "root");
      }

      graph.branchDelete("scratch", Optional.empty());
      graph.branchCreate("scratch", "main", Optional.empty());
      load("scratch", LoadMode.APPEND, person("second", 3));
      var after = dataset("scratch", "Person");
      // The case that matters: the same Lance branch name and version, other rows.
      assertThat(after.nativeDatasetBranch()).isEqualTo(before.nativeDatasetBranch());
      assertThat(after.publishedDatasetVersion()).isEqualTo(before.publishedDatasetVersion());

      assertThat(names(graph, "scratch")).containsExactly("root", "second");
      assertThat(names(replica, "scratch")).containsExactly("root", "second");
    }
  }
}
