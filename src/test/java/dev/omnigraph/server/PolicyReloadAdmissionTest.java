package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 5 over HTTP against a running service ({@link AuthorizationProfile}, graph {@code live}):
 * per-actor admission control (429 {@code too_many_requests} with {@code Retry-After}, permits released
 * when a response ends, streamed or failed) and the policy reload without restart (a good file applies
 * within 10 s, a broken one keeps the old decisions, counts a failure and leaves readiness UP).
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@TestProfile(AuthorizationProfile.class)
class PolicyReloadAdmissionTest {

  private static final String READ = "query q() { match { $p: Person } return { $p.name } }";
  private static final String INSERT = "query add($name: String) { insert Person { name: $name } }";

  @TestHTTPResource("/") URL server;
  @Inject AdmissionControl admission;

  @BeforeAll
  static void initGraph() {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.live.uri", String.class);
    if (Files.exists(Path.of(uri, "__manifest"))) {
      return;
    }
    StorageConfig config = StorageConfig.fromEnvironment(uri);
    Omnigraph.init(config, GraphApiTest.resource("graphs/people.pg"), Optional.of("setup")).close();
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"Ada\"}}\n"), LoadMode.MERGE,
          Optional.of("setup"));
    }
  }

  private static RequestSpecification as(String actor) {
    return given().header("Authorization", "Bearer " + RoutePolicy.token(actor));
  }

  private static Response read(String actor) {
    return as(actor).contentType("application/json").body(Map.of("query", READ, "name", "q"))
        .post("/graphs/live/query");
  }

  private static Response mutateMain(String actor, String name) {
    return as(actor).contentType("application/json").body(Map.of("query", INSERT, "name", "add", "branch", "main",
        "params", Map.of("name", name))).post("/graphs/live/mutate");
  }

  /** A {@code POST /graphs/live/query} whose body is only half sent: in flight until the rest comes or the socket closes. */
  private Socket held(String actor, byte[] body) throws Exception {
    Socket s = new Socket(server.getHost(), server.getPort());
    OutputStream out = s.getOutputStream();
    out.write(("POST /graphs/live/query HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
        + RoutePolicy.token(actor) + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body, 0, body.length / 2);
    out.flush();
    return s;
  }

  private static void await(String what, long millis, BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(end);
      Thread.sleep(20);
    }
  }

  private static double metric(String name, String label) {
    String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*" + Pattern.quote(label) + "[^}]*} (\\S+)$")
        .matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private static final String REJECTIONS = "omnigraph_admission_rejections_total";

  @Test
  void aSecondActorIsServedWhileTheFirstIsAtItsLimitAndEveryPermitIsReleased() throws Exception {
    Optional<String> carla = Optional.of("act-carla");
    double rejectedBefore = metric(REJECTIONS, "actor_class=\"own_limit\"");
    byte[] body = ("{\"query\": \"" + READ + "\", \"name\": \"q\"}").getBytes(StandardCharsets.UTF_8);
    try (Socket first = held("act-carla", body); Socket second = held("act-carla", body)) {
      await("two admitted requests", 5_000, () -> admission.inFlight(carla) == 2);
      Response refused = read("act-carla");
      assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(429);
      assertThat(refused.header("Retry-After")).isEqualTo("1");
      assertThat(refused.jsonPath().getString("code")).isEqualTo("too_many_requests");
      assertThat(refused.jsonPath().getString("error"))
          .isEqualTo("actor 'act-carla' already has 2 requests in flight (its admission limit); retry after 1 s");
      // Another actor, and the unauthenticated probes, are not held back by carla's limit.
      read("act-bruno").then().statusCode(200);
      given().get("/healthz").then().statusCode(200);
      given().get("/q/health/ready").then().statusCode(200);
      // One held request ends normally (its answer is read), the other fails (its connection closes).
      first.getOutputStream().write(body, body.length / 2, body.length - body.length / 2);
      first.getOutputStream().flush();
      InputStream in = first.getInputStream();
      String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(status).isEqualTo("HTTP/1.1 200");
    }
    await("both permits released", 5_000, () -> admission.inFlight(carla) == 0);
    read("act-carla").then().statusCode(200);
    assertThat(metric(REJECTIONS, "actor_class=\"own_limit\"") - rejectedBefore).isEqualTo(1.0);

    // A burst over the limit: some refused, none leaks a permit.
    ExecutorService pool = Executors.newFixedThreadPool(8);
    int refusedInBurst = 0;
    try {
      List<Future<Integer>> burst = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        burst.add(pool.submit(() -> read("act-carla").statusCode()));
      }
      for (Future<Integer> f : burst) {
        int code = f.get();
        assertThat(code).isIn(200, 429);
        refusedInBurst += code == 429 ? 1 : 0;
      }
    } finally {
      pool.shutdownNow();
    }
    await("the burst's permits released", 5_000, () -> admission.inFlight(carla) == 0);
    assertThat(metric(REJECTIONS, "actor_class=\"own_limit\"") - rejectedBefore).isEqualTo(1.0 + refusedInBurst);
    for (int i = 0; i < 10; i++) {
      read("act-carla").then().statusCode(200);
    }
    // Streamed answers (NDJSON export) release theirs too: three in a row under a limit of two.
    for (int i = 0; i < 3; i++) {
      String ndjson = as("act-carla").contentType("application/json").body("{}").post("/graphs/live/export")
          .then().statusCode(200).extract().asString();
      assertThat(ndjson).contains("\"Ada\"");
    }
    await("the exports' permits released", 5_000, () -> admission.inFlight(carla) == 0);
  }

  private static final String FAILURES = "omnigraph_policy_reload_failures_total";
  private static final String RELOADS = "omnigraph_policy_reloads_total";
  private static final String SOURCE = "source=\"omnigraph.graphs.live.policy-file\"";

  /** Replaces the policy file in one step, as a ConfigMap update does (never a half-written file). */
  private static void rewrite(String policy) throws Exception {
    Path file = Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs.live.policy-file", String.class));
    Path next = Files.writeString(file.resolveSibling("next-policy.yaml"), policy);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void aPolicyFileChangeAppliesWithoutRestartAndABrokenOneKeepsTheOldDecisions() throws Exception {
    int[] n = {0};
    // Policy A: the team may not change main.
    assertThat(mutateMain("act-bruno", "R" + n[0]++).statusCode()).isEqualTo(403);
    double reloads = metric(RELOADS, SOURCE);

    long start = System.nanoTime();
    rewrite(AuthorizationProfile.LIVE_B);
    await("policy B applied", 10_000, () -> mutateMain("act-bruno", "R" + n[0]++).statusCode() == 200);
    long appliedMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(appliedMillis).isLessThan(10_000);
    assertThat(metric(RELOADS, SOURCE) - reloads).isEqualTo(1.0);

    double failures = metric(FAILURES, SOURCE);
    rewrite(AuthorizationProfile.LIVE_B.replaceFirst("branch_scope", "branch_scpoe")); // rule team-read
    await("the broken file refused", 10_000, () -> metric(FAILURES, SOURCE) - failures == 1.0);
    // The decisions stay B's; readiness stays UP.
    assertThat(mutateMain("act-bruno", "R" + n[0]++).statusCode()).isEqualTo(200);
    given().get("/q/health/ready").then().statusCode(200);
    // Refused once per change of the bytes, not at every pass.
    Thread.sleep(500);
    assertThat(metric(FAILURES, SOURCE) - failures).isEqualTo(1.0);
    assertThat(metric(RELOADS, SOURCE) - reloads).isEqualTo(1.0);

    rewrite(AuthorizationProfile.LIVE_A);
    await("policy A applied again", 10_000, () -> mutateMain("act-bruno", "R" + n[0]++).statusCode() == 403);
    assertThat(metric(RELOADS, SOURCE) - reloads).isEqualTo(2.0);
    System.out.printf("policy B applied %d ms after the file was replaced%n", appliedMillis);
  }
}
