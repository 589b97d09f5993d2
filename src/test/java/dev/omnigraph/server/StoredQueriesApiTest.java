package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

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
 * The stored-query routes ({@code GET /queries}, {@code POST /queries/{name}} and its
 * {@code if-graph-commit} form) and the JSON load routes ({@code POST /load}, {@code /ingest}) on
 * graph {@code sq}, whose catalog is the two files {@link GraphsTestResource} configures. Exact
 * bodies, error cases included. The methods build on each other's commits.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StoredQueriesApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void initGraph() throws IOException {
    String uri = uriOf("sq");
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (InputStream in = StoredQueriesApiTest.class.getClassLoader().getResourceAsStream("graphs/people.pg")) {
        String schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        Omnigraph.init(StorageConfig.fromEnvironment(uri), schema, Optional.of("setup")).close();
      }
    }
  }

  private static String uriOf(String id) {
    return ConfigProvider.getConfig().getValue("omnigraph.graphs." + id + ".uri", String.class);
  }

  /** The graph's uri as the service reports it ({@code GET /graphs}). */
  private static String servedUri() {
    return api().get("/graphs").then().statusCode(200).extract().path("graphs.find { it.graph_id == 'sq' }.uri");
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static Response invoke(String name, Object body) {
    return api().contentType("application/json").body(body).post("/graphs/sq/queries/" + name);
  }

  private static Response ingest(String route, Object body) {
    return api().contentType("application/json").body(body).post("/graphs/sq/" + route);
  }

  private static String head(String branch) {
    return api().get("/graphs/sq/commits?branch=" + branch).then().statusCode(200)
        .extract().path("commits[0].graph_commit_id");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  @Order(1)
  void theCatalogListsEveryConfiguredQuerySortedWithTypedParams() {
    String body = api().get("/graphs/sq/queries").then().statusCode(200).extract().asString();
    assertThat(json(body)).isEqualTo(json("""
        {"queries":[
          {"name":"add_person","tool_name":"add_person","mutation":true,"description":null,"instruction":null,
           "params":[{"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"age","kind":"int","item_kind":null,"vector_dim":null,"nullable":true}]},
          {"name":"find_person","tool_name":"find_person","mutation":false,"description":"One person by name",
           "instruction":"Use when the user names someone",
           "params":[{"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false}]},
          {"name":"kinds","tool_name":"kinds","mutation":false,"description":null,"instruction":null,
           "params":[{"name":"s","kind":"string","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"b","kind":"bool","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"i","kind":"int","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"big","kind":"bigint","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"f","kind":"float","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"d","kind":"date","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"dt","kind":"datetime","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"opt","kind":"string","item_kind":null,"vector_dim":null,"nullable":true},
                     {"name":"list","kind":"list","item_kind":"int","vector_dim":null,"nullable":false},
                     {"name":"v","kind":"vector","item_kind":null,"vector_dim":3,"nullable":false}]},
          {"name":"mixed","tool_name":"mixed","mutation":true,"description":null,"instruction":null,
           "params":[{"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false}]},
          {"name":"set_age","tool_name":"set_age","mutation":true,"description":null,"instruction":null,
           "params":[{"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false},
                     {"name":"age","kind":"int","item_kind":null,"vector_dim":null,"nullable":true}]}
        ]}"""));
    // A graph without configured queries has an empty catalog; an unknown graph is 404.
    api().get("/graphs/g/queries").then().statusCode(200).body("queries", equalTo(List.of()));
    api().get("/graphs/nope/queries").then().statusCode(404).body("code", equalTo("not_found"));
    given().get("/graphs/sq/queries").then().statusCode(401).body("code", equalTo("unauthorized"));
  }

  @Test
  @Order(2)
  void theJsonLoadRunsTheNdjsonLoaderAndAnswersIngestOutput() {
    String genesis = head("main");
    String body = ingest("load", Map.of("data", """
        {"type":"Person","data":{"name":"ann","age":30}}
        {"type":"Person","data":{"name":"ben","age":40}}
        {"edge":"Knows","from":"ann","to":"ben","data":{}}
        """, "mode", "append")).then().statusCode(200)
        .body("commit.parent_commit_id", equalTo(genesis))
        .body("commit", hasKey("graph_branch"))
        .body("commit.graph_branch", nullValue())
        .extract().asString();
    JsonNode out = json(body);
    String commit = out.path("commit").path("graph_commit_id").asText();
    ((com.fasterxml.jackson.databind.node.ObjectNode) out).remove("commit");
    assertThat(out).isEqualTo(json("""
        {"uri":%s,"branch":"main","branch_created":false,"mode":"append",
         "nodes":[{"name":"Person","entities_loaded":2}],"edges":[{"name":"Knows","entities_loaded":1}],
         "total_entities":3,"actor_id":"alice","base_branch":null}""".formatted(JSON.valueToTree(servedUri()))));
    assertThat(head("main")).isEqualTo(commit);

    // The alias: same semantics, default mode merge (an upsert of ann), a fork with `from`.
    ingest("ingest", Map.of("data", "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":31}}\n",
        "branch", "feature", "from", "main")).then().statusCode(200)
        .body("uri", equalTo(servedUri()))
        .body("branch", equalTo("feature"))
        .body("branch_created", equalTo(true))
        .body("base_branch", equalTo("main"))
        .body("mode", equalTo("merge"))
        .body("total_entities", equalTo(1))
        .body("commit.graph_branch", equalTo("feature"));
    assertThat(head("main")).isEqualTo(commit);
  }

  @Test
  @Order(3)
  void jsonLoadErrorsHaveTheReferenceShape() {
    String before = head("main");
    ingest("load", Map.of("mode", "append")).then().statusCode(400)
        .body("error", equalTo("'data' (the NDJSON records, one per line) is required"))
        .body("code", equalTo("bad_request"));
    ingest("load", Map.of("data", "", "mode", "upsert")).then().statusCode(400)
        .body("error", equalTo("unknown load mode 'upsert' (append, merge, overwrite)"));
    ingest("load", Map.of("data", "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n", "mode", "append"))
        .then().statusCode(409)
        .body("code", equalTo("conflict"))
        .body("key_conflict", equalTo(Map.of("entity_kind", "node", "type_name", "Person", "entity_id", "ann")));
    ingest("load", Map.of("data", "{\"type\":\"Person\",\"data\":{\"name\":\"x\"}} junk\n")).then().statusCode(400)
        .body("error", containsString("line 1: unexpected content after the JSON object"));
    ingest("load", Map.of("data", "{\"type\":\"Person\",\"data\":{\"name\":\"x\"}}\n", "branch", "absent"))
        .then().statusCode(404).body("code", equalTo("not_found"));
    // The JSON envelopes carry a graph batch: the load limit (32 MiB), not the 1 MiB JSON one, applies.
    assertThat(BodyLimits.isNdjsonLoad("/graphs/sq/load")).isTrue();
    assertThat(BodyLimits.isNdjsonLoad("/graphs/sq/ingest")).isTrue();
    assertThat(BodyLimits.isNdjsonLoad("/graphs/sq/query")).isFalse();
    assertThat(head("main")).isEqualTo(before);
  }

  @Test
  @Order(10)
  void aStoredReadAnswersReadOutput() {
    String head = head("main");
    String body = invoke("find_person", Map.of("params", Map.of("name", "ann"))).then().statusCode(200)
        .extract().asString();
    assertThat(json(body)).isEqualTo(json("""
        {"query_name":"find_person","target":{"branch":"main","snapshot":null},"row_count":1,
         "columns":["name","age"],"rows":[{"name":"ann","age":30}],"graph_commit_id":"%s"}""".formatted(head)));
    // branch and snapshot select the view as on /query.
    invoke("find_person", Map.of("params", Map.of("name", "ann"), "branch", "feature")).then().statusCode(200)
        .body("rows", equalTo(List.of(Map.of("name", "ann", "age", 31))));
    invoke("find_person", Map.of("params", Map.of("name", "ann"), "snapshot", head, "expect_mutation", false))
        .then().statusCode(200)
        .body("target.snapshot", equalTo(head))
        .body("rows", equalTo(List.of(Map.of("name", "ann", "age", 30))));
  }

  @Test
  @Order(11)
  void aStoredMutationAnswersChangeOutputAndCommits() {
    String before = head("main");
    invoke("add_person", Map.of("params", Map.of("name", "cid", "age", 5), "expect_mutation", true))
        .then().statusCode(200)
        .body("branch", equalTo("main"))
        .body("query_name", equalTo("add_person"))
        .body("affected_nodes", equalTo(1))
        .body("affected_edges", equalTo(0))
        .body("actor_id", equalTo("alice"))
        .body("commit.parent_commit_id", equalTo(before));
    invoke("find_person", Map.of("params", Map.of("name", "cid"))).then().statusCode(200)
        .body("rows", equalTo(List.of(Map.of("name", "cid", "age", 5))));
  }

  @Test
  @Order(12)
  void conditionalStoredMutationsHaveTheirOwnRoute() {
    String head = head("main");
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("params", Map.of("name", "cid", "age", 6))).post("/graphs/sq/queries/set_age")
        .then().statusCode(400)
        .body("error", equalTo(GraphResource.IF_GRAPH_COMMIT + " is not accepted here; send conditional stored"
            + " mutations to POST /graphs/sq/queries/set_age/if-graph-commit"));
    // An empty header line too: it is never read as "no condition" (the write would run unconditionally).
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, "")
        .body(Map.of("params", Map.of("name", "cid", "age", 6))).post("/graphs/sq/queries/set_age")
        .then().statusCode(400)
        .body("error", equalTo(GraphResource.IF_GRAPH_COMMIT + " is not accepted here; send conditional stored"
            + " mutations to POST /graphs/sq/queries/set_age/if-graph-commit"));
    api().contentType("application/json").body(Map.of("params", Map.of("name", "cid", "age", 6)))
        .post("/graphs/sq/queries/set_age/if-graph-commit").then().statusCode(400)
        .body("error", containsString(GraphResource.IF_GRAPH_COMMIT));
    String landed = api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("params", Map.of("name", "cid", "age", 6))).post("/graphs/sq/queries/set_age/if-graph-commit")
        .then().statusCode(200)
        .body("affected_nodes", equalTo(1))
        .body("commit.parent_commit_id", equalTo(head))
        .extract().path("commit.graph_commit_id");
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("params", Map.of("name", "cid", "age", 7))).post("/graphs/sq/queries/set_age/if-graph-commit")
        .then().statusCode(412)
        .body("$", not(hasKey("code")))
        .body("precondition_failure", equalTo(Map.of("expected", head, "actual", landed)));
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, "W/\"" + landed + "\"")
        .body(Map.of("params", Map.of("name", "cid", "age", 7))).post("/graphs/sq/queries/set_age/if-graph-commit")
        .then().statusCode(400);
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, landed)
        .body(Map.of("params", Map.of("name", "ann"))).post("/graphs/sq/queries/find_person/if-graph-commit")
        .then().statusCode(400)
        .body("error", equalTo("stored query 'find_person' is a read query; " + GraphResource.IF_GRAPH_COMMIT
            + " conditions stored mutations only"));
    assertThat(head("main")).isEqualTo(landed);
  }

  @Test
  @Order(13)
  void invocationErrorsHaveTheReferenceShape() {
    String before = head("main");
    String body = invoke("nope", Map.of()).then().statusCode(404).extract().asString();
    assertThat(json(body)).isEqualTo(json("""
        {"error":"stored query not found: nope (GET /graphs/{graph_id}/queries lists them)","code":"not_found"}"""));
    api().contentType("application/json").body(Map.of()).post("/graphs/g/queries/find_person").then()
        .statusCode(404).body("error", equalTo("stored query not found: find_person (this graph has no stored queries)"));
    // A parameter of the wrong type, a missing one, an unknown field type: 400 before any effect.
    invoke("set_age", Map.of("params", Map.of("name", "cid", "age", "old"))).then().statusCode(400)
        .body("code", equalTo("bad_request")).body("error", containsString("age"));
    invoke("find_person", Map.of("params", Map.of())).then().statusCode(400)
        .body("code", equalTo("bad_request")).body("error", containsString("name"));
    api().contentType("application/json").body("null").post("/graphs/sq/queries/find_person").then()
        .statusCode(400).body("error", containsString("name"));
    invoke("find_person", Map.of("params", "ann")).then().statusCode(400);
    invoke("find_person", "{\"params\":{\"name\":\"ann\"},\"branch\":{\"name\":\"main\"}}").then().statusCode(400)
        .body("error", containsString("field 'branch' must be a string"));
    // The kind the caller asserts must be the stored query's.
    invoke("set_age", Map.of("params", Map.of("name", "cid", "age", 1), "expect_mutation", false)).then()
        .statusCode(400).body("error", equalTo("stored query 'set_age' is a mutation, but the request expects a"
            + " read query"));
    invoke("find_person", Map.of("params", Map.of("name", "ann"), "expect_mutation", true)).then()
        .statusCode(400).body("error", equalTo("stored query 'find_person' is a read query, but the request"
            + " expects a mutation"));
    invoke("set_age", Map.of("params", Map.of("name", "cid", "age", 1), "snapshot", before)).then()
        .statusCode(400).body("error", equalTo("'snapshot' is for read queries; stored query 'set_age' is a"
            + " mutation (it writes the head of 'branch')"));
    // D₂ is checked for the query invoked: the mixed one is refused, its file's others still serve.
    invoke("mixed", Map.of("params", Map.of("name", "zed"))).then().statusCode(400)
        .body("code", equalTo("bad_request"));
    invoke("add_person", Map.of("params", Map.of("name", "dee"))).then().statusCode(200)
        .body("affected_nodes", equalTo(1));
  }
}
