package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The change feed ({@code GET /changes}) and its baseline handshake ({@code POST /changes/baseline})
 * on graph {@code feed}: a baseline, then three commits polled from its cursor whole, in limited pages
 * (a durable cursor only on the terminal page), from each start mode, and every refusal.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChangeFeedApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PAIR = "query pair($a: String, $b: String) {"
      + " insert Person { name: $a } insert Person { name: $b } insert Knows { from: $a, to: $b } }";

  private static String c1;
  private static String c2;
  private static String c3;
  private static String resume;
  private static String edgeResume;

  @BeforeAll
  static void initGraph() throws IOException {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.feed.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (InputStream in = ChangeFeedApiTest.class.getClassLoader().getResourceAsStream("graphs/people.pg")) {
        Omnigraph.init(StorageConfig.fromEnvironment(uri), new String(in.readAllBytes(), StandardCharsets.UTF_8),
            Optional.of("setup")).close();
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static Response poll(String query) {
    return api().get("/graphs/feed/changes" + (query.isEmpty() ? "" : "?" + query));
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static List<JsonNode> lines(String ndjson) {
    List<JsonNode> out = new ArrayList<>();
    ndjson.lines().filter(l -> !l.isBlank()).forEach(l -> out.add(json(l)));
    return out;
  }

  private static String mutate(String query, String name, Map<String, Object> params) {
    return api().contentType("application/json").body(Map.of("query", query, "name", name, "params", params))
        .post("/graphs/feed/mutate").then().statusCode(200).extract().path("commit.graph_commit_id");
  }

  /** (commit id, kind, id, op) of every change of a poll, in order. */
  private static List<String> changes(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.path("blocks").forEach(b -> b.path("changes").forEach(c -> out.add(
        b.path("cause").path("graph_commit_id").asText() + " " + c.path("kind").asText() + " "
            + c.path("id").asText() + " " + c.path("op").asText())));
    return out;
  }

  @Test
  @Order(1)
  void theBaselineStreamsTheSnapshotThenItsTerminalCursor() {
    c1 = api().contentType("application/x-ndjson")
        .body("{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}\n{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}\n"
            .getBytes(StandardCharsets.UTF_8))
        .post("/graphs/feed/load/ndjson?mode=append").then().statusCode(200).extract().path("commit.graph_commit_id");
    String body = api().contentType("application/json").body(Map.of()).post("/graphs/feed/changes/baseline")
        .then().statusCode(200).contentType("application/x-ndjson").extract().asString();
    List<JsonNode> records = lines(body);
    assertThat(records).hasSize(3);
    assertThat(records.subList(0, 2)).containsExactly(
        json("{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}"),
        json("{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}"));
    JsonNode terminal = records.get(2);
    assertThat(terminal.fieldNames()).toIterable().containsExactly("baseline");
    assertThat(terminal.path("baseline").path("snapshot_commit_id").asText()).isEqualTo(c1);
    resume = terminal.path("baseline").path("resume_cursor").asText();
    assertThat(resume).isNotBlank();

    // A scope that selects no rows streams only the terminal record; its cursor is bound to the scope.
    List<JsonNode> edges = lines(api().contentType("application/json").body(Map.of("kind", List.of("edge")))
        .post("/graphs/feed/changes/baseline").then().statusCode(200).extract().asString());
    assertThat(edges).hasSize(1);
    assertThat(edges.get(0).path("baseline").path("snapshot_commit_id").asText()).isEqualTo(c1);
    edgeResume = edges.get(0).path("baseline").path("resume_cursor").asText();

    api().contentType("application/json").body(Map.of("type", List.of("Nope")))
        .post("/graphs/feed/changes/baseline").then().statusCode(400).body("code", equalTo("bad_request"));
    api().contentType("application/json").body(Map.of("branch", "absent"))
        .post("/graphs/feed/changes/baseline").then().statusCode(404).body("code", equalTo("not_found"));
    api().contentType("application/json").body(Map.of("kind", List.of("vertex")))
        .post("/graphs/feed/changes/baseline").then().statusCode(400)
        .body("error", equalTo("'kind' must be node or edge, got 'vertex'"));
  }

  @Test
  @Order(2)
  void aPollFromTheCursorReturnsEveryLaterCommitAsBlocksAndATerminalCursor() {
    c2 = mutate("query one($n: String) { insert Person { name: $n } }", "one", Map.of("n", "cid"));
    c3 = mutate(PAIR, "pair", Map.of("a", "dee", "b", "eve"));
    String body = poll("cursor=" + resume).then().statusCode(200)
        .body("$", not(hasKey("next_page_token")))
        .body("caught_up", equalTo(true))
        .extract().asString();
    JsonNode page = json(body);
    assertThat(changes(page)).containsExactly(
        c2 + " node cid insert", c3 + " node dee insert", c3 + " node eve insert",
        c3 + " edge " + page.path("blocks").get(1).path("changes").get(2).path("id").asText() + " insert");
    assertThat(page.path("blocks").get(0).path("cause").path("parent_commit_id").asText()).isEqualTo(c1);
    assertThat(page.path("blocks").get(1).path("changes").get(2).path("after").path("endpoints"))
        .isEqualTo(json("{\"from\":\"dee\",\"to\":\"eve\"}"));
    // Each block is exactly that commit's diff.
    String commitChanges = api().get("/graphs/feed/commits/" + c3 + "/changes").then().statusCode(200)
        .extract().asString();
    assertThat(page.path("blocks").get(1)).isEqualTo(json(commitChanges));

    // The terminal cursor is caught up: the next poll is empty and keeps it usable.
    String end = page.path("cursor").asText();
    JsonNode caughtUp = json(poll("cursor=" + end).then().statusCode(200).extract().asString());
    assertThat(caughtUp.path("blocks").size()).isZero();
    assertThat(caughtUp.path("caught_up").asBoolean()).isTrue();
    assertThat(caughtUp.has("next_page_token")).isFalse();
  }

  @Test
  @Order(3)
  void aLimitedPollPagesWithATokenAndGivesTheCursorOnlyAtTheEnd() {
    JsonNode first = json(poll("limit=2&cursor=" + resume).then().statusCode(200).extract().asString());
    assertThat(first.has("cursor")).isFalse();
    assertThat(first.has("caught_up")).isFalse();
    assertThat(changes(first)).containsExactly(c2 + " node cid insert", c3 + " node dee insert");
    String token = first.path("next_page_token").asText();
    JsonNode second = json(poll("limit=2&page_token=" + token).then().statusCode(200).extract().asString());
    assertThat(changes(second)).hasSize(2).first().isEqualTo(c3 + " node eve insert");
    assertThat(second.has("next_page_token")).isFalse();
    assertThat(second.path("caught_up").asBoolean()).isTrue();
    JsonNode whole = json(poll("cursor=" + resume).then().extract().asString());
    assertThat(second.path("cursor")).isEqualTo(whole.path("cursor"));
    List<String> paged = new ArrayList<>(changes(first));
    paged.addAll(changes(second));
    assertThat(paged).isEqualTo(changes(whole));

    // A page boundary between commits: the token resumes at the next commit.
    JsonNode one = json(poll("limit=1&cursor=" + resume).then().statusCode(200).extract().asString());
    assertThat(changes(one)).containsExactly(c2 + " node cid insert");
    JsonNode rest = json(poll("limit=10&page_token=" + one.path("next_page_token").asText()).then().statusCode(200)
        .extract().asString());
    assertThat(changes(rest)).hasSize(3).first().isEqualTo(c3 + " node dee insert");
  }

  @Test
  @Order(4)
  void startModesAndScopedCursors() {
    JsonNode now = json(poll("").then().statusCode(200).extract().asString());
    assertThat(now.path("blocks").size()).isZero();
    assertThat(now.path("caught_up").asBoolean()).isTrue();
    assertThat(now.path("cursor").asText()).isNotBlank();
    JsonNode beginning = json(poll("start=beginning").then().statusCode(200).extract().asString());
    assertThat(changes(beginning)).hasSize(6).first().isEqualTo(c1 + " node ann insert");
    JsonNode after = json(poll("start=after:" + c2).then().statusCode(200).extract().asString());
    assertThat(changes(after)).hasSize(3).allMatch(c -> c.startsWith(c3));
    JsonNode edgesOnly = json(poll("cursor=" + edgeResume).then().statusCode(200).extract().asString());
    assertThat(changes(edgesOnly)).hasSize(1).allMatch(c -> c.startsWith(c3 + " edge "));
    JsonNode filtered = json(poll("start=beginning&kind=node&op=insert&type=Person").then().statusCode(200)
        .extract().asString());
    assertThat(changes(filtered)).hasSize(5);
  }

  @Test
  @Order(5)
  void refusalsHaveTheReferenceErrorShape() {
    String body = poll("cursor=" + resume + "&start=now").then().statusCode(400).extract().asString();
    assertThat(json(body)).isEqualTo(json(
        "{\"error\":\"'cursor', 'start' and 'page_token' are mutually exclusive\",\"code\":\"bad_request\"}"));
    poll("cursor=garbage").then().statusCode(400).body("error", equalTo("'cursor' is not a cursor this server issued"));
    poll("page_token=" + resume).then().statusCode(400)
        .body("error", equalTo("'page_token' is not a page_token this server issued"));
    poll("start=yesterday").then().statusCode(400)
        .body("error", equalTo("'start' must be now, beginning or after:<commit id>, got 'yesterday'"));
    poll("start=after:nope").then().statusCode(400).body("code", equalTo("bad_request"));
    poll("cursor=" + resume + "&kind=edge").then().statusCode(400).body("code", equalTo("bad_request"));
    poll("cursor=" + resume + "&branch=other").then().statusCode(400)
        .body("error", equalTo("'cursor' belongs to branch 'main', not 'other'"));
    poll("branch=absent").then().statusCode(404).body("code", equalTo("not_found"));
    poll("since=1").then().statusCode(400).body("error", equalTo(
        "unknown query parameter 'since' (allowed: branch, cursor, start, page_token, limit, kind, type, op)"));
    poll("limit=0").then().statusCode(400).body("code", equalTo("bad_request"));
    poll("limit=9000").then().statusCode(413)
        .body("resource_limit", equalTo(Map.of("resource", "commit_changes_limit", "limit", 8192, "actual", 9000)))
        // A page size, not a write: the hint says how to page (issue 45: it advised splitting "the write").
        .body("error", org.hamcrest.Matchers.containsString("follow next_page_token"))
        .body("error", not(org.hamcrest.Matchers.containsString("split the write")));
    given().get("/graphs/feed/changes").then().statusCode(401);
  }
}
