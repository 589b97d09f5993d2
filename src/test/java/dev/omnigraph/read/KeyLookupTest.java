package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Params;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
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
 * Issue 46 item 1: an equality on every part of a node's {@code @key} is planned as a probe of the
 * {@code id} the key derives, and answers exactly what the equalities alone answer: single and
 * composite keys, parameters and literals, inside {@code not}, with a value no key can spell, and
 * never for a partial key, a range, or a float key.
 */
class KeyLookupTest {

  private static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Account {
        bank: String @key(bank, number)
        number: I64
        note: String?
      }
      node Reading {
        value: F64 @key
      }
      edge Knows: Person -> Person
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private Omnigraph graph;
  private Catalog catalog;

  @BeforeEach
  void seed() {
    catalog = SchemaParser.parse(SCHEMA);
    graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), SCHEMA, Optional.of("t"));
    graph.load("main", new StringReader(String.join("\n",
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":40}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"it's \\\"quoted\\\"\",\"age\":50}}",
        "{\"type\":\"Account\",\"data\":{\"bank\":\"acme\",\"number\":7,\"note\":\"a\"}}",
        "{\"type\":\"Account\",\"data\":{\"bank\":\"acme\",\"number\":8,\"note\":\"b\"}}",
        "{\"type\":\"Reading\",\"data\":{\"value\":0.5}}",
        "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"bob\"}")), LoadMode.APPEND, Optional.of("t"));
  }

  @AfterEach
  void close() {
    graph.close();
  }

  private List<Map<String, Object>> rows(String query, String params) {
    return graph.query(Optional.empty(), Optional.empty(), query, "q", json(params)).rows();
  }

  private List<String> plan(String query, String params) {
    CheckedRead read = (CheckedRead) QueryChecker.check(QueryParser.parse(query).declaration("q"), catalog);
    var bound = Params.bind(read, json(params));
    return new ReadPlan(read, catalog.nodes(), v -> v instanceof dev.omnigraph.query.Value.Literal l ? l.value()
        : v instanceof dev.omnigraph.query.Value.Param p ? bound.get(p) : Instant.now()).describe();
  }

  private static JsonNode json(String params) {
    try {
      return JSON.readTree(params);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aWholeKeyBecomesAnIdProbeAndAnswersAsTheEqualityDoes() {
    String byName = "query q($n: String) { match { $p: Person { name: $n } } return { $p.age } }";
    assertThat(plan(byName, "{\"n\":\"ann\"}")).containsExactly("$p: Person, id probe from its @key (the id BTree), pushed filter (`id` IN ('ann')) AND (`name` = 'ann'), columns id,name,age");
    assertThat(rows(byName, "{\"n\":\"ann\"}")).containsExactly(Map.of("p.age", 30));
    assertThat(rows(byName, "{\"n\":\"it's \\\"quoted\\\"\"}")).containsExactly(Map.of("p.age", 50));
    assertThat(rows(byName, "{\"n\":\"nobody\"}")).isEmpty();
    assertThat(rows(byName, "{\"n\":\"x' OR '1'='1\"}")).isEmpty();
    // A literal key, a further filter that still decides, and the probe on a traversal's origin.
    assertThat(rows("query q() { match { $p: Person { name: \"bob\" } $p.age > 45 } return { $p.age } }", "{}"))
        .isEmpty();
    String hop = "query q() { match { $p: Person { name: \"ann\" } $p knows $f } return { $f.name } }";
    assertThat(plan(hop, "{}")).first().asString().contains("id probe");
    assertThat(rows(hop, "{}")).containsExactly(Map.of("f.name", "bob"));
    // Bound by its key alone and reached only through the hop: its row is not read, the edges decide
    // (an absent node has none; a present one without edges gives nothing either way).
    String from = "query q($n: String) { match { $p: Person { name: $n }  $p knows $f } return { $f.name } }";
    assertThat(plan(from, "{\"n\":\"ann\"}")).first().asString().contains("not read: its traversal's edges decide");
    assertThat(rows(from, "{\"n\":\"ann\"}")).containsExactly(Map.of("f.name", "bob"));
    assertThat(rows(from, "{\"n\":\"bob\"}")).isEmpty();
    assertThat(rows(from, "{\"n\":\"nobody\"}")).isEmpty();
    String to = "query q($n: String) { match { $p: Person { name: $n }  $f knows $p } return { $f.name } }";
    assertThat(rows(to, "{\"n\":\"bob\"}")).containsExactly(Map.of("f.name", "ann"));
    assertThat(rows(to, "{\"n\":\"nobody\"}")).isEmpty();
    // Anything else of it read, or another filter on it: its row is read as before.
    assertThat(plan("query q() { match { $p: Person { name: \"ann\" }  $p.age > 1  $p knows $f } return { $f.name } }",
        "{}")).first().asString().doesNotContain("not read");
    assertThat(plan("query q() { match { $p: Person { name: \"ann\" }  $p knows $f } return { $p.age, $f.name } }",
        "{}")).first().asString().doesNotContain("not read");
  }

  @Test
  void aLoneStringKeyIsReadFromTheIdWithoutItsColumn() {
    graph.load("main", new StringReader(String.join("\n",
        "{\"type\":\"Person\",\"data\":{\"name\":\"Zoë \\\\ 東京\\t😀\",\"age\":60}}",
        "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"it's \\\"quoted\\\"\"}",
        "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"Zoë \\\\ 東京\\t😀\"}",
        "{\"edge\":\"Knows\",\"from\":\"Zoë \\\\ 東京\\t😀\",\"to\":\"ann\"}")), LoadMode.MERGE, Optional.of("t"));
    String zoe = "Zoë \\ 東京\t😀";
    // The friends' names are their ids: the hop reads no Person row for them, and they are the names
    // stored, quotes, backslash, tab and non-BMP text alike.
    String hop = "query q() { match { $p: Person { name: \"ann\" } $p knows $f } return { $f.name } order { $f.name } }";
    assertThat(plan(hop, "{}")).contains("$f: Person, unfiltered, columns id");
    assertThat(rows(hop, "{}")).extracting(r -> r.get("f.name")).containsExactly("Zoë \\ 東京\t😀", "bob",
        "it's \"quoted\"");
    assertThat(rows("query q() { match { $p: Person } return { $p.name } order { $p.name } }", "{}"))
        .extracting(r -> r.get("p.name")).containsExactly(zoe, "ann", "bob", "it's \"quoted\"");
    // Grouped by the name (a streamed hop over the adjacency, no Person scan), and counted distinct.
    String degree = "query q() { match { $p: Person  $p knows $f } return { $p.name, count($f) as d }"
        + " order { d desc, $p.name asc } }";
    assertThat(plan(degree, "{}")).contains("$p: Person, unfiltered, columns id");
    assertThat(rows(degree, "{}")).containsExactly(Map.of("p.name", "ann", "d", 3L), Map.of("p.name", zoe, "d", 1L));
    assertThat(rows("query q() { match { $p: Person  $p knows $f } return { count(distinct $f.name) as n } }", "{}"))
        .containsExactly(Map.of("n", 4L));
    // A filter on the key still reads its column, and the row must exist: the probe decides.
    assertThat(rows("query q($n: String) { match { $p: Person { name: $n } } return { $p.name } }",
        "{\"n\":\"Zoë \\\\ 東京\\t😀\"}")).containsExactly(Map.of("p.name", zoe));
    assertThat(rows("query q($n: String) { match { $p: Person { name: $n } } return { $p.name } }",
        "{\"n\":\"zoë\"}")).isEmpty();
  }

  @Test
  void aCompositeKeyNeedsEveryPart() {
    String both = "query q() { match { $a: Account { bank: \"acme\", number: 8 } } return { $a.note } }";
    assertThat(plan(both, "{}")).first().asString().contains("id probe");
    assertThat(rows(both, "{}")).containsExactly(Map.of("a.note", "b"));
    String part = "query q() { match { $a: Account { bank: \"acme\" } } return { $a.note } order { $a.note } }";
    assertThat(plan(part, "{}")).first().asString().contains("scan with pushed filter");
    assertThat(rows(part, "{}")).containsExactly(Map.of("a.note", "a"), Map.of("a.note", "b"));
  }

  @Test
  void notRangesFloatsOrNegationsOfTheKey() {
    assertThat(plan("query q() { match { $p: Person  $p.name >= \"b\" } return { $p.age } }", "{}"))
        .first().asString().contains("scan with pushed filter");
    assertThat(plan("query q() { match { $r: Reading { value: 0.5 } } return { $r.value } }", "{}"))
        .first().asString().contains("scan with pushed filter");
    assertThat(rows("query q() { match { $r: Reading { value: 0.5 } } return { $r.value } }", "{}"))
        .containsExactly(Map.of("r.value", 0.5));
    // Inside not { }: everyone but ann, through a probe of the inner variable.
    String others = "query q() { match { $p: Person  not { $q: Person { name: \"ann\" }  $p.id = $q.id } }"
        + " return { $p.name } order { $p.name } }";
    assertThat(plan(others, "{}")).anyMatch(line -> line.startsWith("$q: Person, id probe"));
    assertThat(rows(others, "{}")).extracting(r -> r.get("p.name")).containsExactly("bob", "it's \"quoted\"");
  }
}
