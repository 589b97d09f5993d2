package dev.omnigraph.read;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traversal hops resolved from the edge table's src/dst BTree ({@link ProbedAdjacency}) reach exactly
 * the nodes the CSR ({@link Adjacency}) reaches, for every direction, hop bound and origin set, on a
 * random graph with self-loops, parallel edges and rows written after the key indexes were last
 * optimized; and probing stops at its budget.
 */
class ProbedAdjacencyTest {

  @TempDir Path dir;

  @Test
  void probesReachWhatTheCsrReaches() throws Exception {
    Random random = new Random(3);
    int people = 120;
    List<String> persons = new ArrayList<>();
    for (int i = 0; i < people; i++) {
      persons.add(PeopleGraph.person("p" + i));
    }
    // Three writes of edges; the first two are compacted and folded into the src/dst indexes.
    List<StringBuilder> writes = List.of(new StringBuilder(), new StringBuilder(), new StringBuilder());
    for (int e = 0; e < 400; e++) {
      int a = random.nextInt(people);
      int b = e % 40 == 0 ? a : random.nextInt(people); // some self-loops
      StringBuilder w = writes.get(e < 180 ? 0 : e < 360 ? 1 : 2);
      w.append(PeopleGraph.knows("p" + a, "p" + b, null)).append('\n');
      if (e % 50 == 0) {
        w.append(PeopleGraph.knows("p" + a, "p" + b, "1")).append('\n'); // a parallel edge
      }
    }
    StorageConfig config = StorageConfig.local(dir.resolve("g"));
    try (Omnigraph g = PeopleGraph.create(dir, persons.toArray(String[]::new))) {
      g.load("main", new StringReader(writes.get(0).toString()), LoadMode.APPEND, Optional.of("t"));
      g.load("main", new StringReader(writes.get(1).toString()), LoadMode.APPEND, Optional.of("t"));
      g.optimize("main");
      g.load("main", new StringReader(writes.get(2).toString()), LoadMode.APPEND, Optional.of("t"));
    }
    TablePin pin = new GraphManifest(config, StorageAdapters.open(config)).capture("main").state().tables()
        .get(TableKey.edge("Knows"));
    DataTables tables = new DataTables(config);
    // The probes read the indexed fragment through src_idx/dst_idx and scan the one written after.
    dev.omnigraph.table.FragmentStats stats = tables.statistics().fragmentStats(pin.at());
    assertThat(stats.fragments()).isEqualTo(2);
    assertThat(stats.unindexedFragments()).containsEntry("src_idx", 1).containsEntry("dst_idx", 1);
    Adjacency csr = new AdjacencyCache().get("root", tables, pin.at());
    ProbedAdjacency probes = new ProbedAdjacency(tables, pin);
    int compared = 0;
    for (int round = 0; round < 12; round++) {
      Set<String> origins = new LinkedHashSet<>();
      for (int i = 0; i < 1 + round % 4; i++) {
        origins.add("p" + random.nextInt(people));
      }
      origins.add("nobody");
      for (int[] bounds : List.of(new int[] {1, 1}, new int[] {1, 3}, new int[] {2, 2}, new int[] {2, 4})) {
        for (int shape = 0; shape < 3; shape++) {
          boolean forward = shape != 1;
          boolean undirected = shape == 2;
          Map<String, List<String>> viaIndex = probes.reach(origins, forward, undirected, bounds[0], bounds[1]);
          assertThat(viaIndex).isNotNull();
          for (String o : origins) {
            List<String> expected = undirected ? csr.reachEitherWay(o, bounds[0], bounds[1])
                : csr.reach(o, forward, bounds[0], bounds[1]);
            assertThat(new TreeSet<>(viaIndex.get(o))).as("%s %s %s", o, shape, List.of(bounds[0], bounds[1]))
                .isEqualTo(new TreeSet<>(expected));
            assertThat(viaIndex.get(o)).doesNotHaveDuplicates();
            compared += expected.size();
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
    assertThat(probes.exhausted()).isFalse();
  }

  @Test
  void probingStopsAtItsBudget() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      lines.add(PeopleGraph.person("p" + i));
    }
    for (int i = 0; i + 1 < 12; i++) {
      lines.add(PeopleGraph.knows("p" + i, "p" + (i + 1), null));
    }
    StorageConfig config = StorageConfig.local(dir.resolve("g"));
    PeopleGraph.create(dir, lines.toArray(String[]::new)).close();
    TablePin pin = new GraphManifest(config, StorageAdapters.open(config)).capture("main").state().tables()
        .get(TableKey.edge("Knows"));
    ProbedAdjacency probes = new ProbedAdjacency(new DataTables(config), pin, 5);
    // A path probes one node per hop: within the budget it answers, past it it gives up for good.
    assertThat(probes.reach(List.of("p0"), true, false, 1, 5)).containsEntry("p0", List.of("p1", "p2", "p3", "p4", "p5"));
    assertThat(probes.reach(List.of("p0"), true, false, 1, 11)).isNull();
    assertThat(probes.exhausted()).isTrue();
    assertThat(probes.reach(List.of("p0"), true, false, 1, 1)).isNull();
  }
}
