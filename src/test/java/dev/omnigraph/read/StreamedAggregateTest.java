package dev.omnigraph.read;

import dev.omnigraph.api.ReadSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46 items 2 and 3: grouped aggregates that stream (over a filtered scan, and over one hop
 * walked node by node through the adjacency) answer what a brute-force count over the generated
 * graph answers: every aggregate, nulls, parallel edges and self-loops (a hop is a set of pairs),
 * both directions and undirected, filters on either end; {@code order … limit k} is the head of the
 * full sort; and the top-10-by-degree read runs under a row budget smaller than its edge count,
 * which binding one row per edge exceeded.
 */
class StreamedAggregateTest {

  private static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32? @index
        city: String?
      }
      edge Knows: Person -> Person
      """;
  private static final int PERSONS = 1_500;
  private static final int EDGES = 8_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static Omnigraph graph;
  private static Catalog catalog;
  private static final Map<String, Integer> AGE = new HashMap<>();
  private static final Map<String, String> CITY = new HashMap<>();
  /** Distinct targets per source, and sources per target: the traversal's set of pairs. */
  private static final Map<String, Set<String>> OUT = new TreeMap<>();
  private static final Map<String, Set<String>> IN = new TreeMap<>();

  @BeforeAll
  static void generate() {
    Random random = new Random(46);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < PERSONS; i++) {
      String name = i == 7 ? "it's \"q\" ü" : "p" + i;
      Integer age = i % 13 == 0 ? null : 18 + random.nextInt(70);
      String city = i % 17 == 0 ? null : "c" + random.nextInt(5);
      AGE.put(name, age);
      CITY.put(name, city);
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("name", name);
      data.put("age", age);
      data.put("city", city);
      lines.add(json(Map.of("type", "Person", "data", data)));
    }
    List<String> names = new ArrayList<>(AGE.keySet());
    names.sort(Comparator.naturalOrder());
    for (int e = 0; e < EDGES; e++) {
      // Person i's friends are skewed so degrees spread and ties are few; a parallel edge and a
      // self-loop every so often.
      String from = names.get(Math.min(random.nextInt(PERSONS), random.nextInt(PERSONS)));
      String to = e % 500 == 0 ? from : names.get(random.nextInt(PERSONS));
      edge(lines, from, to);
      if (e % 300 == 0) {
        edge(lines, from, to);
      }
    }
    graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of("t"));
    graph.load("main", new StringReader(String.join("\n", lines)), LoadMode.APPEND, Optional.of("t"));
    catalog = SchemaParser.parse(SCHEMA);
  }

  private static void edge(List<String> lines, String from, String to) {
    lines.add(json(Map.of("edge", "Knows", "from", from, "to", to)));
    OUT.computeIfAbsent(from, k -> new HashSet<>()).add(to);
    IN.computeIfAbsent(to, k -> new HashSet<>()).add(from);
  }

  @AfterAll
  static void close() {
    graph.close();
  }

  private static String json(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Map<String, Object>> rows(String body) {
    return graph.query(Optional.empty(), Optional.empty(), "query q() { " + body + " }", "q", null).rows();
  }

  private static List<String> plan(String body) {
    CheckedRead read = (CheckedRead) QueryChecker.check(QueryParser.parse("query q() { " + body + " }")
        .declaration("q"), catalog);
    return new ReadPlan(read, catalog.nodes(), v -> v instanceof dev.omnigraph.query.Value.Literal l ? l.value()
        : Instant.now()).describe();
  }

  /** A row as the read returns it: null cells left out. */
  private static Map<String, Object> row(Object... keyValues) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      if (keyValues[i + 1] != null) {
        out.put((String) keyValues[i], keyValues[i + 1]);
      }
    }
    return out;
  }

  /** Groups by degree, most first, then by name (the order is total over the returned columns). */
  private static List<Map<String, Object>> byDegree(Map<String, Set<String>> pairs, String nameColumn) {
    List<Map.Entry<String, Set<String>>> entries = new ArrayList<>(pairs.entrySet());
    entries.sort(Comparator.<Map.Entry<String, Set<String>>>comparingInt(e -> -e.getValue().size())
        .thenComparing(Map.Entry::getKey, Compare::codePoints));
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : entries) {
      out.add(row(nameColumn, e.getKey(), "d", (long) e.getValue().size()));
    }
    return out;
  }

  @Test
  void topTenByOutDegreeIsTheHeadOfTheFullSortAndStreams() {
    String all = "match { $p: Person  $p knows $f } return { $p.name, count($f) as d } order { d desc }";
    List<Map<String, Object>> expected = byDegree(OUT, "p.name");
    assertThat(rows(all)).hasSize(OUT.size()).isEqualTo(expected);
    assertThat(rows(all + " limit 10")).isEqualTo(expected.subList(0, 10));
    assertThat(plan(all + " limit 10")).containsExactly(
        "$p: Person, unfiltered, columns id", // the name is the id (a lone String @key): not read
        "$f: Person, unfiltered, columns id",
        "streamed aggregate, grouped by $p, over the Knows adjacency out of each node (src/dst only, no row per edge)",
        "top-k heap of 10 rows by d desc");
    // In-degree: grouped by the traversal's target, walked against the edges.
    String in = "match { $p: Person  $p knows $f } return { $f.name, count($p) as d } order { d desc } limit 10";
    assertThat(rows(in)).isEqualTo(byDegree(IN, "f.name").subList(0, 10));
    assertThat(plan(in)).contains("streamed aggregate, grouped by $f, over the Knows adjacency into each node"
        + " (src/dst only, no row per edge)");
  }

  @Test
  void theDegreeReadHoldsOnlyItsTopRows() {
    // Each person is its own group (the key is returned), so its row goes to the top-3 heap as soon
    // as its neighbours are counted: 3 rows held, under a budget of 100 rows. Binding the 1,500
    // persons and one row per edge (8,000+) was refused.
    String q = "query q() { match { $p: Person  $p knows $f } return { $p.name, count($f) as d }"
        + " order { d desc } limit 3 }";
    assertThat(graph.query(Optional.empty(), Optional.empty(), q, "q", null, budget(100)).rows())
        .isEqualTo(byDegree(OUT, "p.name").subList(0, 3));
    // What is held still counts: the far side's rows a filter admits (about 900) do not fit 500.
    String filtered = "query q() { match { $p: Person  $p knows $f  $f.age > 40 } return { $p.name, count($f) as d }"
        + " order { d desc } limit 3 }";
    ReadBudgetExceeded refused = catchThrowableOfType(() -> graph.query(Optional.empty(), Optional.empty(), filtered,
        "q", null, budget(500)), ReadBudgetExceeded.class);
    assertThat(refused.budget()).isEqualTo(ReadBudgetExceeded.Budget.INTERMEDIATE_ROWS);
    assertThat(refused.actual()).isEqualTo(501);
  }

  private static dev.omnigraph.api.ReadSettings budget(long rows) {
    return new dev.omnigraph.api.ReadSettings(rows, 256L << 20, 30_000);
  }

  @Test
  void everyAggregateOverTheFarEndWithNulls() {
    List<Map<String, Object>> expected = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : OUT.entrySet()) {
      expected.add(folded(e.getKey(), e.getValue(), f -> true));
    }
    expected.sort(Comparator.comparing(r -> (String) r.get("p.name"), Compare::codePoints));
    String q = "match { $p: Person  $p knows $f } return { $p.name, count($f) as n, count($f.age) as known,"
        + " count(distinct $f.age) as ages, sum($f.age) as s, avg($f.age) as a, min($f.age) as lo, max($f.age) as hi }"
        + " order { $p.name }";
    assertThat(plan(q)).anyMatch(l -> l.startsWith("streamed aggregate"));
    List<Map<String, Object>> got = rows(q);
    assertThat(got).isEqualTo(expected);
    // Some group's friends all lack an age: its sum, avg, min and max are null (left out of the row).
    assertThat(got).anyMatch(r -> (Long) r.get("known") == 0L && !r.containsKey("s") && !r.containsKey("lo"));
  }

  private static Map<String, Object> folded(String p, Set<String> friends, java.util.function.Predicate<String> keep) {
    long n = 0;
    long known = 0;
    Set<Integer> distinct = new HashSet<>();
    java.util.DoubleSummaryStatistics sum = new java.util.DoubleSummaryStatistics();
    Integer lo = null;
    Integer hi = null;
    for (String f : friends) {
      if (!keep.test(f)) {
        continue;
      }
      n++;
      Integer age = AGE.get(f);
      if (age != null) {
        known++;
        distinct.add(age);
        sum.accept(age);
        lo = lo == null || age < lo ? age : lo;
        hi = hi == null || age > hi ? age : hi;
      }
    }
    return row("p.name", p, "n", n, "known", known, "ages", (long) distinct.size(),
        "s", known == 0 ? null : sum.getSum(), "a", known == 0 ? null : sum.getSum() / known, "lo", lo, "hi", hi);
  }

  @Test
  void filtersOnEitherEndAndUndirectedHops() {
    List<Map<String, Object>> expected = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : OUT.entrySet()) {
      if ("c1".equals(CITY.get(e.getKey()))) {
        Map<String, Object> r = folded(e.getKey(), e.getValue(), f -> AGE.get(f) != null && AGE.get(f) > 40);
        if ((Long) r.get("n") > 0) {
          expected.add(row("p.name", e.getKey(), "n", r.get("n"), "hi", r.get("hi")));
        }
      }
    }
    expected.sort(Comparator.comparing(r -> (String) r.get("p.name"), Compare::codePoints));
    String q = "match { $p: Person { city: \"c1\" }  $p knows $f  $f.age > 40 }"
        + " return { $p.name, count($f) as n, max($f.age) as hi } order { $p.name }";
    assertThat(plan(q)).anyMatch(l -> l.startsWith("streamed aggregate"))
        .anyMatch(l -> l.equals("$f: Person, scan with pushed filter `age` > 40 (BTree index on age not used: ranges only, scanned), columns id,age"));
    assertThat(rows(q)).isEqualTo(expected);
    // Undirected: friends either way, each once; a global count is the number of distinct pairs.
    Map<String, Set<String>> either = new TreeMap<>();
    OUT.forEach((p, fs) -> fs.forEach(f -> {
      either.computeIfAbsent(p, k -> new HashSet<>()).add(f);
      either.computeIfAbsent(f, k -> new HashSet<>()).add(p);
    }));
    assertThat(rows("match { $p: Person  $p <knows> $f } return { $p.name, count($f) as d } order { d desc } limit 5"))
        .isEqualTo(byDegree(either, "p.name").subList(0, 5));
    long pairs = OUT.values().stream().mapToLong(Set::size).sum();
    assertThat(rows("match { $p: Person  $p knows $f } return { count($f) as n, count(distinct $p) as sources }"))
        .containsExactly(row("n", pairs, "sources", (long) OUT.size()));
  }

  @Test
  void aFilteredScanFoldsBatchByBatch() {
    // Q4's shape: count and average age in one city, age > 40.
    Function<String, Map<String, Object>> expected = city -> {
      long n = 0;
      java.util.DoubleSummaryStatistics sum = new java.util.DoubleSummaryStatistics();
      for (Map.Entry<String, Integer> e : AGE.entrySet()) {
        if (city.equals(CITY.get(e.getKey())) && e.getValue() != null && e.getValue() > 40) {
          n++;
          sum.accept(e.getValue());
        }
      }
      return row("n", n, "a", n == 0 ? null : sum.getSum() / n);
    };
    String q4 = "match { $p: Person { city: \"c2\" }  $p.age > 40 } return { count($p) as n, avg($p.age) as a }";
    assertThat(plan(q4)).containsExactly(
        "$p: Person, scan with pushed filter (`city` = 'c2') AND (`age` > 40) (BTree index on age not used: ranges only, scanned), columns id,city,age",
        "streamed aggregate, grouped by $p, folded batch by batch from its scan");
    assertThat(rows(q4)).containsExactly(expected.apply("c2"));
    // No row matches: one row, count 0 and a null average.
    assertThat(rows("match { $p: Person { city: \"nowhere\" } } return { count($p) as n, avg($p.age) as a }"))
        .containsExactly(row("n", 0L));
    // Grouped by a nullable property: the null city is a group of its own, ordered first.
    Map<String, long[]> byCity = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
    AGE.forEach((p, age) -> byCity.computeIfAbsent(CITY.get(p), k -> new long[2])[age == null ? 1 : 0]++);
    List<Map<String, Object>> grouped = new ArrayList<>();
    byCity.forEach((city, counts) -> grouped.add(row("p.city", city, "people", counts[0] + counts[1],
        "aged", counts[0])));
    assertThat(rows("match { $p: Person } return { $p.city, count($p) as people, count($p.age) as aged }"
        + " order { $p.city }")).isEqualTo(grouped);
  }
}
