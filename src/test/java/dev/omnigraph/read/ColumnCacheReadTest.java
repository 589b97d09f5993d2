package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.GraphRoots;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.table.LanceRoot;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads answered from the column cache (docs/performance.md, "The column cache") give exactly the
 * rows the same reads give with the cache off ({@code omnigraph.read.column-cache-bytes} 0): the
 * benchmark's Q1 (a key lookup) and Q4 (a filter and an aggregate) and a filtered, ordered scan, on a
 * generated graph with nulls and keys with quotes, backslashes, tabs and non-BMP text; after updates
 * and deletes (new table versions); on a branch; at an older commit; and with a budget so small that
 * columns are evicted between reads.
 */
class ColumnCacheReadTest {

  private static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
        city: String?
      }
      edge Knows: Person -> Person
      """;
  private static final String QUERIES = """
      query q1($n: String) { match { $p: Person { name: $n } } return { $p.age } }
      query q4($c: String) { match { $p: Person { city: $c }  $p.age > 40 } return { count($p) as n, avg($p.age) as a } }
      query young($m: I32) { match { $p: Person  $p.age < $m } return { $p.name, $p.age, $p.city } order { $p.name } }
      query set_age($n: String, $age: I32?) { update Person set { age: $age } where name = $n }
      query drop($n: String) { delete Person where name = $n }
      """;
  private static final List<String> AWKWARD = List.of("it's \"quoted\"", "Zoë \\ 東京\t😀", "x' OR '1'='1", "ünï€");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Omnigraph graph;
  private final List<String> names = new ArrayList<>();
  private final long budgetBefore = LanceRoot.columnCacheBytes();

  @BeforeEach
  void seed() {
    graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of("t"));
    Random random = new Random(46);
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      String name = i < AWKWARD.size() ? AWKWARD.get(i) : "p" + i;
      names.add(name);
      ObjectNode data = JSON.createObjectNode().put("name", name);
      if (i % 7 != 3) {
        data.put("age", random.nextInt(90));
      }
      if (i % 11 != 5) {
        data.put("city", i % 13 == 0 ? "Zoë's \\ 東京" : "c" + random.nextInt(5));
      }
      ObjectNode line = JSON.createObjectNode().put("type", "Person");
      line.set("data", data);
      ndjson.append(line.toString()).append('\n');
    }
    graph.load("main", new StringReader(ndjson.toString()), LoadMode.APPEND, Optional.of("t"));
  }

  @AfterEach
  void close() {
    GraphRoots.columnCacheBytes(budgetBefore);
    graph.close();
  }

  private List<Map<String, Object>> rows(Optional<String> branch, Optional<String> commit, String query, JsonNode params) {
    List<Map<String, Object>> rows = new ArrayList<>(graph.query(branch.map(dev.omnigraph.api.BranchName::existing), commit.map(dev.omnigraph.api.CommitId::existing), QUERIES, query, params).rows());
    if (!query.equals("young")) {
      rows.sort(Comparator.comparing(Object::toString)); // unordered reads: compare as sets of rows
    }
    return rows;
  }

  /** The read's rows with the cache off, asserted equal to three reads with it on (the last two from it). */
  private List<Map<String, Object>> same(Optional<String> branch, Optional<String> commit, String query, JsonNode params,
      long budget) {
    GraphRoots.columnCacheBytes(0);
    List<Map<String, Object>> uncached = rows(branch, commit, query, params);
    GraphRoots.columnCacheBytes(budget);
    for (int i = 0; i < 3; i++) {
      assertThat(rows(branch, commit, query, params)).as("%s %s, read %d with the cache", query, params, i)
          .isEqualTo(uncached);
    }
    return uncached;
  }

  private List<Map<String, Object>> sameForAll(Optional<String> branch, Optional<String> commit, long budget) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (String n : List.of(AWKWARD.get(0), AWKWARD.get(1), AWKWARD.get(2), AWKWARD.get(3), "p10", "p17", "nobody")) {
      all.addAll(same(branch, commit, "q1", JSON.createObjectNode().put("n", n), budget));
    }
    for (String c : List.of("c0", "c3", "Zoë's \\ 東京", "nowhere")) {
      all.addAll(same(branch, commit, "q4", JSON.createObjectNode().put("c", c), budget));
    }
    all.addAll(same(branch, commit, "young", JSON.createObjectNode().put("m", 12), budget));
    return all;
  }

  private void write(String branch, String query, ObjectNode params) {
    graph.mutate(branch, QUERIES, query, params, Optional.of("t"), Optional.empty());
  }

  @Test
  void cachedReadsAnswerAsUncachedOnesAcrossVersionsBranchesAndCommits() {
    long budget = ReadSettings.DEFAULT_COLUMN_CACHE_BYTES;
    List<Map<String, Object>> first = sameForAll(Optional.empty(), Optional.empty(), budget);
    assertThat(first).as("the reads find rows").hasSizeGreaterThan(10);
    assertThat(rows(Optional.empty(), Optional.empty(), "q1", JSON.createObjectNode().put("n", AWKWARD.get(1))))
        .hasSize(1);
    // What explain says of the head of main now: the scans' columns are held.
    ObjectNode c0 = JSON.createObjectNode().put("c", "c0");
    assertThat(graph.explain(QUERIES, "q4", c0))
        .contains("$p: column cache holds id,city,age of the pinned version: answered in memory");
    assertThat(graph.explain(QUERIES, "q1", JSON.createObjectNode().put("n", "p10")))
        .contains("$p: column cache holds id,name,age of the pinned version: answered in memory");
    String older = graph.query(Optional.empty(), Optional.empty(), QUERIES, "q1",
        JSON.createObjectNode().put("n", "p10")).graphCommitId();

    // Updates and deletes make new versions: answered from their own columns, never the old ones.
    write("main", "set_age", JSON.createObjectNode().put("n", AWKWARD.get(1)).put("age", 77));
    write("main", "set_age", JSON.createObjectNode().put("n", "p10").putNull("age"));
    write("main", "drop", JSON.createObjectNode().put("n", "p17"));
    write("main", "drop", JSON.createObjectNode().put("n", AWKWARD.get(0)));
    assertThat(graph.explain(QUERIES, "q4", c0)).contains(
        "$p: column cache does not hold id,city,age of the pinned version yet: Lance scans (loaded on the version's 2nd scan)");
    List<Map<String, Object>> after = sameForAll(Optional.empty(), Optional.empty(), budget);
    assertThat(after).isNotEqualTo(first);
    assertThat(same(Optional.empty(), Optional.empty(), "q1", JSON.createObjectNode().put("n", AWKWARD.get(1)), budget))
        .containsExactly(Map.of("p.age", 77));
    assertThat(same(Optional.empty(), Optional.empty(), "q1", JSON.createObjectNode().put("n", "p17"), budget)).isEmpty();
    assertThat(same(Optional.empty(), Optional.empty(), "q1", JSON.createObjectNode().put("n", "p10"), budget))
        .containsExactly(Map.of());

    // The older commit still answers its own rows, cached or not.
    assertThat(sameForAll(Optional.empty(), Optional.of(older), budget)).isEqualTo(first);

    // A branch: its own writes, its own versions.
    graph.branchCreate("feature", "main", Optional.of("t"));
    write("feature", "set_age", JSON.createObjectNode().put("n", "p11").put("age", 88));
    write("feature", "drop", JSON.createObjectNode().put("n", AWKWARD.get(2)));
    List<Map<String, Object>> onFeature = sameForAll(Optional.of("feature"), Optional.empty(), budget);
    assertThat(onFeature).isNotEqualTo(after);
    assertThat(sameForAll(Optional.empty(), Optional.empty(), budget)).isEqualTo(after);
  }

  @Test
  void theBudgetIsReadFromItsKey() {
    assertThat(ReadSettings.columnCacheBytes(k -> null)).isEqualTo(64L << 20);
    assertThat(ReadSettings.columnCacheBytes(k -> k.equals(ReadSettings.COLUMN_CACHE_BYTES) ? " 0 " : null)).isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReadSettings.columnCacheBytes(k -> "-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("omnigraph.read.column-cache-bytes must be a non-negative integer, not '-1'");
    // Off: explain says so, and reads still answer.
    GraphRoots.columnCacheBytes(0);
    assertThat(graph.explain(QUERIES, "q4", JSON.createObjectNode().put("c", "c0")))
        .contains("$p: column cache off, Lance scans");
  }

  @Test
  void budgetsTooSmallForEveryColumnEvictAndStillAnswer() {
    List<Map<String, Object>> roomy = sameForAll(Optional.empty(), Optional.empty(), ReadSettings.DEFAULT_COLUMN_CACHE_BYTES);
    // A column of these 400 rows holds 1.7 KB (an I32) to 7 KB (a key): with room for two or three
    // columns each read evicts what the one before loaded; below any column every read goes to Lance.
    for (long tiny : List.of(20_000L, 12_000L, 6_000L, 64L)) {
      assertThat(sameForAll(Optional.empty(), Optional.empty(), tiny)).as("budget %d", tiny).isEqualTo(roomy);
    }
  }
}
