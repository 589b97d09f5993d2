package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 34's route acceptance: every route of our published OpenAPI document has a declared action
 * ({@link RouteActions}), and each is tried over HTTP on graph {@code authz} as an actor that holds
 * every action but that one (denied: 403 {@code forbidden}, or the reference's 404 for stored
 * queries, with nothing written) and as one that holds exactly what the route needs (allowed). The
 * actors come from the server policy {@link RoutePolicy} generates from the same table.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RouteAuthorizationTest {

  private static final String GRAPH = "/graphs/authz";
  private static final String INSERT = "query add($name: String) { insert Person { name: $name } }";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One concrete request of a route. */
  record Req(String method, String path, Optional<String> contentType, Optional<String> body,
      Map<String, String> headers, int allowedStatus) {}

  private static boolean seeded;

  @BeforeAll
  static void initGraph() {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.authz.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      Omnigraph.init(StorageConfig.fromEnvironment(uri), GraphApiTest.resource("graphs/people.pg"),
          Optional.of("setup")).close();
    }
  }

  /** Main with one row, branches rt-src (one commit ahead, to merge) and rt-del (to delete); over HTTP as alice. */
  private static synchronized void seed() {
    if (seeded) {
      return;
    }
    seeded = true;
    alice().contentType("application/x-ndjson").body("{\"type\":\"Person\",\"data\":{\"name\":\"Ada\",\"age\":36}}\n"
        .getBytes(java.nio.charset.StandardCharsets.UTF_8)).post(GRAPH + "/load/ndjson?mode=merge").then().statusCode(200);
    for (String b : List.of("rt-src", "rt-del")) {
      alice().contentType("application/json").body(Map.of("name", b)).post(GRAPH + "/branches").then().statusCode(200);
    }
    alice().contentType("application/json").body(Map.of("query", INSERT, "name", "add", "branch", "rt-src",
        "params", Map.of("name", "FromSrc"))).post(GRAPH + "/mutate").then().statusCode(200);
  }

  private static RequestSpecification alice() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static String head() {
    return alice().get(GRAPH + "/commits?branch=main").then().statusCode(200).extract().path("commits[0].graph_commit_id");
  }

  private static String json(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The request that exercises {@code r}; {@code tag} keeps the names a write inserts unique. */
  private static Req request(RouteActions.Route r, String tag) {
    return request(r, tag, GRAPH, RouteAuthorizationTest::head);
  }

  /** As {@link #request(RouteActions.Route, String)}, on graph path {@code graph} with its head from {@code head}. */
  static Req request(RouteActions.Route r, String tag, String graph, java.util.function.Supplier<String> head) {
    final String GRAPH = graph;
    String person = "{\"type\":\"Person\",\"data\":{\"name\":\"L-" + tag + "\"}}\n";
    Optional<String> j = Optional.of("application/json");
    Map<String, String> none = Map.of();
    String key = r.method() + " " + r.path();
    return switch (key) {
      case "GET /graphs" -> new Req("GET", "/graphs", Optional.empty(), Optional.empty(), none, 200);
      case "GET /healthz" -> new Req("GET", "/healthz", Optional.empty(), Optional.empty(), none, 200);
      case "POST /graphs/{graph_id}/query" -> new Req("POST", GRAPH + "/query", j, Optional.of(json(Map.of(
          "query", "query q() { match { $p: Person } return { $p.name } }", "name", "q"))), none, 200);
      case "POST /graphs/{graph_id}/mutate" -> new Req("POST", GRAPH + "/mutate", j, Optional.of(json(Map.of(
          "query", INSERT, "name", "add", "params", Map.of("name", "M-" + tag)))), none, 200);
      case "POST /graphs/{graph_id}/mutate/if-graph-commit" -> new Req("POST", GRAPH + "/mutate/if-graph-commit", j,
          Optional.of(json(Map.of("query", INSERT, "name", "add", "params", Map.of("name", "C-" + tag)))),
          Map.of(GraphResource.IF_GRAPH_COMMIT, head.get()), 200);
      case "POST /graphs/{graph_id}/load/ndjson" -> new Req("POST", GRAPH + "/load/ndjson?mode=merge",
          Optional.of("application/x-ndjson"), Optional.of(person), none, 200);
      case "POST /graphs/{graph_id}/load", "POST /graphs/{graph_id}/ingest" -> new Req("POST",
          GRAPH + r.path().substring(r.path().lastIndexOf('/')), j,
          Optional.of(json(Map.of("data", person.replace("L-", "J-" + r.path().length()), "mode", "merge"))), none,
          200);
      case "GET /graphs/{graph_id}/queries" -> new Req("GET", GRAPH + "/queries", Optional.empty(), Optional.empty(),
          none, 200);
      case "POST /graphs/{graph_id}/queries/{name}" -> new Req("POST", GRAPH + "/queries/find_person", j,
          Optional.of(json(Map.of("params", Map.of("name", "Ada")))), none, 200);
      case "POST /graphs/{graph_id}/queries/{name}/if-graph-commit" -> new Req("POST",
          GRAPH + "/queries/add_person/if-graph-commit", j, Optional.of(json(Map.of("params",
              Map.of("name", "Q-" + tag)))), Map.of(GraphResource.IF_GRAPH_COMMIT, head.get()), 200);
      case "GET /graphs/{graph_id}/branches" -> new Req("GET", GRAPH + "/branches", Optional.empty(), Optional.empty(),
          none, 200);
      case "POST /graphs/{graph_id}/branches" -> new Req("POST", GRAPH + "/branches", j,
          Optional.of(json(Map.of("name", "rt-new"))), none, 200);
      case "POST /graphs/{graph_id}/branches/merge" -> new Req("POST", GRAPH + "/branches/merge", j,
          Optional.of(json(Map.of("source", "rt-src", "target", "main"))), none, 200);
      // Reverting main to its own head: allowed, and a no-op (nothing published).
      case "POST /graphs/{graph_id}/branches/{branch}/revert" -> new Req("POST", GRAPH + "/branches/main/revert", j,
          Optional.of(json(Map.of("to", head.get()))), none, 200);
      case "DELETE /graphs/{graph_id}/branches/{branch}" -> new Req("DELETE", GRAPH + "/branches/rt-del",
          Optional.empty(), Optional.empty(), none, 200);
      case "GET /graphs/{graph_id}/commits" -> new Req("GET", GRAPH + "/commits", Optional.empty(), Optional.empty(),
          none, 200);
      case "GET /graphs/{graph_id}/commits/{commit_id}" -> new Req("GET", GRAPH + "/commits/" + head.get(),
          Optional.empty(), Optional.empty(), none, 200);
      case "GET /graphs/{graph_id}/commits/{commit_id}/changes" -> new Req("GET",
          GRAPH + "/commits/" + head.get() + "/changes", Optional.empty(), Optional.empty(), none, 200);
      case "GET /graphs/{graph_id}/changes" -> new Req("GET", GRAPH + "/changes", Optional.empty(), Optional.empty(),
          none, 200);
      case "POST /graphs/{graph_id}/changes/baseline" -> new Req("POST", GRAPH + "/changes/baseline", j,
          Optional.of("{}"), none, 200);
      case "GET /graphs/{graph_id}/snapshot" -> new Req("GET", GRAPH + "/snapshot", Optional.empty(), Optional.empty(),
          none, 200);
      // Allowed, it gets past the gate to the route's own refusal: this graph's Person has no Blob (400).
      case "GET /graphs/{graph_id}/blob", "HEAD /graphs/{graph_id}/blob" -> new Req(r.method(),
          GRAPH + "/blob?entity=node&type=Person&id=Ada&property=name", Optional.empty(), Optional.empty(), none, 400);
      // The same for a Blob cell write (ours): allowed, the write's own refusal of a non-Blob property (400).
      case "PUT /graphs/{graph_id}/blob" -> new Req("PUT", GRAPH + "/blob?entity=node&type=Person&id=Ada&property=name",
          Optional.of("application/octet-stream"), Optional.of("bytes"), none, 400);
      case "DELETE /graphs/{graph_id}/blob" -> new Req("DELETE",
          GRAPH + "/blob?entity=node&type=Person&id=Ada&property=name", Optional.empty(), Optional.empty(), none, 400);
      case "GET /graphs/{graph_id}/lease" -> new Req("GET", GRAPH + "/lease", Optional.empty(), Optional.empty(),
          none, 200);
      case "GET /graphs/{graph_id}/access" -> new Req("GET", GRAPH + "/access?branch=main", Optional.empty(),
          Optional.empty(), none, 200);
      case "GET /graphs/{graph_id}/schema" -> new Req("GET", GRAPH + "/schema", Optional.empty(), Optional.empty(),
          none, 200);
      // Allowed, it gets past the gate to the apply's own refusal: this graph has branches besides main (409).
      case "POST /graphs/{graph_id}/schema/apply" -> new Req("POST", GRAPH + "/schema/apply", j,
          Optional.of(json(Map.of("schema_source", GraphApiTest.resource("graphs/people.pg")))), none, 409);
      case "POST /graphs/{graph_id}/indexes/ensure" -> new Req("POST", GRAPH + "/indexes/ensure", j,
          Optional.of("{}"), none, 200);
      case "POST /graphs/{graph_id}/export" -> new Req("POST", GRAPH + "/export", j, Optional.of("{}"), none, 200);
      default -> throw new AssertionError("no request for route " + key + ": add one to RouteAuthorizationTest");
    };
  }

  static Response send(Req q, Optional<String> actor) {
    RequestSpecification s = given();
    if (actor.isPresent()) {
      s = s.header("Authorization", "Bearer " + RoutePolicy.token(actor.get()));
    }
    for (Map.Entry<String, String> h : q.headers().entrySet()) {
      s = s.header(h.getKey(), h.getValue());
    }
    if (q.contentType().isPresent()) {
      s = s.contentType(q.contentType().get());
    }
    if (q.body().isPresent()) {
      s = s.body(q.body().get().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return s.request(q.method(), q.path());
  }

  @Test
  @Order(1)
  void everyPublishedRouteDeclaresItsAction() throws Exception {
    JsonNode doc = JSON.readTree(given().get("/openapi.json").then().statusCode(200).extract().asByteArray());
    Set<String> published = OpenApiDiff.operations(doc);
    List<String> undeclared = new ArrayList<>();
    for (String op : published) {
      String[] mp = op.split(" ", 2);
      if (RouteActions.of(mp[0], mp[1]).isEmpty()) {
        undeclared.add(op);
      }
    }
    assertThat(undeclared).as("routes of /openapi.json with no action in RouteActions").isEmpty();
    // And the table names nothing the document does not publish (a removed route leaves no stale row).
    assertThat(RouteActions.ROUTES.stream().map(r -> r.method() + " " + r.path()).toList())
        .containsExactlyInAnyOrderElementsOf(published);
  }

  @Test
  @Order(2)
  void eachRouteIsDeniedWithoutItsActionAndWritesNothing() {
    seed();
    String before = head();
    List<String> branches = alice().get(GRAPH + "/branches").then().statusCode(200).extract().path("branches");
    for (RouteActions.Route r : RouteActions.ROUTES) {
      if (r.action().isEmpty()) {
        continue;
      }
      Response res = send(request(r, "denied"), Optional.of(RoutePolicy.denied(r)));
      String what = r.method() + " " + r.path() + " as " + RoutePolicy.denied(r);
      assertThat(res.statusCode()).as(what + ": " + res.asString()).isEqualTo(r.deniedStatus());
      if (r.method().equals("HEAD")) {
        continue; // the same decision as GET, answered without a body
      }
      String body = res.asString();
      if (r.deniedStatus() == 403) {
        assertThat(res.jsonPath().getString("code")).as(what).isEqualTo("forbidden");
        assertThat(res.jsonPath().getString("error")).as(what).contains("'" + r.action().get().wireName() + "'");
      } else {
        assertThat(res.jsonPath().getString("code")).as(what).isEqualTo("not_found");
      }
      // Never the policy's contents: no group, rule id or other actor.
      assertThat(body).as(what).doesNotContain("g-").doesNotContain("alice").doesNotContain("a-");
    }
    assertThat(head()).isEqualTo(before);
    assertThat(alice().get(GRAPH + "/branches").then().statusCode(200).extract().<List<String>>path("branches"))
        .isEqualTo(branches);
  }

  @Test
  @Order(3)
  void eachRouteIsAllowedWithExactlyWhatItNeeds() {
    seed();
    for (RouteActions.Route r : RouteActions.ROUTES) {
      Optional<String> actor = r.action().map(a -> RoutePolicy.allowed(r));
      Req q = request(r, "allowed");
      Response res = send(q, actor);
      assertThat(res.statusCode()).as(r.method() + " " + r.path() + " as " + actor.orElse("nobody") + ": "
          + res.asString()).isEqualTo(q.allowedStatus());
    }
    List<String> branches = alice().get(GRAPH + "/branches").then().statusCode(200).extract().path("branches");
    assertThat(branches).contains("rt-new").doesNotContain("rt-del");
  }

  /**
   * A name is parsed after the caller is authorized: an actor denied a route's action is 403 for a
   * malformed branch name as for a well-formed one, never the 404 or 400 the name alone would
   * answer. A commit a read looks up names its branch only once it is found, so an unknown or
   * malformed commit id is 404 for a denied reader too (as an allowed one).
   */
  @Test
  @Order(4)
  void aDeniedCallerIs403BeforeAnyAnswerAboutTheNameItGave() {
    seed();
    String before = head();
    String person = "{\"type\":\"Person\",\"data\":{\"name\":\"never\"}}\n";
    String reads = "query q() { match { $p: Person } return { $p.name } }";
    String blob = GRAPH + "/blob?entity=node&type=Person&id=Ada&property=photo";
    for (String bad : List.of("bad name", "Main", "x.lock", "-x")) {
      java.util.Map<String, Response> denied = new java.util.LinkedHashMap<>();
      denied.put("query", as("not-read").contentType("application/json").body(Map.of("query", reads, "branch", bad))
          .post(GRAPH + "/query"));
      denied.put("mutate", as("not-change").contentType("application/json").body(Map.of("query", INSERT, "name", "add",
          "branch", bad, "params", Map.of("name", "never"))).post(GRAPH + "/mutate"));
      denied.put("load", as("not-change").contentType("application/x-ndjson")
          .body(person.getBytes(java.nio.charset.StandardCharsets.UTF_8)).queryParam("branch", bad)
          .post(GRAPH + "/load/ndjson"));
      denied.put("load from", as("not-branch_create").contentType("application/x-ndjson")
          .body(person.getBytes(java.nio.charset.StandardCharsets.UTF_8)).queryParam("branch", bad)
          .queryParam("from", "main").post(GRAPH + "/load/ndjson"));
      denied.put("create", as("not-branch_create").contentType("application/json").body(Map.of("name", bad))
          .post(GRAPH + "/branches"));
      denied.put("create from", as("not-branch_create").contentType("application/json")
          .body(Map.of("name", "never-typed", "from", bad)).post(GRAPH + "/branches"));
      denied.put("merge", as("not-branch_merge").contentType("application/json").body(Map.of("source", bad,
          "target", bad)).post(GRAPH + "/branches/merge"));
      denied.put("delete", as("not-branch_delete").delete(GRAPH + "/branches/" + bad));
      denied.put("revert", as("not-change").contentType("application/json").body(Map.of("to", before))
          .post(GRAPH + "/branches/" + bad + "/revert"));
      denied.put("commits", as("not-read").queryParam("branch", bad).get(GRAPH + "/commits"));
      denied.put("changes", as("not-read").queryParam("branch", bad).get(GRAPH + "/changes"));
      denied.put("baseline", as("not-export").contentType("application/json").body(Map.of("branch", bad))
          .post(GRAPH + "/changes/baseline"));
      denied.put("snapshot", as("not-read").queryParam("branch", bad).get(GRAPH + "/snapshot"));
      denied.put("access", as("not-read").queryParam("branch", bad).get(GRAPH + "/access"));
      denied.put("ensure", as("not-change").contentType("application/json").body(Map.of("branch", bad))
          .post(GRAPH + "/indexes/ensure"));
      denied.put("export", as("not-export").contentType("application/json").body(Map.of("branch", bad))
          .post(GRAPH + "/export"));
      denied.put("blob get", as("not-read").queryParam("branch", bad).get(blob));
      denied.put("blob put", as("not-change").contentType("application/octet-stream").body(new byte[] {1})
          .queryParam("branch", bad).put(blob));
      denied.forEach((route, r) -> {
        assertThat(r.statusCode()).as(route + " [" + bad + "]: " + r.asString()).isEqualTo(403);
        assertThat(r.jsonPath().getString("code")).as(route).isEqualTo("forbidden");
      });
      // Found first, then authorized on its branch: an id no commit has is 404 whoever asks.
      java.util.Map<String, Response> lookups = new java.util.LinkedHashMap<>();
      lookups.put("query snapshot", as("not-read").contentType("application/json")
          .body(Map.of("query", reads, "snapshot", bad)).post(GRAPH + "/query"));
      lookups.put("snapshot commit", as("not-read").queryParam("commit", bad).get(GRAPH + "/snapshot"));
      lookups.put("commit changes", as("not-read").get(GRAPH + "/commits/" + bad + "/changes"));
      lookups.put("blob snapshot", as("not-read").queryParam("snapshot", bad).get(blob));
      lookups.forEach((route, r) -> {
        assertThat(r.statusCode()).as(route + " [" + bad + "]: " + r.asString()).isEqualTo(404);
        assertThat(r.jsonPath().getString("code")).as(route).isEqualTo("not_found");
      });
    }
    // The one name a load's create refuses before its own check: branch_create is asked (and
    // granted) first, then the name is refused as a create refuses it, before change is asked.
    as("not-change").contentType("application/x-ndjson").body(person.getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .queryParam("branch", "bad name").queryParam("from", "main").post(GRAPH + "/load/ndjson").then()
        .statusCode(400);
    assertThat(head()).isEqualTo(before);
  }

  private static RequestSpecification as(String actor) {
    return given().header("Authorization", "Bearer " + RoutePolicy.token(actor));
  }
}
