package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.write.ConstraintViolation;
import dev.omnigraph.write.LoadInputError;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 46, item 5: {@code load --mode overwrite} streams its rows through a local spill in
 * batches (three rows per batch here, so every input below spans several) and keeps every load
 * contract: the last row of an id wins, endpoints resolve against this load (in any order) or the
 * branch, constraints hold over the load, an error names its line and writes nothing, and the
 * spill is gone afterwards.
 */
class StreamedOverwriteLocalTest extends AbstractGraphFixture {

  private static final String SPILL_ROWS = "omnigraph.load.spill-batch-rows";

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("graph"));
  }

  @BeforeEach
  void smallBatches() {
    System.setProperty(SPILL_ROWS, "3");
  }

  @AfterEach
  void defaultBatches() {
    System.clearProperty(SPILL_ROWS);
  }

  private static String knows(String from, String to) {
    return "{\"edge\":\"Knows\",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}";
  }

  private static String knows(String id, String from, String to) {
    return "{\"edge\":\"Knows\",\"id\":\"" + id + "\",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}";
  }

  /** The Knows pairs of the branch, "src->dst", sorted, with their count per pair. */
  private List<String> knowsPairs(String branch) {
    SnapshotOutput.Dataset d = dataset(branch, "Knows");
    List<String> out = new ArrayList<>();
    new DataTables(config).scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()),
        d.publishedDatasetVersion(), dev.omnigraph.table.Filter.TRUE, List.of("id", "src", "dst"),
        r -> out.add(r.get("src") + "->" + r.get("dst")));
    out.sort(null);
    return out;
  }

  private static long spillDirs() throws IOException {
    try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return s.filter(p -> p.getFileName().toString().startsWith("omnigraph-load-")).count();
    }
  }

  @Test
  void anOverwriteOfSeveralBatchesKeepsTheLastRowOfAnIdAndResolvesEdgesGivenBeforeTheirNodes() throws Exception {
    long dirs = spillDirs();
    load("main", LoadMode.APPEND, person("old", 99));
    var result = load("main", LoadMode.OVERWRITE,
        knows("ann", "bob"), knows("bob", "cyd"), knows("cyd", "ann"), knows("e1", "ann", "dee"),
        person("ann", 30), person("bob", 40), person("cyd", 50), person("ann", 31), person("dee", 60),
        person("eve", 70), person("bob", 41), knows("e1", "ann", "eve"), knows("eve", "ann"));

    Map<String, Integer> ages = new TreeMap<>();
    rows("main", "Person").values().forEach(r -> ages.put((String) r.get("name"), (Integer) r.get("age")));
    assertThat(ages).isEqualTo(Map.of("ann", 31, "bob", 41, "cyd", 50, "dee", 60, "eve", 70));
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(5);
    // e1 given twice: its last line (ann->eve) replaced the first (ann->dee).
    assertThat(knowsPairs("main")).containsExactly("ann->bob", "ann->eve", "bob->cyd", "cyd->ann", "eve->ann");
    assertThat(dataset("main", "Knows").entityCount()).isEqualTo(5);
    assertThat(result.rowCounts()).containsEntry("node:Person", 5L).containsEntry("edge:Knows", 5L);
    assertThat(spillDirs()).isEqualTo(dirs);
  }

  @Test
  void anEndpointResolvesOnTheBranchOnlyForANodeTypeTheOverwriteDoesNotReplace() {
    load("main", LoadMode.APPEND, person("ann", 30), person("bob", 40),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}");
    load("main", LoadMode.OVERWRITE, "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"acme\"}", knows("ann", "bob"));
    assertThat(knowsPairs("main")).containsExactly("ann->bob");

    SnapshotOutput before = graph.snapshot("main");
    // Person is replaced by this load, so bob (only on the branch) is not an endpoint any more.
    LoadInputError e = catchThrowableOfType(() -> load("main", LoadMode.OVERWRITE,
        person("ann", 30), person("cyd", 20), person("dee", 21), person("eve", 22),
        knows("ann", "cyd"), knows("ann", "bob"), knows("cyd", "zed")), LoadInputError.class);
    assertThat(e.line()).isEqualTo(6);
    assertThat(e.getMessage()).contains("Person 'bob' does not exist");
    assertThat(graph.snapshot("main")).isEqualTo(before);
  }

  @Test
  void constraintsHoldOverTheLoadAndARefusedOverwriteWritesNothing() {
    load("main", LoadMode.APPEND, person("ann", 30));
    SnapshotOutput before = graph.snapshot("main");
    ConstraintViolation range = catchThrowableOfType(() -> load("main", LoadMode.OVERWRITE,
        person("a", 1), person("b", 2), person("c", 3), person("d", 200)), ConstraintViolation.class);
    assertThat(range.constraint()).startsWith("@range(age");
    ConstraintViolation unique = catchThrowableOfType(() -> load("main", LoadMode.OVERWRITE,
        email("a", "x@y.z"), email("b", "p@q.r"), email("c", "s@t.u"), email("d", "x@y.z")), ConstraintViolation.class);
    assertThat(unique.constraint()).isEqualTo("@unique(email)");
    assertThat(graph.snapshot("main")).isEqualTo(before);

    // The same id twice: only its last row counts, for @range and @unique alike.
    load("main", LoadMode.OVERWRITE, person("a", 200), email("b", "x@y.z"), email("c", "p@q.r"),
        person("a", 5), email("b", "s@t.u"), email("d", "x@y.z"));
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(4);
  }

  private static String email(String name, String email) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"email\":\"" + email + "\"}}";
  }
}
