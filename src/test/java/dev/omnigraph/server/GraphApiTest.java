package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.util.FailpointControl;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Every {@code /graphs} route and every error mapping, produced by real engine outcomes on real
 * local graphs (Lance datasets in temp directories; no engine is mocked). The methods run in order
 * and build on each other's commits on graph {@code g}.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GraphApiTest {

  private static final String PEOPLE_GQ = resource("graphs/people.gq");
  private static final String READS = """
      query everyone() {
        match { $p: Person }
        return { $p.name, $p.age }
        order { $p.name }
      }

      query friends($name: String) {
        match { $p: Person { name: $name }  $p knows $f }
        return { $f.name }
        order { $f.name }
      }
      """;

  @Inject GraphRegistry registry;
  @io.quarkus.test.common.http.TestHTTPResource("/") java.net.URL server;

  @BeforeAll
  static void initGraphs() {
    String schema = resource("graphs/people.pg");
    for (String id : List.of("g", "copy", "r")) {
      String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs." + id + ".uri", String.class);
      if (!Files.exists(Path.of(uri, "__manifest"))) {
        Omnigraph.init(StorageConfig.fromEnvironment(uri), schema, Optional.of("setup")).close();
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static Response load(String graph, String mode, String query, String ndjson) {
    return api().contentType("application/x-ndjson").body(ndjson.getBytes(StandardCharsets.UTF_8))
        .post("/graphs/" + graph + "/load/ndjson?mode=" + mode + (query.isEmpty() ? "" : "&" + query));
  }

  private static Response mutate(String name, String params) {
    return api().contentType("application/json")
        .body(Map.of("query", PEOPLE_GQ, "name", name, "params", json(params)))
        .post("/graphs/g/mutate");
  }

  private static Response read(String graph, Map<String, Object> body) {
    return api().contentType("application/json").body(body).post("/graphs/" + graph + "/query");
  }

  private static String head(String graph, String branch) {
    return api().get("/graphs/" + graph + "/commits?branch=" + branch).then().statusCode(200)
        .extract().path("commits[0].graph_commit_id");
  }

  @Test
  @Order(40)
  void aBranchMergeAnswersTheReferenceShapesAndConflictsAre409WithTheirList() {
    load("g", "append", "branch=merge-a&from=main", "{\"type\":\"Person\",\"data\":{\"name\":\"zz_merge\",\"age\":1}}\n")
        .then().statusCode(200);
    load("g", "append", "branch=merge-b&from=main", "{\"type\":\"Person\",\"data\":{\"name\":\"zz_merge\",\"age\":2}}\n")
        .then().statusCode(200);
    String before = head("g", "merge-b");
    api().contentType("application/json").body(Map.of("source", "merge-a", "target", "merge-b"))
        .post("/graphs/g/branches/merge").then().statusCode(409)
        .body("code", equalTo("conflict"))
        .body("merge_conflicts", hasSize(1))
        .body("merge_conflicts[0].kind", equalTo("divergent_insert"))
        .body("merge_conflicts[0].entity_kind", equalTo("node"))
        .body("merge_conflicts[0].type_name", equalTo("Person"))
        .body("merge_conflicts[0].entity_id", equalTo("zz_merge"))
        .body("merge_conflicts[0].message", notNullValue());
    assertThat(head("g", "merge-b")).isEqualTo(before);

    load("g", "append", "branch=merge-c&from=main", "{\"type\":\"Person\",\"data\":{\"name\":\"zz_c\"}}\n")
        .then().statusCode(200);
    api().contentType("application/json").body(Map.of("source", "merge-c", "target", "merge-a", "delete_branch", true))
        .post("/graphs/g/branches/merge").then().statusCode(200)
        .body("source", equalTo("merge-c"))
        .body("target", equalTo("merge-a"))
        .body("outcome", equalTo("merged"))
        .body("actor_id", equalTo("alice"))
        .body("branch_deleted", equalTo(true))
        .body("$", not(hasKey("branch_delete_error")));
    assertThat(api().get("/graphs/g/commits?branch=merge-a").then().extract()
        .<String>path("commits[0].merged_parent_commit_id")).isNotNull();
    assertThat(api().get("/graphs/g/branches").then().extract().<List<String>>path("branches"))
        .doesNotContain("merge-c");
    api().contentType("application/json").body(Map.of("source", "merge-a", "target", "merge-a"))
        .post("/graphs/g/branches/merge").then().statusCode(400);
    api().contentType("application/json").body(Map.of("target", "main"))
        .post("/graphs/g/branches/merge").then().statusCode(400);
  }

  @Test
  @Order(41)
  void commitChangesAnswerTheReferenceShapesPagedAndRefuseTheGenesisCommit() {
    load("g", "append", "branch=diff-a&from=main", "{\"type\":\"Person\",\"data\":{\"name\":\"zz_diff1\",\"age\":7}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":\"zz_diff2\"}}\n").then().statusCode(200);
    String commit = head("g", "diff-a");
    api().get("/graphs/g/commits/" + commit + "/changes").then().statusCode(200)
        .body("cause.graph_commit_id", equalTo(commit))
        .body("cause.authored_branch", equalTo("diff-a"))
        .body("cause.actor_id", equalTo("alice"))
        .body("cause.authored_at", notNullValue())
        .body("changes", hasSize(2))
        .body("changes[0].kind", equalTo("node"))
        .body("changes[0].type.name", equalTo("Person"))
        .body("changes[0].type.id", notNullValue())
        .body("changes[0].id", equalTo("zz_diff1"))
        .body("changes[0].op", equalTo("insert"))
        .body("changes[0].after.properties.age", equalTo(7))
        .body("changes[0]", not(hasKey("before")))
        .body("changes[1].id", equalTo("zz_diff2"))
        .body("$", not(hasKey("next_page_token")));
    String token = api().get("/graphs/g/commits/" + commit + "/changes?limit=1").then().statusCode(200)
        .body("changes", hasSize(1)).body("changes[0].id", equalTo("zz_diff1"))
        .extract().path("next_page_token");
    api().queryParam("limit", 1).queryParam("page_token", token).get("/graphs/g/commits/" + commit + "/changes")
        .then().statusCode(200).body("changes[0].id", equalTo("zz_diff2")).body("$", not(hasKey("next_page_token")));
    api().get("/graphs/g/commits/" + commit + "/changes?op=delete").then().statusCode(200).body("changes", hasSize(0));
    api().get("/graphs/g/commits/" + commit + "/changes?limit=8193").then().statusCode(413)
        .body("resource_limit.limit", equalTo(8192));
    api().get("/graphs/g/commits/" + commit + "/changes?opp=insert").then().statusCode(400)
        .body("error", containsString("unknown query parameter 'opp'"));
    api().get("/graphs/g/commits/" + commit + "/changes?op=upsert").then().statusCode(400);
    api().get("/graphs/g/commits/01NOSUCH/changes").then().statusCode(404);
    List<String> ids = api().get("/graphs/g/commits?branch=main&limit=1000").then().extract().path("commits.graph_commit_id");
    String genesis = ids.get(ids.size() - 1);
    api().get("/graphs/g/commits/" + genesis + "/changes").then().statusCode(409)
        .body("code", equalTo("conflict"))
        .body("change_diff_refusal.reason", equalTo("parentless_commit"))
        .body("change_diff_refusal.graph_commit_id", equalTo(genesis));
  }

  // --- registry, auth, embedded example -------------------------------------------------------

  @Test
  @Order(1)
  void graphsAreListedSortedWithTheirUris() {
    api().get("/graphs").then().statusCode(200)
        .body("graphs.graph_id", equalTo(List.of("apply", "applycli", "authz", "blob", "blobw", "bodies", "cli", "copy", "default", "empty", "feed", "fuzz",
            "g", "idx", "idxcli", "r", "sq")))
        .body("graphs.find { it.graph_id == 'g' }.uri", equalTo(uriOf("g")));
  }

  @Test
  @Order(2)
  void everyGraphRouteNeedsAKnownBearerToken() {
    given().get("/graphs").then().statusCode(401)
        .header("WWW-Authenticate", "Bearer")
        .body("code", equalTo("unauthorized"))
        .body("error", containsString("missing bearer token"));
    given().header("Authorization", "Bearer not-a-token").get("/graphs/g/snapshot").then().statusCode(401)
        .body("code", equalTo("unauthorized")).body("error", equalTo("invalid bearer token"));
    given().header("Authorization", "Basic " + GraphsTestResource.ALICE_TOKEN).get("/graphs").then().statusCode(401);
    // A prefix of a valid token is not the token.
    given().header("Authorization", "Bearer alice-secret").get("/graphs").then().statusCode(401);
    // bob's hash is configured in upper case: hashes are compared as bytes.
    given().header("Authorization", "Bearer " + GraphsTestResource.BOB_TOKEN).get("/graphs").then().statusCode(200);
    given().get("/healthz").then().statusCode(200);
    given().get("/q/health/live").then().statusCode(200);
    given().get("/q/metrics").then().statusCode(200);
  }

  @Test
  @Order(3)
  void theEmbeddedDefaultIsTheExampleGraphCreatedOnFirstUse() {
    read("default", Map.of("query", "query q() { match { $p: Person } return { $p.name } order { $p.name } }"))
        .then().statusCode(200)
        .body("query_name", equalTo("q"))
        .body("rows.'p.name'", equalTo(List.of("alice", "bob", "carol")));
    api().get("/graphs/default/commits").then().statusCode(200)
        .body("commits.size()", equalTo(2))
        .body("commits.actor_id", equalTo(List.of(ServedGraph.EXAMPLE_ACTOR, ServedGraph.EXAMPLE_ACTOR)));
  }

  @Test
  @Order(4)
  void unknownAndUninitializedGraphsAre404() {
    api().get("/graphs/empty/snapshot").then().statusCode(404)
        .body("code", equalTo("not_found"))
        .body("error", containsString("not initialized"))
        .body("error", containsString("bin/omnigraph init --schema"));
    api().get("/graphs/nope/schema").then().statusCode(404)
        .body("code", equalTo("not_found"))
        .body("error", containsString("graph not found: nope"));
  }

  // --- writes and reads on g ------------------------------------------------------------------

  @Test
  @Order(10)
  void aLoadIsOneCommitByTheTokensActor() {
    String genesis = head("g", "main");
    load("g", "append", "", """
        {"type":"Person","data":{"name":"ann","age":30}}
        {"type":"Person","data":{"name":"ben","age":40}}
        {"type":"Person","data":{"name":"cat"}}
        {"edge":"Knows","from":"ann","to":"ben","data":{"since":2020}}
        """).then().statusCode(200)
        .body("branch", equalTo("main"))
        .body("branch_created", equalTo(false))
        .body("base_branch", nullValue())
        .body("mode", equalTo("append"))
        .body("nodes", equalTo(List.of(Map.of("name", "Person", "entities_loaded", 3))))
        .body("edges", equalTo(List.of(Map.of("name", "Knows", "entities_loaded", 1))))
        .body("total_entities", equalTo(4))
        .body("actor_id", equalTo("alice"))
        .body("commit.actor_id", equalTo("alice"))
        .body("commit.parent_commit_id", equalTo(genesis))
        // Main is the absence of graph-branch metadata in the reference: present, and null.
        .body("commit", hasKey("graph_branch"))
        .body("commit.graph_branch", nullValue());
    assertThat(api().get("/graphs/g/commits").then().extract().<String>path("commits[0].actor_id")).isEqualTo("alice");
  }

  @Test
  @Order(11)
  void aQueryReturnsTheReferenceReadOutput() {
    String head = head("g", "main");
    read("g", Map.of("query", READS, "name", "friends", "params", Map.of("name", "ann")))
        .then().statusCode(200)
        .body("query_name", equalTo("friends"))
        .body("target.branch", equalTo("main"))
        .body("target", hasKey("snapshot"))
        .body("target.snapshot", nullValue())
        .body("row_count", equalTo(1))
        .body("columns", equalTo(List.of("f.name")))
        .body("rows", equalTo(List.of(Map.of("f.name", "ben"))))
        .body("graph_commit_id", equalTo(head));
    // One declaration: the name may be omitted.
    read("g", Map.of("query", "query only() { match { $p: Person } return { count($p) as n } }"))
        .then().statusCode(200).body("query_name", equalTo("only")).body("rows[0].n", equalTo(3));
  }

  @Test
  @Order(12)
  void aMutationReportsAffectedRowsAndItsCommit() {
    String before = head("g", "main");
    api().contentType("application/json")
        // actor_id in the body is not a field of ChangeRequest and never sets the actor.
        .body(Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "dan", "age", 7),
            "actor_id", "mallory"))
        .post("/graphs/g/mutate").then().statusCode(200)
        .body("branch", equalTo("main"))
        .body("query_name", equalTo("add_person"))
        .body("affected_nodes", equalTo(1))
        .body("affected_edges", equalTo(0))
        .body("actor_id", equalTo("alice"))
        .body("commit.actor_id", equalTo("alice"))
        .body("commit.parent_commit_id", equalTo(before))
        .body("commit.graph_commit_id", not(equalTo(before)));
    mutate("set_age", "{\"name\":\"dan\",\"age\":8}").then().statusCode(200)
        .body("affected_nodes", equalTo(1)).body("affected_edges", equalTo(0));
    // The legacy field names are accepted.
    api().contentType("application/json")
        .body(Map.of("query_source", PEOPLE_GQ, "query_name", "set_age", "params", Map.of("name", "dan", "age", 9)))
        .post("/graphs/g/mutate").then().statusCode(200).body("query_name", equalTo("set_age"));
  }

  @Test
  @Order(13)
  void conditionalMutationsHaveTheirOwnRoute() {
    String head = head("g", "main");
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "eve")))
        .post("/graphs/g/mutate").then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", containsString("mutate/if-graph-commit"));
    api().contentType("application/json")
        .body(Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "eve")))
        .post("/graphs/g/mutate/if-graph-commit").then().statusCode(400)
        .body("error", containsString(GraphResource.IF_GRAPH_COMMIT));
    String landed = api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "eve")))
        .post("/graphs/g/mutate/if-graph-commit").then().statusCode(200)
        .body("commit.parent_commit_id", equalTo(head))
        .extract().path("commit.graph_commit_id");
    api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, head)
        .body(Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "fay")))
        .post("/graphs/g/mutate/if-graph-commit").then().statusCode(412)
        // As the reference: no code (ErrorCode is closed there), precondition_failure is the discriminator.
        .body("$", not(hasKey("code")))
        .body("precondition_failure.expected", equalTo(head))
        .body("precondition_failure.actual", equalTo(landed));
    assertThat(head("g", "main")).isEqualTo(landed);
  }

  @Test
  @Order(13)
  void anIfGraphCommitThatIsNotOneRawCommitIdIs400AndWritesNothing() {
    String head = head("g", "main");
    Map<String, Object> body = Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "gus"));
    for (String value : List.of("W/\"" + head + "\"", "\"" + head + "\"", head + ", " + head, "*", " ")) {
      api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, value).body(body)
          .post("/graphs/g/mutate/if-graph-commit").then().statusCode(400)
          .body("code", equalTo("bad_request"))
          .body("error", containsString(GraphResource.IF_GRAPH_COMMIT));
    }
    // Two header lines, each a plain id: still not one condition.
    api().contentType("application/json")
        .headers(new io.restassured.http.Headers(new io.restassured.http.Header(GraphResource.IF_GRAPH_COMMIT, head),
            new io.restassured.http.Header(GraphResource.IF_GRAPH_COMMIT, head)))
        .body(body).post("/graphs/g/mutate/if-graph-commit").then().statusCode(400)
        .body("error", containsString("exactly once"));
    assertThat(head("g", "main")).isEqualTo(head);
  }

  @Test
  @Order(13)
  void aRevertWithoutATargetIs400AndWritesNothing() {
    String head = head("g", "main");
    for (String body : List.of("{\"to\":\"\"}", "{\"to\":\"   \"}", "{}")) {
      api().contentType("application/json").body(body)
          .post("/graphs/g/branches/main/revert").then().statusCode(400)
          .body("code", equalTo("bad_request"))
          .body("error", equalTo("'to' is required"));
    }
    assertThat(head("g", "main")).isEqualTo(head);
  }

  @Test
  @Order(13)
  void anEmptyIfGraphCommitIs400NamingTheHeaderOnEveryConditionalRoute() {
    // As the reference's parser: an empty value names no commit, so it is a malformed request (400),
    // never a condition no head can meet (412).
    String head = head("g", "main");
    Map<String, Object> body = Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "hal"));
    for (String value : List.of("", " ")) {
      // The unconditional route refuses the header line whatever its value, as the reference does.
      api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, value).body(body)
          .post("/graphs/g/mutate").then().statusCode(400)
          .body("code", equalTo("bad_request"))
          .body("error", containsString("mutate/if-graph-commit"));
      api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, value).body(body)
          .post("/graphs/g/mutate/if-graph-commit").then().statusCode(400)
          .body("code", equalTo("bad_request"))
          .body("error", equalTo(GraphResource.IF_GRAPH_COMMIT + " must name a graph commit id"));
      api().contentType("application/json").header(GraphResource.IF_GRAPH_COMMIT, value)
          .body(Map.of("to", head)).post("/graphs/g/branches/main/revert").then().statusCode(400)
          .body("code", equalTo("bad_request"))
          .body("error", equalTo(GraphResource.IF_GRAPH_COMMIT + " must name a graph commit id"));
    }
    assertThat(head("g", "main")).isEqualTo(head);
  }

  @Test
  @Order(14)
  void aKeyedMutationInsertUpsertsWhileAStrictAppendOfAnExistingKeyIs409WithTheExactId() {
    // Was a 409 too: a keyed node insert is an upsert by its derived id in the reference (issue 13).
    int people = api().get("/graphs/g/snapshot").then().extract()
        .path("datasets.find { it.type_name == 'Person' }.entity_count");
    mutate("add_person", "{\"name\":\"ann\",\"age\":30}").then().statusCode(200)
        .body("affected_nodes", equalTo(1));
    api().get("/graphs/g/snapshot").then()
        .body("datasets.find { it.type_name == 'Person' }.entity_count", equalTo(people));
    load("g", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}\n").then().statusCode(409)
        .body("code", equalTo("conflict"))
        .body("key_conflict.entity_kind", equalTo("node"))
        .body("key_conflict.type_name", equalTo("Person"))
        .body("key_conflict.entity_id", equalTo("ben"));
  }

  @Test
  @Order(15)
  void anAuthorityMovedBetweenPrepareAndGateIs409ReadSetConflict() throws Exception {
    String before = head("g", "main");
    AtomicBoolean once = new AtomicBoolean();
    AtomicReference<String> concurrent = new AtomicReference<>();
    Omnigraph g = registry.get("g").handle();
    try (AutoCloseable fp = FailpointControl.enable("write.after_prepare", () -> {
      if (once.compareAndSet(false, true)) {
        concurrent.set(g.mutate("main", PEOPLE_GQ, "add_person", json("{\"name\":\"gus\"}"), Optional.of("bob"),
            Optional.empty()).commitId().orElseThrow());
      }
    })) {
      mutate("set_age", "{\"name\":\"ann\",\"age\":31}").then().statusCode(409)
          .body("code", equalTo("conflict"))
          .body("read_set_conflict.member", equalTo("graph_head:main"))
          .body("read_set_conflict.expected", equalTo(before))
          .body("read_set_conflict.actual", equalTo(concurrent.get()));
    }
    read("g", Map.of("query", READS, "name", "everyone")).then().statusCode(200)
        .body("rows.find { it.'p.name' == 'ann' }.'p.age'", equalTo(30));
  }

  @Test
  @Order(16)
  void deletingANodeCountsItsCascadedEdges() {
    mutate("add_pair", "{\"a\":\"hal\",\"b\":\"ivy\",\"since\":1}").then().statusCode(200)
        .body("affected_nodes", equalTo(2)).body("affected_edges", equalTo(1));
    mutate("forget", "{\"name\":\"hal\"}").then().statusCode(200)
        .body("affected_nodes", equalTo(1)).body("affected_edges", equalTo(1));
  }

  @Test
  @Order(17)
  void morethan8192KeyedRowsIs413() {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 8_193; i++) {
      rows.append("{\"type\":\"Person\",\"data\":{\"name\":\"bulk").append(i).append("\"}}\n");
    }
    String head = head("g", "main");
    load("g", "append", "", rows.toString()).then().statusCode(413)
        .body("code", equalTo("bad_request"))
        .body("resource_limit.resource", equalTo("rows:node:Person"))
        .body("resource_limit.limit", equalTo(8192))
        .body("resource_limit.actual", equalTo(8193));
    assertThat(head("g", "main")).isEqualTo(head);
  }

  @Test
  @Order(18)
  void badRequestsAre400WithThePosition() {
    read("g", Map.of("query", "query q() {\n  match { $p: Person }\n  return { $p.nope }\n}\n"))
        .then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", matchesPattern("^3:\\d+: query 'q': .*"));
    read("g", Map.of("query", "query q() {\n  match { $p Person }\n}\n")).then().statusCode(400)
        .body("error", matchesPattern("^2:\\d+: .*"));
    read("g", Map.of("query", READS, "name", "friends", "params", Map.of("age", 1))).then().statusCode(400)
        .body("error", containsString("parameter $age"));
    read("g", Map.of("query", READS)).then().statusCode(400)
        .body("error", containsString("'name' is required: the query declares everyone, friends"));
    read("g", Map.of("query", READS, "name", "nobody")).then().statusCode(400)
        .body("error", containsString("no query named 'nobody'"));
    read("g", Map.of("query", PEOPLE_GQ, "name", "add_person", "params", Map.of("name", "x"))).then().statusCode(400)
        .body("error", containsString("is a mutation"));
    read("g", Map.of("query", READS, "name", "everyone", "branch", "main", "snapshot", head("g", "main")))
        .then().statusCode(400).body("error", containsString("not both"));
    load("g", "merge", "", "{\"type\":\"Person\",\"data\":{\"name\":\"ok\"}}\n{\"type\":\"Robot\"}\n")
        .then().statusCode(400).body("error", startsWith("line 2: unknown node type 'Robot'"));
    load("g", "sideways", "", "{}").then().statusCode(400).body("error", containsString("unknown load mode"));
    api().contentType("application/json").body("{\"query\": ").post("/graphs/g/query").then().statusCode(400)
        .body("code", equalTo("bad_request"));
    api().contentType("application/json").post("/graphs/g/query").then().statusCode(400)
        .body("code", equalTo("bad_request"));
    api().contentType("application/json").body("{}").post("/graphs/g/load/ndjson").then().statusCode(415)
        .body("code", equalTo("bad_request"));
  }

  /**
   * Before: malformed JSON was a bare "HTTP 400 Bad Request", and a wrong-shape body named Java classes
   * ({@code java.lang.String}, {@code Requests$QueryRequest}). Now: the normal error body, the position,
   * and the field with the JSON type it takes.
   */
  @Test
  @Order(18)
  void unreadableJsonBodiesAre400InTheClientsTerms() {
    for (String route : List.of("/graphs/g/query", "/graphs/g/mutate", "/graphs/g/branches", "/graphs/g/export")) {
      String error = api().contentType("application/json").body("{\n  \"query\": \"x\",\n  oops }")
          .post(route).then().statusCode(400).contentType("application/json")
          .body("code", equalTo("bad_request"))
          .extract().path("error");
      // In our words (issue 44 item 7): the JSON library's own text named its internals.
      assertThat(error).as(route).isEqualTo("malformed JSON in request body at line 3, column 3: not valid JSON");
    }
    api().contentType("application/json").body("{\"query\": ").post("/graphs/g/query").then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("malformed JSON in request body at line 1, column 11: the JSON ends before it is"
            + " complete (an object, array or string is left open)"));
    api().contentType("application/json").body("{\"query\": {\"a\": 1}}").post("/graphs/g/query")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("invalid request body at line 1, column 11: field 'query' must be a string"));
    // A scalar of the wrong type is not coerced into a string (issue 45): {"query":5} named the
    // field only once it failed to parse as GQ, {"branch":7} read branch "7".
    api().contentType("application/json").body("{\"query\": 5}").post("/graphs/g/query")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("invalid request body at line 1, column 11: field 'query' must be a string"));
    api().contentType("application/json").body("{\"query\": \"query q() { match { $p: Person } return { $p.name } }\","
        + " \"branch\": 7}").post("/graphs/g/query")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("field 'branch' must be a string"));
    api().contentType("application/json").body("{\"source\": \"x\", \"target\": \"main\", \"delete_branch\": \"yes\"}")
        .post("/graphs/g/branches/merge").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("field 'delete_branch' must be"));
    api().contentType("application/json").body("[1, 2]").post("/graphs/g/mutate")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("invalid request body at line 1, column 1: the body must be an object"));
    api().contentType("application/json").body("{\"type_names\": {\"x\": 1}}").post("/graphs/g/export")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("invalid request body at line 1, column 16: field 'type_names' must be an array"));
    api().contentType("application/json").body("{\"name\": [\"b\"]}").post("/graphs/g/branches")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("invalid request body at line 1, column 10: field 'name' must be a string"));
    // Nesting past the JSON reader's limit: a 400 naming the limit, not Jackson's setting.
    api().contentType("application/json").body("{\"params\": " + "[".repeat(2_000) + "]".repeat(2_000) + "}")
        .post("/graphs/g/query").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", startsWith("malformed JSON in request body"))
        .body("error", not(containsString("StreamReadConstraints")))
        .body("error", not(containsString("`")));
  }

  /**
   * Found by HttpRequestFuzzTest: a key repeated after every field of the request record had been
   * read ({@code {"branch":"main","type_names":[],"branch":""}}) made Jackson throw
   * InvalidDefinitionException, which Quarkus's own mapper answered 500 with an empty body; before
   * that point the last value silently won. Now a repeated key is a 400 naming it and its position
   * (the second occurrence's start),
   * and a value after the body's object is refused rather than ignored.
   */
  @Test
  @Order(18)
  void repeatedKeysAndTrailingContentAre400() {
    String head = head("g", "main");
    api().contentType("application/json").body("{\"branch\":\"main\",\"type_names\":[],\"branch\":\"\"}")
        .post("/graphs/g/export").then().statusCode(400).contentType("application/json")
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("malformed JSON in request body at line 1, column 34: field 'branch' appears twice in one"
            + " object"));
    api().contentType("application/json").body("{\"name\":\"dup1\",\"from\":\"main\",\"name\":\"dup2\"}")
        .post("/graphs/g/branches").then().statusCode(400).body("error", containsString("field 'name' appears twice in one object"));
    // Before the creator had all its fields: the last value used to win, unnoticed.
    api().contentType("application/json")
        .body("{\"name\":\"friends\",\"name\":\"everyone\",\"query\":" + quoted(READS) + "}")
        .post("/graphs/g/query").then().statusCode(400).body("error", containsString("field 'name' appears twice in one object"));
    api().contentType("application/json").body("{\"query\":" + quoted(PEOPLE_GQ)
            + ",\"name\":\"add_person\",\"params\":{\"name\":\"trailing\"}} {\"name\":\"forget\"}")
        .post("/graphs/g/mutate").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", matchesPattern("malformed JSON in request body at line 1, column \\d+: unexpected content"
            + " after the JSON object \\(the body is exactly one object\\)"));
    api().contentType("application/json").body("{\"query\":" + quoted(PEOPLE_GQ)
            + ",\"name\":\"add_person\",\"params\":{\"name\":\"p\",\"name\":\"q\"}}")
        .post("/graphs/g/mutate").then().statusCode(400).body("error", containsString("field 'name' appears twice in one object"));
    api().get("/graphs/g/branches").then().body("branches", equalTo(List.of("main")));
    assertThat(head("g", "main")).isEqualTo(head);
  }

  /** Found by HttpRequestFuzzTest: the lone surrogate reached the commit lookup's Lance filter, a 500. */
  @Test
  @Order(18)
  void aSnapshotThatCannotBeACommitIdIs400() {
    api().contentType("application/json")
        .body("{\"query\":" + quoted(READS) + ",\"name\":\"everyone\",\"snapshot\":\"01J\\udfff\"}")
        .post("/graphs/g/query").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("'snapshot' is not a commit id: unpaired surrogate U+DFFF at character 3"));
    // A paired one is merely not a commit.
    api().contentType("application/json")
        .body("{\"query\":" + quoted(READS) + ",\"name\":\"everyone\",\"snapshot\":\"\\ud83d\\ude00\"}")
        .post("/graphs/g/query").then().statusCode(404).body("code", equalTo("not_found"));
  }

  private static String quoted(String s) {
    try {
      return new ObjectMapper().writeValueAsString(s);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code n} unconstrained Person variables: a 3^n-row cartesian product over the example graph. */
  private static String product(int n) {
    StringBuilder q = new StringBuilder("query product() { match {");
    for (int i = 0; i < n; i++) {
      q.append(" $v").append(i).append(": Person");
    }
    return q.append(" } return { count($v0) as n } }").toString();
  }

  @Test
  @Order(24)
  void hostileReadsAreTypedErrorsAndTheServiceStaysHealthy() throws Exception {
    // Before: StackOverflowError → 500.
    String nots = "query q() { match { $p: Person " + "not { $p.age > 1 ".repeat(3_000) + "}".repeat(3_000)
        + " } return { $p.name } }";
    int column = ("query q() { match { $p: Person " + "not { $p.age > 1 ".repeat(62) + "not ").length() + 1;
    read("g", Map.of("query", nots)).then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("1:" + column + ": '{' nests deeper than 64 levels of brackets ({ [ ( together),"
            + " the query language's limit"));
    String lists = "query q() {\n  match { $p: Person  $p.name = " + "[".repeat(20_000) + "]".repeat(20_000)
        + " } return { $p.name } }";
    read("g", Map.of("query", lists)).then().statusCode(400)
        .body("error", startsWith("2:" + ("  match { $p: Person  $p.name = ".length() + 63) + ": '[' nests deeper"));
    // Deeply nested JSON parameters stop at the JSON reader's own depth limit: a 400, not a stack overflow.
    api().contentType("application/json")
        .body("{\"query\": \"query q() { match { $p: Person } return { $p.name } }\", \"params\": "
            + "[".repeat(20_000) + "]".repeat(20_000) + "}")
        .post("/graphs/g/query").then().statusCode(400).body("code", equalTo("bad_request"));
    // Before: the lone surrogate reached the Lance filter → 500.
    api().contentType("application/json")
        .body("{\"query\": " + new ObjectMapper().writeValueAsString(READS)
            + ", \"name\": \"friends\", \"params\": {\"name\": \"\\ud800\"}}")
        .post("/graphs/g/query").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", equalTo("query 'friends': parameter $name: unpaired surrogate U+D800 at character 0;"
            + " strings must be valid Unicode"));

    // Before: 14 unconstrained variables (4.8M bindings over 3 people) → OutOfMemoryError → 500.
    // A write while the read runs is not held up: reads take no gate.
    java.util.concurrent.CompletableFuture<Response> heavy = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> read("default", Map.of("query", product(14))));
    mutate("add_person", "{\"name\": \"during-heavy-read\"}").then().statusCode(200);
    heavy.get(120, java.util.concurrent.TimeUnit.SECONDS).then().statusCode(413)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("read budget exceeded: intermediate_rows reached 1000001, limit 1000000"
            + " (omnigraph.read.max-intermediate-rows); narrow the query or raise the limit"))
        .body("resource_limit.resource", equalTo("intermediate_rows"))
        .body("resource_limit.limit", equalTo(1_000_000))
        .body("resource_limit.actual", equalTo(1_000_001));
    given().get("/healthz").then().statusCode(200);
    read("default", Map.of("query", product(2))).then().statusCode(200).body("rows[0].n", equalTo(9));
    assertThat(registry.readSettings()).isEqualTo(dev.omnigraph.api.ReadSettings.defaults());
  }

  @Test
  @Order(19)
  void ndjsonLinesAreStrictAndARefusedLoadCommitsNothing() throws Exception {
    String head = head("g", "main");
    load("g", "merge", "", """
        {"type":"Person","data":{"name":"strict1"}}
        {"type":"Person","data":{"name":"strict2"}} {"type":"Person","data":{"name":"dropped"}}
        """).then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("line 2: unexpected content after the JSON object at column 45 (exactly one object per line)"));
    load("g", "merge", "", "{\"type\":\"Person\",\"data\":{\"name\":\"strict3\"}} ]]] garbage\n").then().statusCode(400)
        .body("error", equalTo("line 1: unexpected content after the JSON object at column 45 (exactly one object per line)"));
    assertThat(head("g", "main")).isEqualTo(head);

    // Invalid UTF-8 far enough in that a buffering reader has decoded ahead of the lines it returned.
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < 400; i++) {
      bytes.write(("{\"type\":\"Person\",\"data\":{\"name\":\"utf" + i + "\"}}\n").getBytes(StandardCharsets.UTF_8));
    }
    bytes.write("{\"type\":\"Person\",\"data\":{\"name\":\"bad".getBytes(StandardCharsets.UTF_8));
    bytes.write(new byte[] {(byte) 0xff, (byte) 0xfe});
    bytes.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
    api().contentType("application/x-ndjson").body(bytes.toByteArray()).post("/graphs/g/load/ndjson?mode=merge")
        .then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("line 401: invalid UTF-8 at column 37 (1 malformed byte); NDJSON input must be UTF-8"));
    assertThat(head("g", "main")).isEqualTo(head);

    // No Content-Type is refused exactly like a wrong one (415), before the body is read.
    java.net.http.HttpResponse<String> untyped = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(server.toURI().resolve("/graphs/g/load/ndjson?mode=merge"))
            .header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN)
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"type\":\"Person\",\"data\":{\"name\":\"untyped\"}}\n"))
            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(untyped.statusCode()).isEqualTo(415);
    assertThat(JsonPath.from(untyped.body()).getString("code")).isEqualTo("bad_request");
    assertThat(JsonPath.from(untyped.body()).getString("error")).isEqualTo("Content-Type application/x-ndjson is required");
    api().contentType("text/plain").body("{\"type\":\"Person\",\"data\":{\"name\":\"texty\"}}\n")
        .post("/graphs/g/load/ndjson?mode=merge").then().statusCode(415).body("code", equalTo("bad_request"));
    assertThat(head("g", "main")).isEqualTo(head);
  }

  @Test
  @Order(20)
  void branchesAreCreatedListedLoadedAndDeleted() {
    api().contentType("application/json").body(Map.of("name", "feature")).post("/graphs/g/branches")
        .then().statusCode(200)
        .body("name", equalTo("feature")).body("from", equalTo("main")).body("actor_id", equalTo("alice"))
        .body("uri", equalTo(uriOf("g")));
    api().contentType("application/json").body(Map.of("name", "feature")).post("/graphs/g/branches")
        .then().statusCode(409).body("code", equalTo("conflict"));
    load("g", "merge", "branch=agent/one", "{\"type\":\"Person\",\"data\":{\"name\":\"jo\"}}\n")
        .then().statusCode(404).body("code", equalTo("not_found"));
    load("g", "merge", "branch=agent/one&from=feature", "{\"type\":\"Person\",\"data\":{\"name\":\"jo\"}}\n")
        .then().statusCode(200)
        .body("branch", equalTo("agent/one")).body("branch_created", equalTo(true))
        .body("base_branch", equalTo("feature")).body("mode", equalTo("merge"))
        .body("commit.graph_branch", equalTo("agent/one"));
    load("g", "merge", "branch=agent/one&from=feature", "{\"type\":\"Person\",\"data\":{\"name\":\"kim\"}}\n")
        .then().statusCode(200).body("branch_created", equalTo(false)).body("base_branch", equalTo("feature"));
    api().get("/graphs/g/branches").then().statusCode(200)
        .body("branches", equalTo(List.of("agent/one", "feature", "main")));
    read("g", Map.of("query", READS, "name", "everyone", "branch", "agent/one")).then().statusCode(200)
        .body("target.branch", equalTo("agent/one"))
        .body("rows.'p.name'", org.hamcrest.Matchers.hasItems("jo", "kim"));
    api().delete("/graphs/g/branches/agent/one").then().statusCode(200)
        .body("name", equalTo("agent/one")).body("actor_id", equalTo("alice")).body("uri", notNullValue());
    api().delete("/graphs/g/branches/feature").then().statusCode(200);
    api().delete("/graphs/g/branches/feature").then().statusCode(404).body("code", equalTo("not_found"));
    api().get("/graphs/g/branches").then().body("branches", equalTo(List.of("main")));
  }

  @Test
  @Order(23)
  void branchNamesTheStoreCannotHoldAre400BeforeAnyEffect() throws Exception {
    Path root = Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs.g.uri", String.class));
    List<String> before = paths(root);
    api().contentType("application/json").body(Map.of("name", "main")).post("/graphs/g/branches")
        .then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("branch name 'main' is reserved: the main branch always exists"));
    // Lance reserves the name in any case.
    api().contentType("application/json").body(Map.of("name", "Main")).post("/graphs/g/branches")
        .then().statusCode(400).body("error", equalTo("branch name 'Main' is reserved: the main branch always exists"));
    String deep = "a" + "/a".repeat(99); // 199 characters, 99 '/': a 397-character ref file name
    api().contentType("application/json").body(Map.of("name", deep)).post("/graphs/g/branches")
        .then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", equalTo("branch name is too long for the store: its ref file name spells each '/' as %2F, "
            + "which makes it 397 of at most 250 characters"));
    // At the limit exactly (250 once encoded) it is created; one more is refused.
    String atLimit = "b".repeat(150) + "/b".repeat(25);
    String overLimit = "b".repeat(147) + "/b".repeat(26);
    assertThat(atLimit.length() + 2 * 25).isEqualTo(250);
    assertThat(overLimit.length()).isEqualTo(199);
    load("g", "merge", "branch=" + deep + "&from=main", "{\"type\":\"Person\",\"data\":{\"name\":\"x\"}}\n")
        .then().statusCode(400).body("error", startsWith("branch name is too long for the store"));
    assertThat(paths(root)).isEqualTo(before);
    api().get("/graphs/g/branches").then().body("branches", equalTo(List.of("main")));

    api().contentType("application/json").body(Map.of("name", atLimit)).post("/graphs/g/branches")
        .then().statusCode(200).body("name", equalTo(atLimit));
    api().contentType("application/json").body(Map.of("name", overLimit))
        .post("/graphs/g/branches").then().statusCode(400).body("error", containsString("251 of at most 250"));
    api().delete("/graphs/g/branches/" + atLimit).then().statusCode(200);
    api().get("/graphs/g/branches").then().body("branches", equalTo(List.of("main")));
  }

  /** Every path under {@code root}, directories included (an orphan empty directory shows too). */
  private static List<String> paths(Path root) throws java.io.IOException {
    try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
      return walk.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  @Order(21)
  void commitsSnapshotsAndSchemaHaveTheReferenceShapes() {
    JsonPath commits = api().get("/graphs/g/commits").then().statusCode(200).extract().jsonPath();
    List<String> ids = commits.getList("commits.graph_commit_id");
    assertThat(ids).hasSizeGreaterThan(5).doesNotHaveDuplicates();
    // A commit on main is graph_branch null in a list too; the snapshot still names its branch (a string there).
    assertThat(commits.getList("commits.graph_branch")).containsOnlyNulls();
    String newest = ids.get(0);
    api().get("/graphs/g/commits/" + newest).then().statusCode(200)
        .body("graph_commit_id", equalTo(newest))
        .body("$", hasKey("graph_branch"))
        .body("graph_branch", nullValue())
        .body("parent_commit_id", equalTo(ids.get(1)))
        .body("merged_parent_commit_id", nullValue())
        .body("graph_manifest_version", equalTo(commits.getInt("commits[0].graph_manifest_version")))
        .body("created_at", notNullValue());
    api().get("/graphs/g/commits/01NOSUCHCOMMIT0000000000000").then().statusCode(404)
        .body("code", equalTo("not_found")).body("error", containsString("commit not found"));
    api().get("/graphs/g/commits?branch=nope").then().statusCode(404).body("error", containsString("branch"));

    api().get("/graphs/g/snapshot").then().statusCode(200)
        .body("graph_branch", equalTo("main"))
        .body("internal_schema_version", equalTo(6))
        .body("graph_manifest_version", equalTo(commits.getInt("commits[0].graph_manifest_version")))
        .body("datasets.type_name", equalTo(List.of("Knows", "WorksAt", "Company", "Person")))
        .body("datasets.find { it.type_name == 'Person' }.entity_count", equalTo(7))
        .body("datasets.find { it.type_name == 'Person' }.entity_kind", equalTo("node"));
    api().get("/graphs/g/snapshot?branch=nope").then().statusCode(404).body("code", equalTo("not_found"));

    api().get("/graphs/g/schema").then().statusCode(200).body("schema_source", equalTo(resource("graphs/people.pg")));

    // Time travel: the query reads the state the first load published.
    String firstLoad = ids.get(ids.size() - 2);
    read("g", Map.of("query", READS, "name", "everyone", "snapshot", firstLoad)).then().statusCode(200)
        .body("target.snapshot", equalTo(firstLoad))
        .body("target.branch", nullValue())
        .body("graph_commit_id", equalTo(firstLoad))
        .body("rows.'p.name'", equalTo(List.of("ann", "ben", "cat")));
  }

  @Test
  @Order(25)
  void commitListsArePagedByLimitAndCursorNewestFirst() {
    JsonPath all = api().get("/graphs/g/commits?limit=1000").then().statusCode(200)
        .body("$", not(hasKey("next_cursor"))).extract().jsonPath();
    List<String> ids = all.getList("commits.graph_commit_id");
    assertThat(ids).hasSizeGreaterThan(5);
    List<Long> versions = all.getList("commits.graph_manifest_version", Long.class);
    assertThat(versions).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    // The default page (100) holds this whole history: no continuation.
    api().get("/graphs/g/commits").then().statusCode(200).body("$", not(hasKey("next_cursor")))
        .body("commits.graph_commit_id", equalTo(ids));

    List<String> paged = new java.util.ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonPath page = api().queryParam("branch", "main").queryParam("limit", 2)
          .queryParams(cursor == null ? Map.of() : Map.of("cursor", cursor))
          .get("/graphs/g/commits").then().statusCode(200).extract().jsonPath();
      List<String> pageIds = page.getList("commits.graph_commit_id");
      assertThat(pageIds).hasSizeBetween(1, 2);
      paged.addAll(pageIds);
      cursor = page.getString("next_cursor");
      pages++;
    } while (cursor != null);
    assertThat(paged).isEqualTo(ids);
    assertThat(pages).isEqualTo((ids.size() + 1) / 2);

    for (String limit : List.of("0", "-3", "1001", "ten")) {
      api().get("/graphs/g/commits?limit=" + limit).then().statusCode(400)
          .body("code", equalTo("bad_request")).body("error", containsString("'limit'"));
    }
    api().queryParam("cursor", "not-a-cursor!").get("/graphs/g/commits").then().statusCode(400)
        .body("code", equalTo("bad_request")).body("error", containsString("'cursor'"));
  }

  @Test
  @Order(22)
  void anExportStreamsWhatALoadAcceptsBack() {
    String all = api().contentType("application/json").body(Map.of()).post("/graphs/g/export").then()
        .statusCode(200).contentType(GraphResource.NDJSON).extract().asString();
    List<String> lines = all.lines().toList();
    assertThat(lines).hasSize(8); // 7 people, 1 Knows edge
    assertThat(lines.get(0)).startsWith("{\"type\":\"Person\",\"data\":{");
    // Properties in the schema's canonical (sorted) order.
    assertThat(lines).contains("{\"type\":\"Person\",\"data\":{\"age\":30,\"name\":\"ann\"}}",
        "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"ben\",\"data\":{\"since\":2020}}");
    String edgesOnly = api().contentType("application/json").body(Map.of("type_names", List.of("knows")))
        .post("/graphs/g/export").then().statusCode(200).extract().asString();
    assertThat(edgesOnly.lines().toList())
        .containsExactly("{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"ben\",\"data\":{\"since\":2020}}");
    api().contentType("application/json").body(Map.of("type_names", List.of("Robot"))).post("/graphs/g/export")
        .then().statusCode(400).contentType("application/json").body("error", containsString("Robot"));
    api().contentType("application/json").body(Map.of("branch", "nope")).post("/graphs/g/export")
        .then().statusCode(404).body("code", equalTo("not_found"));

    load("copy", "append", "", all).then().statusCode(200).body("total_entities", equalTo(8));
    String copied = api().contentType("application/json").body(Map.of()).post("/graphs/copy/export").then()
        .statusCode(200).extract().asString();
    assertThat(Set.copyOf(copied.lines().toList())).isEqualTo(Set.copyOf(lines));
  }

  // --- recovery, readiness, metrics -----------------------------------------------------------

  @Test
  @Order(30)
  void anEffectThatMayHaveLandedIs503UntilTheReconcilerSettlesIt() throws Exception {
    load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n").then().statusCode(200);
    String operation;
    try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
      operation = load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n").then()
          .statusCode(503)
          .body("$", not(hasKey("code")))
          .body("recovery_required.operation_id", notNullValue())
          .body("error", not(containsString("\tat ")))
          .extract().path("recovery_required.operation_id");
    }
    // The reconciler (1 s in tests) rolls it back through the quiesced recover(), without a restart.
    long deadline = System.currentTimeMillis() + 60_000;
    Response ready;
    do {
      Thread.sleep(200);
      ready = given().get("/q/health/ready");
    } while (ready.statusCode() != 200 && System.currentTimeMillis() < deadline);
    ready.then().statusCode(200)
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'r.state'", equalTo("up"))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data", not(hasKey("r.reason")));
    assertThat(Files.exists(Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs.r.uri", String.class),
        "__recovery", operation + ".json"))).isFalse();
    read("r", Map.of("query", READS, "name", "everyone")).then().statusCode(200)
        .body("rows.'p.name'", equalTo(List.of("ann")));
    load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n").then().statusCode(200);
  }

  @Test
  @Order(31)
  void metricsCountWritesByOutcomeAndRecoveries() throws Exception {
    // The pending gauge reads the reconciler's last listing, which may have caught the previous
    // test's last write between arming its sidecar and retiring it (asynchronously): wait for a
    // listing after that, then assert line by line, naming the line that is missing.
    String pendingZero = "omnigraph_recovery_pending_sidecars{graph=\"r\"} 0.0";
    long deadline = System.currentTimeMillis() + 30_000;
    String metrics;
    do {
      metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
    } while (!metrics.contains(pendingZero) && System.currentTimeMillis() < deadline && sleep(200));
    String ours = metrics.lines().filter(l -> l.startsWith("omnigraph_")).collect(Collectors.joining("\n"));
    for (String line : List.of(
        "omnigraph_writes_total{graph=\"g\",outcome=\"ok\",writer=\"load\"}",
        // No mutate key_conflict since issue 13: the keyed mutation insert of order 14 upserts.
        "omnigraph_writes_total{graph=\"g\",outcome=\"key_conflict\",writer=\"load\"} 1.0",
        "omnigraph_writes_total{graph=\"g\",outcome=\"read_set_changed\",writer=\"mutate\"} 1.0",
        "omnigraph_writes_total{graph=\"g\",outcome=\"precondition_failed\",writer=\"mutate\"} 1.0",
        "omnigraph_writes_total{graph=\"g\",outcome=\"resource_limit\",writer=\"load\"} 1.0",
        "omnigraph_writes_total{graph=\"r\",outcome=\"recovery_required\",writer=\"load\"} 1.0",
        "omnigraph_writes_total{graph=\"g\",outcome=\"ok\",writer=\"branch_create\"}",
        "omnigraph_write_duration_seconds_bucket{graph=\"g\",writer=\"mutate\"",
        "omnigraph_write_duration_seconds_count{graph=\"g\",writer=\"load\"}",
        "omnigraph_write_reprepares_total{graph=\"g\",writer=\"mutate\"}",
        "omnigraph_publish_retries_total{graph=\"g\",writer=\"mutate\"} 0.0",
        "omnigraph_recovery_pending_sidecars{graph=\"r\"} 0.0",
        "omnigraph_recovery_outcomes_total{action=\"completed\",graph=\"r\",verdict=\"incomplete_phase_b\"} 1.0")) {
      assertThat(metrics).as("metrics line %s among:%n%s", line, ours).contains(line);
    }
  }

  private static boolean sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
    return true;
  }

  @Test
  @Order(32)
  void readinessIsDownWhileWritesAreBlockedAndShowsOnlyTheReasonCode() throws Exception {
    String check = "checks.find { it.name == 'omnigraph-graphs' }.data.";
    // __recovery replaced by a file: the listing is empty, but every write's sidecar arm would fail.
    Path copy = Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs.copy.uri", String.class));
    Path recoveryDir = copy.resolve("__recovery");
    if (Files.isDirectory(recoveryDir)) {
      Files.delete(recoveryDir); // empty: no write is pending
    }
    Files.writeString(recoveryDir, "not a directory");
    String down = given().get("/q/health/ready").then().statusCode(503)
        .body("status", equalTo("DOWN"))
        .body(check + "'copy.state'", equalTo("down"))
        .body(check + "'copy.reason'", equalTo("recovery_unreadable"))
        .body(check + "'g.state'", equalTo("up"))
        .extract().asString();
    assertThat(down).doesNotContain(copy.getParent().toString()).doesNotContain("__recovery");
    Files.delete(recoveryDir);
    given().get("/q/health/ready").then().statusCode(200).body(check + "'copy.state'", equalTo("up"));

    // Uncovered drift: a load's effect landed and its sidecar was deleted before anything settled it.
    Path r = Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs.r.uri", String.class));
    try (AutoCloseable fp = FailpointControl.enable("write.before_publish", () -> {
      try (java.util.stream.Stream<Path> sidecars = Files.list(r.resolve("__recovery"))) {
        for (Path p : sidecars.toList()) {
          Files.delete(p);
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      throw new FailpointControl.Injected(dev.omnigraph.util.Failpoint.named("write.before_publish"));
    })) {
      load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"orphan\"}}\n").then().statusCode(503);
    }
    // Before: readiness stayed UP here until a write was refused with the drift. The 503 asked for
    // a drift check, which the reconciler's next pass runs: DOWN before any further write.
    long driftDeadline = System.currentTimeMillis() + 30_000;
    while (!"uncovered_drift".equals(given().get("/q/health/ready").jsonPath().get(check + "'r.reason'"))
        && System.currentTimeMillis() < driftDeadline) {
      Thread.sleep(100);
    }
    given().get("/q/health/ready").then().statusCode(503).body(check + "'r.reason'", equalTo("uncovered_drift"));
    load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n").then().statusCode(409)
        .body("error", containsString("uncovered drift"));
    down = given().get("/q/health/ready").then().statusCode(503)
        .body(check + "'r.state'", equalTo("down"))
        .body(check + "'r.reason'", equalTo("uncovered_drift"))
        .extract().asString();
    assertThat(down).doesNotContain(r.toString()).doesNotContain("node:Person");
    // An operator repairs (here through the served handle); the reconciler's dry run then clears it.
    assertThat(registry.get("r").handle().repair(true, Optional.of("alice")).drift()).hasSize(1);
    long deadline = System.currentTimeMillis() + 60_000;
    Response ready;
    do {
      Thread.sleep(200);
      ready = given().get("/q/health/ready");
    } while (ready.statusCode() != 200 && System.currentTimeMillis() < deadline);
    ready.then().statusCode(200).body(check + "'r.state'", equalTo("up")).body(check.substring(0, check.length() - 1),
        not(hasKey("r.reason")));
    load("r", "append", "", "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n").then().statusCode(200);
  }

  /** The canonical root URI the server reports for a configured graph directory. */
  private static String uriOf(String graph) {
    return StorageConfig.local(Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs." + graph + ".uri",
        String.class))).rootUri();
  }

  private static com.fasterxml.jackson.databind.JsonNode json(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static String resource(String name) {
    try (InputStream in = GraphApiTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- reference compatibility (issue 13) --------------------------------------------------------

  /** The reference's body limits: 1 MiB for JSON bodies, decided from Content-Length before reading. */
  @Test
  @Order(50)
  void aJsonBodyOverOneMebibyteIs413AndTheExportBodyRefusesUnknownFields() {
    String head = head("g", "main");
    String padded = " ".repeat(1_048_577) + READS;
    for (String route : List.of("/graphs/g/query", "/graphs/g/mutate", "/graphs/g/export")) {
      api().contentType("application/json").body(Map.of("query", padded, "name", "everyone")).post(route)
          .then().statusCode(413).body("code", equalTo("bad_request"))
          .body("error", containsString("over the limit of 1048576 bytes"));
    }
    // Just under the limit is read as before.
    read("g", Map.of("query", " ".repeat(1_000_000) + READS, "name", "everyone")).then().statusCode(200);
    // A misspelt field would have exported every type: refused, naming it (reference deny_unknown_fields).
    api().contentType("application/json").body("{\"type_name\": [\"Person\"]}").post("/graphs/g/export")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("unknown field 'type_name'"));
    api().contentType("application/json").body("{\"type_names\": [\"Person\"]}").post("/graphs/g/export")
        .then().statusCode(200);
    assertThat(head("g", "main")).isEqualTo(head);
  }

  /**
   * A load declaring more than 32 MiB is 413 resource_limit from its Content-Length alone: the
   * client sends the headers and no body, and the answer comes without the server waiting for one.
   */
  @Test
  @Order(51)
  void anNdjsonLoadDeclaringOver32MebibytesIs413BeforeItsBodyIsRead() throws Exception {
    String head = head("g", "main");
    long declared = 32L * 1024 * 1024 + 1;
    try (java.net.Socket socket = new java.net.Socket(server.getHost(), server.getPort())) {
      socket.setSoTimeout(10_000);
      String request = "POST /graphs/g/load/ndjson?mode=append HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer " + GraphsTestResource.ALICE_TOKEN + "\r\n"
          + "Content-Type: application/x-ndjson\r\nContent-Length: " + declared + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      // The server answers without closing (the body it refused is still owed): read what has come.
      StringBuilder got = new StringBuilder();
      byte[] buf = new byte[4096];
      InputStream in = socket.getInputStream();
      while (!(got.indexOf("\r\n\r\n") > 0 && got.toString().endsWith("}"))) {
        int n;
        try {
          n = in.read(buf);
        } catch (java.net.SocketTimeoutException e) {
          throw new AssertionError("no complete answer in 10 s; got: " + got, e);
        }
        if (n < 0) {
          break;
        }
        got.append(new String(buf, 0, n, StandardCharsets.UTF_8));
      }
      String answer = got.toString();
      assertThat(answer).startsWith("HTTP/1.1 413")
          .contains("\"resource\":\"graph_batch_request_bytes\"")
          .contains("\"limit\":33554432")
          .contains("\"actual\":" + declared)
          .contains("\"code\":\"bad_request\"");
    }
    assertThat(head("g", "main")).isEqualTo(head);
  }

  /** D₂ per query, as the reference: a file holding one mixed mutation still serves its other queries. */
  @Test
  @Order(52)
  void aFileWithOneMixedMutationStillServesItsOtherQueries() {
    String source = READS + """

        query mixed($n: String) {
          insert Person { name: $n }
          delete Person where name = $n
        }

        query add_d2($n: String) {
          insert Person { name: $n }
        }
        """;
    read("g", Map.of("query", source, "name", "everyone")).then().statusCode(200);
    api().contentType("application/json").body(Map.of("query", source, "name", "mixed", "params", Map.of("n", "d2")))
        .post("/graphs/g/mutate").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("query 'mixed': a mutation cannot mix insert with delete"));
    api().contentType("application/json").body(Map.of("query", source, "name", "add_d2", "params", Map.of("n", "d2")))
        .post("/graphs/g/mutate").then().statusCode(200);
  }

  /**
   * Issue 44 item 3: a write racing the delete of its branch. Each round creates a branch, then
   * loads into it and deletes it at once from two threads: the load lands (200) or finds the
   * branch gone (404), never a 500, and no data-table ref of the branch outlives it.
   */
  @Test
  @Order(53)
  void aWriteRacingTheDeleteOfItsBranchIsTypedAndLeavesNoRef() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.Map<Integer, Integer> loads = new java.util.TreeMap<>();
      for (int round = 0; round < 20; round++) {
        api().contentType("application/json").body(Map.of("name", "race")).post("/graphs/g/branches")
            .then().statusCode(200);
        String row = "{\"type\":\"Person\",\"data\":{\"name\":\"racer" + round + "\"}}";
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.Future<Response> load = pool.submit(() -> {
          go.await();
          return load("g", "merge", "branch=race", row);
        });
        int lag = (round % 10) * 12; // ms: spreads the delete over the load's phases
        java.util.concurrent.Future<Response> delete = pool.submit(() -> {
          go.await();
          Thread.sleep(lag);
          return api().delete("/graphs/g/branches/race");
        });
        go.countDown();
        Response l = load.get();
        Response d = delete.get();
        assertThat(l.statusCode()).as("load, round %d: %s", round, l.asString()).isIn(200, 404);
        if (l.statusCode() == 404) {
          assertThat(l.jsonPath().getString("code")).isEqualTo("not_found");
        }
        assertThat(d.statusCode()).as("delete, round %d: %s", round, d.asString()).isEqualTo(200);
        loads.merge(l.statusCode(), 1, Integer::sum);
      }
      api().get("/graphs/g/branches").then().body("branches", not(org.hamcrest.Matchers.hasItem("race")));
      String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.g.uri", String.class);
      StorageConfig config = StorageConfig.fromEnvironment(uri);
      dev.omnigraph.table.DataTables tables = new dev.omnigraph.table.DataTables(config);
      for (String dir : List.of("nodes", "edges")) {
        try (java.util.stream.Stream<Path> ds = Files.list(Path.of(uri, dir))) {
          for (Path table : ds.toList()) {
            assertThat(tables.branches().list(dir + "/" + table.getFileName()))
                .extracting(dev.omnigraph.table.NativeBranch::name).doesNotContain("race");
          }
        }
      }
      given().get("/q/health/ready").then().statusCode(200);
      System.out.println("write/delete race outcomes by status: " + loads);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A branch name a create would refuse names no branch: a lookup answers it exactly as an unknown
   * name, the lookup's own 404 naming it, on every route that looks a branch up (docs/http-api.md,
   * "Routes", Branches); only a create, including a load's implicit one, refuses it (400, the rule it
   * breaks). Commit ids a read looks up answer 404 when no commit has them, an empty one included.
   * Nothing is written.
   */
  @Test
  @Order(54)
  void aMalformedBranchNameOnALookupIsTheLookupsOwn404AndOnACreateIs400() {
    String head = head("g", "main");
    List<String> before = api().get("/graphs/g/branches").then().extract().path("branches");
    String person = "{\"type\":\"Person\",\"data\":{\"name\":\"never\"}}\n";
    String reads = "query q() { match { $p: Person } return { $p.name } }";
    String insert = "query add() { insert Person { name: \"never\" } }";
    String blob = "/graphs/g/blob?entity=node&type=Person&id=Ada&property=photo";
    for (String bad : List.of("bad name", "../x", "Main", "a/", "x.lock", "-x", "nope-typed")) {
      String notFound = "branch not found: " + bad;
      java.util.Map<String, Response> lookups = new java.util.LinkedHashMap<>();
      lookups.put("query", read("g", Map.of("query", reads, "branch", bad)));
      lookups.put("mutate", api().contentType("application/json").body(Map.of("query", insert, "branch", bad))
          .post("/graphs/g/mutate"));
      lookups.put("load", api().contentType("application/x-ndjson").body(person.getBytes(StandardCharsets.UTF_8))
          .queryParam("branch", bad).post("/graphs/g/load/ndjson"));
      lookups.put("commits", api().queryParam("branch", bad).get("/graphs/g/commits"));
      lookups.put("changes", api().queryParam("branch", bad).get("/graphs/g/changes"));
      lookups.put("baseline", api().contentType("application/json").body(Map.of("branch", bad))
          .post("/graphs/g/changes/baseline"));
      lookups.put("snapshot", api().queryParam("branch", bad).get("/graphs/g/snapshot"));
      lookups.put("export", api().contentType("application/json").body(Map.of("branch", bad)).post("/graphs/g/export"));
      lookups.put("ensure", api().contentType("application/json").body(Map.of("branch", bad))
          .post("/graphs/g/indexes/ensure"));
      lookups.put("blob get", api().queryParam("branch", bad).get(blob));
      lookups.put("blob put", api().contentType("application/octet-stream").body(new byte[] {1})
          .queryParam("branch", bad).put(blob));
      lookups.put("create from", api().contentType("application/json").body(Map.of("name", "never-typed",
          "from", bad)).post("/graphs/g/branches"));
      lookups.put("merge source", api().contentType("application/json").body(Map.of("source", bad))
          .post("/graphs/g/branches/merge"));
      lookups.put("merge target", api().contentType("application/json").body(Map.of("source", "main",
          "target", bad)).post("/graphs/g/branches/merge"));
      if (!bad.contains("/")) { // a path segment: '/' would split it
        lookups.put("delete", api().delete("/graphs/g/branches/" + bad));
        lookups.put("revert", api().contentType("application/json").body(Map.of("to", head))
            .post("/graphs/g/branches/" + bad + "/revert"));
      }
      lookups.forEach((route, r) -> {
        assertThat(r.statusCode()).as(route + " [" + bad + "]: " + r.asString()).isEqualTo(404);
        assertThat(r.jsonPath().getString("code")).as(route).isEqualTo("not_found");
        assertThat(r.jsonPath().getString("error")).as(route).isEqualTo(notFound);
      });
    }
    // A query's or an export's empty branch is looked up as given (the routes that default the
    // branch read an empty one as main).
    read("g", Map.of("query", reads, "branch", "")).then().statusCode(404).body("error", equalTo("branch not found: "));
    api().contentType("application/json").body(Map.of("branch", "")).post("/graphs/g/export").then().statusCode(404)
        .body("error", equalTo("branch not found: "));
    api().queryParam("branch", "").get("/graphs/g/snapshot").then().statusCode(200).body("graph_branch", equalTo("main"));

    // A create refuses the name by the rule it breaks, also when a load would create it.
    java.util.Map<String, String> rules = new java.util.LinkedHashMap<>();
    rules.put("bad name", "invalid branch name 'bad name': each '/'-separated segment must start with a letter or"
        + " digit and contain only letters, digits, '.', '_' or '-'");
    rules.put("a/", "invalid branch name 'a/': each '/'-separated segment must start with a letter or digit and"
        + " contain only letters, digits, '.', '_' or '-'");
    rules.put("Main", "branch name 'Main' is reserved: the main branch always exists");
    rules.forEach((bad, error) -> {
      api().contentType("application/json").body(Map.of("name", bad)).post("/graphs/g/branches").then()
          .statusCode(400).body("code", equalTo("bad_request")).body("error", equalTo(error));
      api().contentType("application/x-ndjson").body(person.getBytes(StandardCharsets.UTF_8))
          .queryParam("branch", bad).queryParam("from", "main").post("/graphs/g/load/ndjson").then()
          .statusCode(400).body("code", equalTo("bad_request")).body("error", equalTo(error));
    });
    api().contentType("application/json").body(Map.of("name", "")).post("/graphs/g/branches").then()
        .statusCode(400).body("error", equalTo("'name' is required"));

    // Commit ids a read looks up: no such commit is 404 naming it, an empty snapshot too.
    for (String id : List.of("bad id", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "Main")) {
      read("g", Map.of("query", reads, "snapshot", id)).then().statusCode(404)
          .body("code", equalTo("not_found")).body("error", equalTo("commit not found: " + id));
      api().queryParam("commit", id).get("/graphs/g/snapshot").then().statusCode(404)
          .body("error", equalTo("commit not found: " + id));
      api().get("/graphs/g/commits/" + id).then().statusCode(404).body("error", equalTo("commit not found: " + id));
      api().get("/graphs/g/commits/" + id + "/changes").then().statusCode(404)
          .body("error", equalTo("commit not found: " + id));
      api().queryParam("snapshot", id).get(blob).then().statusCode(404)
          .body("error", equalTo("snapshot not found: " + id));
    }
    read("g", Map.of("query", reads, "snapshot", "")).then().statusCode(404).body("error", equalTo("commit not found: "));
    // Both given is refused before either is looked up, an empty snapshot included.
    read("g", Map.of("query", reads, "branch", "main", "snapshot", "")).then().statusCode(400)
        .body("error", equalTo("give a branch or a commit, not both"));
    // An unpaired surrogate names no commit and has no UTF-8 spelling: refused as malformed.
    api().contentType("application/json").body("{\"query\":\"" + reads + "\",\"snapshot\":\"\\ud800\"}")
        .post("/graphs/g/query").then().statusCode(400)
        .body("error", equalTo("'snapshot' is not a commit id: unpaired surrogate U+D800 at character 0"));

    assertThat(head("g", "main")).isEqualTo(head);
    assertThat(api().get("/graphs/g/branches").then().extract().<List<String>>path("branches")).isEqualTo(before);
  }
}
