package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Readiness for what blocks writes before any write was tried. Graph {@code x}, whose last write
 * left a rollback-class sidecar (its table commit landed, the sidecar stayed ARMED), is DOWN with
 * reason {@code pending_sidecar} (and no operation id) until the background reconciler's first pass
 * (one 8 s interval after start) rolls it back, then UP, with no restart; the rolled-back row is gone. Graph
 * {@code d}, whose sidecar was deleted while no service ran (uncovered drift), is DOWN with reason
 * {@code uncovered_drift} from the start-up drift check, before any request opened it, until an
 * operator's repair, then UP.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@TestProfile(RecoveryProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecoveryReadinessTest {

  private static final String CHECK = "checks.find { it.name == 'omnigraph-graphs' }.data.";
  private static final String AUTH = "Bearer " + GraphsTestResource.ALICE_TOKEN;

  @Inject GraphRegistry registry;

  @Test
  @Order(1)
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
      // Graph d stays DOWN for drift (the next test), so this waits on x's own state.
    } while ((!"up".equals(ready.jsonPath().get(CHECK + "'x.state'"))
        || !Boolean.TRUE.equals(ready.jsonPath().get(CHECK + "'x.open'")))
        && System.currentTimeMillis() < deadline);
    ready.then()
        .body(CHECK + "'x.state'", equalTo("up"))
        .body(CHECK + "'x.open'", equalTo(true));
    assertThat(ready.jsonPath().getMap(CHECK.substring(0, CHECK.length() - 1))).doesNotContainKey("x.reason");

    String auth = AUTH;
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

  /**
   * Before: readiness was UP for a drifted graph until a write was refused with the drift (every
   * write fails while the probe says ready). The drift check runs at start (and at open, and on the
   * reconciler's passes while due), so readiness tells before the first write.
   */
  /**
   * Issue 48: a sidecar recovery refuses kept the read-write open failing, so after a restart every
   * read answered 503 too. Reads are served (the published state: ann), writes answer 503
   * {@code recovery_required}, readiness is DOWN; the operator's quarantine and repair bring it UP.
   */
  @Test
  @Order(2)
  void aSidecarRecoveryRefusesKeepsReadsServedUntilQuarantineAndRepair() throws Exception {
    String refused = System.getProperty("omnigraph.test.recovery.refused");
    assertThat(refused).isNotBlank();
    Response down = awaitReady(r -> "down".equals(r.jsonPath().get(CHECK + "'f.state'")));
    down.then().statusCode(503).body(CHECK + "'f.state'", equalTo("down"));

    given().header("Authorization", AUTH).contentType("application/json")
        .body(Map.of("query", "query q() { match { $p: Person } return { $p.name } order { $p.name } }"))
        .post("/graphs/f/query").then().statusCode(200)
        .body("rows.'p.name'", equalTo(List.of("ann")));
    given().header("Authorization", AUTH).get("/graphs/f/snapshot").then().statusCode(200);
    given().header("Authorization", AUTH).get("/graphs/f/commits").then().statusCode(200);
    Response refusedWrite = load("f", "cy");
    assertThat(refusedWrite.statusCode()).as(refusedWrite.asString()).isEqualTo(503);
    assertThat(refusedWrite.jsonPath().getString("recovery_required.operation_id")).as(refusedWrite.asString())
        .isEqualTo(refused);
    assertThat(refusedWrite.jsonPath().getString("error")).contains("recover --quarantine " + refused);

    // The operator's way out, as the refusal names it: quarantine, then repair.
    String f = org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("omnigraph.graphs.f.uri",
        String.class);
    dev.omnigraph.engine.RootContents.quarantineSidecar(dev.omnigraph.api.storage.StorageConfig.local(java.nio.file.Path.of(f)),
        refused, q -> { });
    assertThat(registry.get("f").handle().repair(true, java.util.Optional.of("alice")).drift()).hasSize(1);
    awaitReady(r -> "up".equals(r.jsonPath().get(CHECK + "'f.state'")))
        .then().body(CHECK + "'f.state'", equalTo("up"));
    load("f", "cy").then().statusCode(200).body("total_entities", equalTo(1));
    given().header("Authorization", AUTH).contentType("application/json")
        .body(Map.of("query", "query q() { match { $p: Person } return { $p.name } order { $p.name } }"))
        .post("/graphs/f/query").then().statusCode(200)
        .body("rows.'p.name'", equalTo(List.of("ann", "cy")));
  }

  @Test
  @Order(3)
  void readinessIsDownForUncoveredDriftBeforeAnyWriteUntilRepair() throws Exception {
    Response down = awaitReady(r -> "uncovered_drift".equals(r.jsonPath().get(CHECK + "'d.reason'")));
    down.then().statusCode(503)
        .body("status", equalTo("DOWN"))
        .body(CHECK + "'d.state'", equalTo("down"))
        .body(CHECK + "'d.reason'", equalTo("uncovered_drift"))
        // Found before any request to d: the start-up check read it through a read-only handle.
        .body(CHECK + "'d.open'", equalTo(false));
    String d = org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("omnigraph.graphs.d.uri",
        String.class);
    assertThat(down.asString()).doesNotContain(d).doesNotContain("node:Person");

    // Opening d (a read) runs the open's own drift check: still drifted; the read itself works.
    given().header("Authorization", AUTH).contentType("application/json")
        .body(Map.of("query", "query q() { match { $p: Person } return { $p.name } order { $p.name } }"))
        .post("/graphs/d/query").then().statusCode(200)
        .body("rows.'p.name'", equalTo(List.of("ann")));
    given().get("/q/health/ready").then().statusCode(503)
        .body(CHECK + "'d.reason'", equalTo("uncovered_drift"))
        .body(CHECK + "'d.open'", equalTo(true));
    // What readiness announced: the write is refused with the drift.
    load("d", "cy").then().statusCode(409).body("error", containsString("uncovered drift"));

    // An operator repairs (here through the served handle); the reconciler's next drift check clears it.
    assertThat(registry.get("d").handle().repair(true, java.util.Optional.of("alice")).drift()).hasSize(1);
    Response up = awaitReady(r -> "up".equals(r.jsonPath().get(CHECK + "'d.state'")));
    up.then().body(CHECK + "'d.state'", equalTo("up"));
    assertThat(up.jsonPath().getMap(CHECK.substring(0, CHECK.length() - 1))).doesNotContainKey("d.reason");
    load("d", "cy").then().statusCode(200).body("total_entities", equalTo(1));
    given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
  }

  private static Response load(String graph, String name) {
    return given().header("Authorization", AUTH).contentType("application/x-ndjson")
        .body(("{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .post("/graphs/" + graph + "/load/ndjson?mode=append");
  }

  /** Polls readiness until {@code done} holds (at most 60 s: reconciler passes are 8 s apart) and returns the last answer. */
  private static Response awaitReady(java.util.function.Predicate<Response> done) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    Response ready = given().get("/q/health/ready");
    while (!done.test(ready) && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
      ready = given().get("/q/health/ready");
    }
    return ready;
  }
}
