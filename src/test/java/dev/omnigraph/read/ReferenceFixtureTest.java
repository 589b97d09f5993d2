package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference's own query fixture (issue 13 acceptance; src/test/resources/reference/fixture):
 * its schema and data, loaded as they are, and every read query of its {@code test.gq} run with the
 * rows the reference's tests expect. A query without {@code order} is compared as a set, as the
 * reference's tests do (its row order is not part of the contract).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReferenceFixtureTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private Omnigraph graph;
  private String queries;

  @BeforeAll
  void load() throws Exception {
    graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), resource("test.pg"), Optional.of("t"));
    graph.load("main", new StringReader(resource("test.jsonl")), LoadMode.APPEND, Optional.of("t"));
    queries = resource("test.gq");
  }

  @AfterAll
  void close() {
    graph.close();
  }

  private List<Map<String, Object>> rows(String name, String params) throws Exception {
    ReadOutput out = graph.query(Optional.empty(), Optional.empty(), queries, name,
        params == null ? null : JSON.readTree(params));
    return out.rows();
  }

  private static Map<String, Object> row(Object... kv) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void everyQueryOfTheFileIsARead() {
    assertThat(QueryParser.parse(queries).names()).containsExactly("get_person", "adults", "friends_of",
        "employees_of", "friends_of_friends", "unemployed", "friend_counts", "top_by_age", "total_people",
        "age_stats", "top_connected");
    assertThat(QueryParser.parse(queries).declarations()).noneMatch(d -> d.isMutation());
  }

  @Test
  void lookupsFiltersAndOrder() throws Exception {
    assertThat(rows("get_person", "{\"name\":\"Alice\"}")).containsExactly(row("p.name", "Alice", "p.age", 30));
    assertThat(rows("adults", null)).containsExactly(row("p.name", "Charlie", "p.age", 35));
    assertThat(rows("top_by_age", null)).containsExactly(row("p.name", "Charlie", "p.age", 35),
        row("p.name", "Alice", "p.age", 30));
  }

  @Test
  void traversalsAndNegation() throws Exception {
    assertThat(rows("friends_of", "{\"name\":\"Alice\"}")).containsExactlyInAnyOrder(
        row("f.name", "Bob", "f.age", 25), row("f.name", "Charlie", "f.age", 35));
    assertThat(rows("employees_of", "{\"company\":\"Acme\"}")).containsExactly(row("p.name", "Alice"));
    assertThat(rows("friends_of_friends", "{\"name\":\"Alice\"}")).containsExactly(row("fof.name", "Diana"));
    assertThat(rows("unemployed", null)).containsExactlyInAnyOrder(row("p.name", "Charlie"), row("p.name", "Diana"));
  }

  @Test
  void aggregates() throws Exception {
    assertThat(rows("friend_counts", null)).containsExactly(row("p.name", "Alice", "friends", 2L),
        row("p.name", "Bob", "friends", 1L));
    assertThat(rows("total_people", null)).containsExactly(row("total", 4L));
    assertThat(rows("age_stats", null)).containsExactlyInAnyOrder(
        row("c.name", "Acme", "total_age", 30.0, "avg_age", 30.0, "youngest", 30, "oldest", 30, "headcount", 1L),
        row("c.name", "Globex", "total_age", 25.0, "avg_age", 25.0, "youngest", 25, "oldest", 25, "headcount", 1L));
    assertThat(rows("top_connected", null)).containsExactly(row("p.name", "Alice", "friends", 2L));
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = ReferenceFixtureTest.class.getClassLoader()
        .getResourceAsStream("reference/fixture/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
