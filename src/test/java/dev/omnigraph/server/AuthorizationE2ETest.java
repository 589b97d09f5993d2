package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 34's acceptance over HTTP against a running service ({@link AuthorizationProfile}): the
 * reference's e2e policy on graph {@code e2e} (team writes unprotected branches, admins merge into
 * protected main; a denied write leaves the same head and no sidecar), and DefaultDeny on graph
 * {@code dd} (tokens, no policy: every non-read route refused, every read served).
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@TestProfile(AuthorizationProfile.class)
class AuthorizationE2ETest {

  private static final String INSERT = "query add($name: String) { insert Person { name: $name } }";

  @BeforeAll
  static void initGraphs() {
    // Before the service opens them: the engine, ungated, seeds main and a feature branch.
    for (String id : new String[] {"e2e", "dd", "scoped"}) {
      String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs." + id + ".uri", String.class);
      if (Files.exists(Path.of(uri, "__manifest"))) {
        continue;
      }
      StorageConfig config = StorageConfig.fromEnvironment(uri);
      Omnigraph.init(config, GraphApiTest.resource("graphs/people.pg"), Optional.of("setup")).close();
      try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE)) {
        g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"Ada\"}}\n"), LoadMode.MERGE,
            Optional.of("setup"));
        g.branchCreate("feature", "main", Optional.of("setup"));
        if (id.equals("scoped")) {
          g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"Bob\"}}\n"
              + "{\"edge\":\"Knows\",\"from\":\"Ada\",\"to\":\"Bob\"}\n"), LoadMode.MERGE, Optional.of("setup"));
        }
      }
    }
  }

  private static RequestSpecification as(String actor) {
    return given().header("Authorization", "Bearer " + RoutePolicy.token(actor));
  }

  private static Response mutate(String actor, String branch, String name) {
    return as(actor).contentType("application/json").body(Map.of("query", INSERT, "name", "add", "branch", branch,
        "params", Map.of("name", name))).post("/graphs/e2e/mutate");
  }

  private static String head(String graph, String branch) {
    return as("act-bruno").get("/graphs/" + graph + "/commits?branch=" + branch).then().statusCode(200)
        .extract().path("commits[0].graph_commit_id");
  }

  private static void assertNoSidecar(String graph) throws Exception {
    Path recovery = Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs." + graph + ".uri", String.class),
        dev.omnigraph.recovery.SidecarStore.PREFIX);
    if (Files.exists(recovery)) {
      try (var files = Files.walk(recovery)) {
        assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
      }
    }
  }

  @Test
  void theReferencePolicyGatesWritesAndMergesByBranch() throws Exception {
    // The same table the local CLI runs (PolicyCliTest): same decisions on both surfaces.
    int n = 0;
    for (dev.omnigraph.engine.policy.E2eCases.Case c : dev.omnigraph.engine.policy.E2eCases.CASES) {
      String mainHead = head("e2e", "main");
      Response res = switch (c.op()) {
        case MUTATE_MAIN -> mutate(c.actor(), "main", "P" + n++);
        case MUTATE_FEATURE -> mutate(c.actor(), "feature", "P" + n++);
        case MERGE_INTO_MAIN -> as(c.actor()).contentType("application/json")
            .body(Map.of("source", "feature", "target", "main")).post("/graphs/e2e/branches/merge");
      };
      String what = c + ": " + res.asString();
      if (c.allowed()) {
        assertThat(res.statusCode()).as(what).isEqualTo(200);
        assertThat(res.jsonPath().getString("actor_id")).as(what).isEqualTo(c.actor());
        continue;
      }
      assertThat(res.statusCode()).as(what).isEqualTo(403);
      assertThat(res.jsonPath().getString("code")).isEqualTo("forbidden");
      assertThat(res.jsonPath().getString("error")).isEqualTo(c.op() == dev.omnigraph.engine.policy.E2eCases.Op.MUTATE_MAIN
          ? "policy denied action 'change' on branch 'main' for actor 'act-bruno'"
          : "policy denied action 'branch_merge' on branch 'feature' targeting branch 'main' for actor 'act-bruno'");
      // Nothing partial: the same head, no recovery sidecar.
      assertThat(head("e2e", "main")).as(what).isEqualTo(mainHead);
      assertNoSidecar("e2e");
    }
    // A client-supplied actor header changes nothing: the actor is the token's.
    as("act-bruno").header("X-Actor-Id", "act-andrew").contentType("application/json")
        .body(Map.of("source", "feature", "target", "main")).post("/graphs/e2e/branches/merge").then().statusCode(403);
    // Team reads anywhere; nobody was granted export or the graph list.
    as("act-bruno").get("/graphs/e2e/snapshot?branch=main").then().statusCode(200);
    as("act-andrew").contentType("application/json").body("{}").post("/graphs/e2e/export").then().statusCode(403);
    as("act-andrew").get("/graphs").then().statusCode(403).body("code", org.hamcrest.Matchers.equalTo("forbidden"));
  }

  @Test
  void defaultDenyRefusesEveryNonReadRouteAndServesReads() {
    String before = head("dd", "main");
    for (RouteActions.Route r : RouteActions.ROUTES) {
      if (r.action().isEmpty()) {
        continue;
      }
      RouteAuthorizationTest.Req q = RouteAuthorizationTest.request(r, "dd", "/graphs/dd", () -> head("dd", "main"));
      Response res = RouteAuthorizationTest.send(q, Optional.of("act-bruno"));
      String what = r.method() + " " + r.path() + ": " + res.asString();
      boolean read = r.action().get() == dev.omnigraph.api.policy.PolicyAction.READ;
      // A read is served: its answer is the route's own (the blob route refuses a non-Blob property, 400).
      assertThat(res.statusCode()).as(what).isEqualTo(read ? q.allowedStatus() : r.deniedStatus());
      if (!read && r.deniedStatus() == 403) {
        assertThat(res.jsonPath().getString("error")).as(what).contains("default-deny");
      }
    }
    assertThat(head("dd", "main")).isEqualTo(before);
  }

  /** {@code omnigraph_policy_decisions_total} of one action and outcome, as /q/metrics shows it now. */
  private static double decisions(String action, String outcome) {
    String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^omnigraph_policy_decisions_total\\{action=\""
        + action + "\",outcome=\"" + outcome + "\"} (\\S+)$").matcher(metrics);
    assertThat(m.find()).as("omnigraph_policy_decisions_total{action=%s,outcome=%s} in %s", action, outcome,
        metrics.lines().filter(l -> l.contains("policy")).toList()).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void eachDecisionMovesItsActionAndOutcomeCounterByOne() {
    double allowed = decisions("change", "allow");
    double denied = decisions("change", "deny");
    mutate("act-bruno", "main", "Counted1").then().statusCode(403);
    assertThat(decisions("change", "deny")).isEqualTo(denied + 1);
    assertThat(decisions("change", "allow")).isEqualTo(allowed);
    mutate("act-bruno", "feature", "Counted2").then().statusCode(200);
    assertThat(decisions("change", "allow")).isEqualTo(allowed + 1);
    assertThat(decisions("change", "deny")).isEqualTo(denied + 1);
    // Never an actor or a branch as a label.
    String metrics = given().get("/q/metrics").then().extract().asString();
    assertThat(metrics.lines().filter(l -> l.startsWith("omnigraph_policy_decisions_total")))
        .hasSize(2 * dev.omnigraph.api.policy.PolicyAction.values().length)
        .noneMatch(l -> l.contains("act-") || l.contains("main") || l.contains("feature") || l.contains("graph="));
  }

  private static Map<String, Object> access(String actor, String graph, String branch) {
    Response res = as(actor).get("/graphs/" + graph + "/access?branch=" + branch);
    assertThat(res.statusCode()).as(res.asString()).isEqualTo(200);
    // Only the caller's own decisions: no rule id, group or other actor.
    assertThat(res.asString()).doesNotContain("team").doesNotContain("admins").doesNotContain("promote")
        .doesNotContain(actor.equals("act-bruno") ? "act-andrew" : "act-bruno");
    return res.jsonPath().getMap("");
  }

  private static Map<String, Boolean> only(String... allowed) {
    Map<String, Boolean> out = new java.util.LinkedHashMap<>();
    for (String a : List.of("read", "export", "change", "schema_apply", "branch_create", "branch_delete",
        "branch_merge", "invoke_query", "admin")) {
      out.put(a, List.of(allowed).contains(a));
    }
    return out;
  }

  @Test
  void accessTellsTheCallerItsOwnDecisionsOnABranch() {
    double reads = decisions("read", "allow");
    double changesDenied = decisions("change", "deny");
    Map<String, Object> bruno = access("act-bruno", "e2e", "main");
    assertThat(bruno).containsEntry("graph_id", "e2e").containsEntry("branch", "main")
        .containsEntry("actor_id", "act-bruno").containsEntry("state", "policy_enabled");
    assertThat(bruno.get("actions")).isEqualTo(only("read"));
    // Its preview of nine actions is no request's decision: only the route's own read is counted.
    assertThat(decisions("read", "allow")).isEqualTo(reads + 1);
    assertThat(decisions("change", "deny")).isEqualTo(changesDenied);

    assertThat(access("act-bruno", "e2e", "feature").get("actions")).isEqualTo(only("read", "change"));
    // A merge into protected main is the admins'; into an unprotected branch nobody's.
    assertThat(access("act-andrew", "e2e", "main").get("actions")).isEqualTo(only("read", "branch_merge"));
    assertThat(access("act-andrew", "e2e", "feature").get("actions")).isEqualTo(only("read", "change"));
    Map<String, Object> dd = access("act-bruno", "dd", "main");
    assertThat(dd).containsEntry("state", "default_deny").containsEntry("actor_id", "act-bruno");
    assertThat(dd.get("actions")).isEqualTo(only("read"));
    // Without a branch: main.
    assertThat(as("act-bruno").get("/graphs/e2e/access").then().statusCode(200).extract().<String>path("branch"))
        .isEqualTo("main");
  }

  @Test
  void typeAndQueryScopesOverHttp() throws Exception {
    // The same per-type table the local CLI runs (PolicyCliTest).
    String mainHead = head("scoped", "main");
    java.util.List<String> outcomes = new java.util.ArrayList<>();
    for (dev.omnigraph.engine.policy.E2eCases.ScopedCase c : dev.omnigraph.engine.policy.E2eCases.SCOPED_CASES) {
      Response res = switch (c.op()) {
        case QUERY_PERSON, QUERY_KNOWS -> as(c.actor()).contentType("application/json")
            .body(Map.of("query", dev.omnigraph.engine.policy.E2eCases.SCOPED_QUERIES, "name",
                c.op() == dev.omnigraph.engine.policy.E2eCases.ScopedOp.QUERY_PERSON ? "people" : "friends", "branch", "main"))
            .post("/graphs/scoped/query");
        case LOAD_WITH_KNOWS -> as(c.actor()).contentType("application/x-ndjson")
            .body(dev.omnigraph.engine.policy.E2eCases.LOAD_WITH_KNOWS.getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/graphs/scoped/load/ndjson?mode=merge");
        case LOAD_PERSON -> as(c.actor()).contentType("application/x-ndjson")
            .body("{\"type\":\"Person\",\"data\":{\"name\":\"Di\"}}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .post("/graphs/scoped/load/ndjson?mode=merge");
      };
      assertThat(res.statusCode()).as(c + ": " + res.asString()).isEqualTo(c.allowed() ? 200 : 403);
      outcomes.add(c.actor() + " " + c.op() + " " + (c.allowed() ? "allowed" : res.jsonPath().getString("code") + " "
          + res.jsonPath().getString("error")));
      if (c.op() == dev.omnigraph.engine.policy.E2eCases.ScopedOp.LOAD_WITH_KNOWS) {
        // All or nothing: the Person line before the refused one did not land either.
        assertThat(head("scoped", "main")).isEqualTo(mainHead);
        assertNoSidecar("scoped");
        // The JSON envelope route is the same loader.
        as(c.actor()).contentType("application/json").body(Map.of("data", dev.omnigraph.engine.policy.E2eCases.LOAD_WITH_KNOWS,
            "mode", "merge")).post("/graphs/scoped/load").then().statusCode(403)
            .body("error", org.hamcrest.Matchers.equalTo(dev.omnigraph.engine.policy.E2eCases.LOAD_REFUSAL));
        assertThat(head("scoped", "main")).isEqualTo(mainHead);
      }
    }
    assertThat(outcomes).containsExactly(
        "agent-p QUERY_PERSON allowed",
        "agent-p QUERY_KNOWS forbidden policy denied action 'read' on branch 'main' for actor 'agent-p': type 'Knows'"
            + " is outside its scope",
        "act-bruno QUERY_KNOWS allowed",
        "agent-w LOAD_WITH_KNOWS forbidden " + dev.omnigraph.engine.policy.E2eCases.LOAD_REFUSAL,
        "agent-p LOAD_PERSON forbidden policy denied action 'change' on branch 'main' for actor 'agent-p'",
        "agent-w LOAD_PERSON allowed");

    // Export streams only Person: Ada, Bob and Di (3 rows; the graph also holds one Knows edge).
    String export = as("agent-p").contentType("application/json").body("{}").post("/graphs/scoped/export")
        .then().statusCode(200).extract().asString();
    assertThat(export.lines().toList()).hasSize(3).allMatch(l -> l.startsWith("{\"type\":\"Person\""));
    as("agent-p").contentType("application/json").body(Map.of("type_names", java.util.List.of("Knows")))
        .post("/graphs/scoped/export").then().statusCode(403).body("code", org.hamcrest.Matchers.equalTo("forbidden"));

    // Stored queries: agent-p may invoke people and friends; friends traverses Knows, so only people is listed.
    assertThat(as("agent-p").get("/graphs/scoped/queries").then().statusCode(200).extract()
        .jsonPath().getList("queries.name")).containsExactly("people");
    assertThat(as("act-bruno").get("/graphs/scoped/queries").then().statusCode(200).extract()
        .jsonPath().getList("queries.name")).isEmpty();
    as("agent-p").contentType("application/json").body("{}").post("/graphs/scoped/queries/people").then()
        .statusCode(200).body("row_count", org.hamcrest.Matchers.equalTo(3));
    as("agent-p").contentType("application/json").body("{}").post("/graphs/scoped/queries/add_person").then()
        .statusCode(404).body("code", org.hamcrest.Matchers.equalTo("not_found"));
    as("agent-p").contentType("application/json").body("{}").post("/graphs/scoped/queries/friends").then()
        .statusCode(403);
  }
}
