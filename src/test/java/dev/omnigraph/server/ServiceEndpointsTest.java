package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.omnigraph.Versions;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ServiceEndpointsTest {

  @Test
  void healthzHasTheReferenceShape() {
    given().when().get("/healthz").then()
        .statusCode(200)
        .contentType("application/json")
        .body("status", equalTo("ok"))
        .body("version", equalTo(Versions.version()))
        .body("internal_schema_version", equalTo(6));
  }

  @Test
  void livenessIsUp() {
    given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
  }

  @Test
  void readinessReportsEveryGraphAndItsPendingSidecars() {
    given().when().get("/q/health/ready").then()
        .statusCode(200)
        .body("status", equalTo("UP"))
        .body("checks.name", hasItem("omnigraph-graphs"))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'g.pending_recovery_sidecars'", equalTo(0))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'g.write_blocking'", equalTo(""))
        .body("checks.find { it.name == 'omnigraph-graphs' }.data.'empty.uri'", containsString("empty"));
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
  void openapiDocumentsHealthz() {
    given().accept("application/json").when().get("/q/openapi?format=json").then()
        .statusCode(200)
        .body("paths.'/healthz'.get.operationId", equalTo("health"));
  }
}
