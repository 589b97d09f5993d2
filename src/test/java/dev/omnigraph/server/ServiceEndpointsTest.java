package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.Versions;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
class ServiceEndpointsTest {

  @Test
  void healthzHasTheReferenceShape() {
    given().when().get("/healthz").then()
        .statusCode(200)
        .contentType("application/json")
        .body("status", equalTo("ok"))
        // The reference SDK checks version's major.minor against the API it speaks (0.10); our build is beside it.
        .body("version", equalTo(Versions.API_VERSION))
        .body("version", org.hamcrest.Matchers.startsWith("0.10."))
        .body("source_version", equalTo("omnigraph-jvm " + Versions.version()))
        .body("internal_schema_version", equalTo(6));
  }

  /**
   * HTTP/2 is off (application.properties): a client asking for the h2c upgrade goes on in HTTP/1.1,
   * where the server, not the client's flow-control window, bounds what a streamed response buffers.
   */
  @Test
  void anH2cUpgradeIsAnsweredInHttp11() throws Exception {
    java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_2).build();
    java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest.newBuilder(
        java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + "/healthz")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
  }

  @Test
  void livenessIsUp() {
    given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
  }

  @Test
  void readinessCarriesGraphIdsAndStatesOnly() {
    io.restassured.response.Response ready = given().when().get("/q/health/ready");
    // Graph g holds a graph once a class of this shared test application initialised it; until then
    // it is down for no_graph, as "empty" always is (issue 45).
    String g = ready.jsonPath().getString("checks.find { it.name == 'omnigraph-graphs' }.data.'g.state'");
    String gReason = ready.jsonPath().getString("checks.find { it.name == 'omnigraph-graphs' }.data.'g.reason'");
    assertThat(g.equals("up") || (g.equals("down") && "no_graph".equals(gReason))).as(g + " " + gReason).isTrue();
    ready.then()
        .body("checks.name", hasItem("omnigraph-graphs"))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'empty.state'", equalTo("down"))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'empty.reason'", equalTo("no_graph"))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'empty.open'", equalTo(false));
    java.util.Map<String, Object> data = ready.jsonPath().getMap("checks.find { it.name == 'omnigraph-graphs' }.data");
    // No storage location, operation id or error text: only these keys, with short values.
    assertThat(data.keySet()).allMatch(k -> k.matches("[A-Za-z0-9_-]+\\.(state|open|reason)"));
    assertThat(data.values()).allMatch(v -> String.valueOf(v).matches("up|down|true|false|[a-z_]+"));
    given().when().get("/healthz").then().body("keySet()", org.hamcrest.Matchers.containsInAnyOrder(
        "status", "version", "internal_schema_version", "source_version"));
  }

  @Test
  void prometheusMetricsAreExposed() {
    // Touch an endpoint first so the HTTP server metrics have a sample.
    given().get("/healthz").then().statusCode(200);
    given().when().get("/q/metrics").then()
        .statusCode(200)
        .body(containsString("# TYPE"))
        .body(containsString("http_server_requests_seconds_count"));
  }

  @Test
  void metricsLabelRouteTemplatesNeverRawPaths() {
    String auth = "Bearer " + GraphsTestResource.ALICE_TOKEN;
    for (int i = 0; i < 100; i++) {
      // Matching fails after the path (405, 415): Quarkus would label these by their raw path.
      given().put("/graphs/junk" + i + "/snapshot").then().statusCode(405);
      given().post("/graphs/junk" + i + "/query").then().statusCode(415);
      given().get("/graphs/junk" + i + "/snapshot").then().statusCode(401);
      given().get("/graphs/junk" + i + "/x/y").then().statusCode(404);
      given().delete("/graphs/junk" + i + "/branches/b" + i).then().statusCode(401);
    }
    // Real routes after the junk: each still appears, by its template.
    given().header("Authorization", auth).get("/graphs").then().statusCode(200);
    given().header("Authorization", auth).get("/graphs/nope/snapshot").then().statusCode(404);
    given().get("/healthz").then().statusCode(200);
    String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
    java.util.Set<String> uris = new java.util.TreeSet<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"")
        .matcher(metrics);
    while (m.find()) {
      uris.add(m.group(1));
    }
    assertThat(uris).noneMatch(u -> u.contains("junk"))
        .contains("/graphs", "/graphs/{graph_id}/snapshot", "/healthz", "/graphs/{graph_id}/branches/{branch: .+}",
            "NOT_FOUND", ServiceMetrics.UNMATCHED)
        .allMatch(u -> !u.startsWith("/") || ServiceMetrics.templates(
            java.util.List.of(GraphResource.class, HealthzResource.class, OpenApiResource.class)).contains(u));
    assertThat(metrics).contains("http_server_requests_seconds_count{method=\"PUT\",outcome=\"CLIENT_ERROR\","
        + "status=\"405\",uri=\"UNMATCHED\"} 100.0");
  }

  @Test
  void everyRouteTemplateIsALabel() {
    assertThat(ServiceMetrics.templates(java.util.List.of(GraphResource.class, HealthzResource.class))).contains(
        "/graphs", "/graphs/{graph_id}/query", "/graphs/{graph_id}/mutate/if-graph-commit",
        "/graphs/{graph_id}/load/ndjson", "/graphs/{graph_id}/commits/{commit_id}", "/healthz");
    assertThat(ServiceMetrics.labelable("/graphs/{graph_id}/snapshot")).isTrue();
    assertThat(ServiceMetrics.labelable("NOT_FOUND")).isTrue();
    assertThat(ServiceMetrics.labelable("/graphs/g/snapshot")).isFalse();
    assertThat(ServiceMetrics.labelable("/graphs/{x}/junk")).isFalse();
  }

  @Test
  void openapiDocumentsHealthz() {
    given().accept("application/json").when().get("/q/openapi?format=json").then()
        .statusCode(200)
        .body("paths.'/healthz'.get.operationId", equalTo("health"));
  }
}
