package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46, Q1: a key lookup probed often enough at one version is answered by taking the rows the
 * version's id map names ({@link IdRowIds}) instead of a scan, with exactly the rows a scan gives:
 * on keys with quotes, backslashes and non-ASCII text, for a key no row has, after a write (the new
 * version has its own map) and at an older commit (its map shows the old rows).
 */
class IdRowIdsLocalTest {

  private static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      """;
  private static final String Q1 = """
      query age($n: String) {
        match { $p: Person { name: $n } }
        return { $p.name, $p.age }
      }
      query everyone() {
        match { $p: Person }
        return { $p.name, $p.age }
      }
      """;
  private static final List<String> NAMES = List.of("ann", "it's \"quoted\"", "back\\slash\\", "naïve café ✓",
      "emoji 😀 and 𝄞", "O'Brien \\' \"", "tab\there");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Omnigraph graph;

  private final long columnCacheBefore = LanceRoot.columnCacheBytes();

  @BeforeEach
  void seed() {
    // The column cache would answer these probes before the id map is asked (docs/performance.md,
    // "The column cache"); the id map is what tables beyond the cache's budget use, tested here.
    LanceRoot.columnCacheBytes(0);
    graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of("t"));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < NAMES.size(); i++) {
      lines.add(person(NAMES.get(i), 20 + i));
    }
    load(lines, LoadMode.APPEND);
  }

  @AfterEach
  void close() {
    LanceRoot.columnCacheBytes(columnCacheBefore);
    graph.close();
  }

  private static String person(String name, int age) {
    ObjectNode row = JSON.createObjectNode().put("type", "Person");
    row.putObject("data").put("name", name).put("age", age);
    return row.toString();
  }

  private String load(List<String> lines, LoadMode mode) {
    return graph.load("main", new StringReader(String.join("\n", lines)), mode, Optional.of("t")).commitId()
        .orElseThrow();
  }

  /** What a scan of every person answers, by name. */
  private Map<String, Object> scanned(Optional<String> commit) {
    Map<String, Object> out = new TreeMap<>();
    graph.query(Optional.empty(), commit.map(dev.omnigraph.api.CommitId::existing), Q1, "everyone", JSON.createObjectNode()).rows()
        .forEach(r -> out.put((String) r.get("p.name"), r.get("p.age")));
    return out;
  }

  private List<Map<String, Object>> probe(Optional<String> commit, String name) {
    return graph.query(Optional.empty(), commit.map(dev.omnigraph.api.CommitId::existing), Q1, "age", JSON.createObjectNode().put("n", name)).rows();
  }

  /** Probes every name and a missing one {@code rounds} times; each answer must equal the scan's. */
  private void probesEqualTheScan(Optional<String> commit, List<String> names, int rounds) {
    Map<String, Object> scanned = scanned(commit);
    for (int round = 0; round < rounds; round++) {
      for (String name : names) {
        List<Map<String, Object>> rows = probe(commit, name);
        if (scanned.containsKey(name)) {
          assertThat(rows).as("%s, round %d", name, round).containsExactly(Map.of("p.name", name, "p.age",
              scanned.get(name)));
        } else {
          assertThat(rows).as("%s, round %d", name, round).isEmpty();
        }
      }
      assertThat(probe(commit, "nobody")).isEmpty();
      assertThat(probe(commit, "ann\"")).isEmpty();
    }
  }

  @Test
  void probesThroughTheIdMapAnswerWhatTheScanAnswersAtEveryVersion() {
    long taken = DataTables.TAKEN_PROBES.get();
    probesEqualTheScan(Optional.empty(), NAMES, 3);
    // The map is built once the version was probed PROBES_BEFORE_MAP times (one fragment here):
    // every later probe is taken, hits and misses alike.
    long perRound = NAMES.size() + 2;
    assertThat(DataTables.TAKEN_PROBES.get() - taken).isGreaterThanOrEqualTo(3 * perRound - PinnedHandles.PROBES_BEFORE_MAP + 1);
    String before = graph.query(Optional.empty(), Optional.empty(), Q1, "everyone", JSON.createObjectNode())
        .graphCommitId();

    // A write: one changed age, one new person. The new version answers with the new rows.
    load(List.of(person("it's \"quoted\"", 99), person("new \\ 'one'", 7)), LoadMode.MERGE);
    List<String> now = new ArrayList<>(NAMES);
    now.add("new \\ 'one'");
    probesEqualTheScan(Optional.empty(), now, 3);
    assertThat(probe(Optional.empty(), "it's \"quoted\"")).containsExactly(Map.of("p.name", "it's \"quoted\"",
        "p.age", 99));
    // The older commit still answers the old rows through its own map.
    probesEqualTheScan(Optional.of(before), now, 3);
    assertThat(probe(Optional.of(before), "it's \"quoted\"")).containsExactly(Map.of("p.name", "it's \"quoted\"",
        "p.age", 21));
    assertThat(probe(Optional.of(before), "new \\ 'one'")).isEmpty();
  }
}
