package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A graph whose last write left a rollback-class sidecar (its table commit landed, the sidecar stayed
 * ARMED) is served: readiness is DOWN with reason {@code pending_sidecar} (and no operation id)
 * until the background reconciler's first pass (4 s after start) rolls it back, then UP, with no
 * restart; the rolled-back row is gone.
 */
@QuarkusTest
@TestProfile(RecoveryProfile.class)
class RecoveryReadinessTest {

  private static final String CHECK = "checks.find { it.name == 'omnigraph-graphs' }.data.";

  @Test
  void readinessIsDownUntilTheReconcilerRollsTheSidecarBack() throws Exception {
    String operation = System.getProperty("omnigraph.test.recovery.operation");
    assertThat(operation).isNotBlank();

    String down = given().get("/q/health/ready").then().statusCode(503)
        .body("status", equalTo("DOWN"))
        .body(CHECK + "'x.state'", equalTo("down"))
        .body(CHECK + "'x.reason'", equalTo("pending_sidecar"))
        .body(CHECK + "'x.open'", equalTo(false))
        .extract().asString();
    // The unauthenticated probe names no operation id and no storage location (those are logged).
    assertThat(down).doesNotContain(operation).doesNotContain("omnigraph-recovery-");
    given().get("/q/health/live").then().statusCode(200);

    long deadline = System.currentTimeMillis() + 60_000;
    Response ready;
    do {
      Thread.sleep(250);
      ready = given().get("/q/health/ready");
      // UP comes when the sidecar is gone; the reconciler's open returns a moment later (the open's
      // own recovery deletes the sidecar as its last step, before the handle is published).
    } while ((ready.statusCode() != 200 || !Boolean.TRUE.equals(ready.jsonPath().get(CHECK + "'x.open'")))
        && System.currentTimeMillis() < deadline);
    ready.then().statusCode(200)
        .body("status", equalTo("UP"))
        .body(CHECK + "'x.state'", equalTo("up"))
        .body(CHECK + "'x.open'", equalTo(true));
    assertThat(ready.jsonPath().getMap(CHECK.substring(0, CHECK.length() - 1))).doesNotContainKey("x.reason");

    String auth = "Bearer " + GraphsTestResource.ALICE_TOKEN;
    given().header("Authorization", auth).contentType("application/json")
        .body(Map.of("query", "query q() { match { $p: Person } return { $p.name } order { $p.name } }"))
        .post("/graphs/x/query").then().statusCode(200)
        .body("rows.'p.name'", equalTo(List.of("ann")));
    // The rollback is the newest commit, by recovery's own actor; writes go through again.
    given().header("Authorization", auth).get("/graphs/x/commits").then().statusCode(200)
        .body("commits[0].actor_id", equalTo("omnigraph:recovery"));
    given().header("Authorization", auth).contentType("application/x-ndjson")
        .body("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .post("/graphs/x/load/ndjson?mode=append").then().statusCode(200).body("total_entities", equalTo(1));

    assertThat(given().get("/q/metrics").then().extract().asString())
        .contains("omnigraph_recovery_outcomes_total{action=\"completed\",graph=\"x\",verdict=\"incomplete_phase_b\"} 1.0")
        .contains("omnigraph_recovery_pending_sidecars{graph=\"x\"} 0.0");
  }
}
