package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code POST /graphs/{id}/indexes/ensure} (our route; docs/http-api.md) on a real local graph: the
 * optional, strictly read body, authentication, a run that builds the declared indexes in one
 * commit, a second run that publishes nothing, and the typed refusals (unknown graph or branch 404).
 * The methods run in order on graph {@code idx}.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EnsureIndicesApiTest {

  /** people.pg with Person.age and Knows.since indexed. */
  private static final String SCHEMA = GraphApiTest.resource("graphs/people.pg")
      .replace("  age: I32?\n", "  age: I32? @index\n").replace("  since: I64?\n", "  since: I64? @index\n");

  @BeforeAll
  static void initGraph() {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.idx.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(uri), SCHEMA, Optional.of("setup"))) {
        g.load("main", new java.io.StringReader("""
            {"type":"Person","data":{"name":"ann","age":30}}
            {"type":"Person","data":{"name":"bob","age":40}}
            {"edge":"Knows","from":"ann","to":"bob","data":{"since":2001}}
            """), dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static Response ensure(String graph, String body) {
    RequestSpecification r = api().contentType("application/json");
    if (body != null) {
      r = r.body(body.getBytes(StandardCharsets.UTF_8));
    }
    return r.post("/graphs/" + graph + "/indexes/ensure");
  }

  private static long manifestVersion() {
    return api().get("/graphs/idx/snapshot").then().statusCode(200).extract()
        .<Number>path("graph_manifest_version").longValue();
  }

  @Test
  @Order(10)
  void theBodyIsOptionalAndReadStrictly() {
    long before = manifestVersion();
    ensure("idx", "{\"brnch\":\"main\"}").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("brnch"));
    ensure("idx", "{\"branch\": ").then().statusCode(400).body("code", equalTo("bad_request"));
    ensure("nope", "{}").then().statusCode(404).body("code", equalTo("not_found"));
    ensure("idx", "{\"branch\":\"nope\"}").then().statusCode(404).body("code", equalTo("not_found"));
    given().contentType("application/json").body("{}").post("/graphs/idx/indexes/ensure").then().statusCode(401)
        .body("code", equalTo("unauthorized"));
    assertThat(manifestVersion()).isEqualTo(before);
  }

  @Test
  @Order(20)
  void aRunBuildsTheDeclaredIndexesInOneCommit() {
    long before = manifestVersion();
    Response r = ensure("idx", null);
    r.then().statusCode(200)
        .body("uri", notNullValue())
        .body("branch", equalTo("main"))
        .body("changed", equalTo(true))
        .body("graph_commit_id", notNullValue())
        .body("tables.table_key", equalTo(List.of("edge:Knows", "node:Person")))
        .body("tables[0].indexes.name", equalTo(List.of("since_idx")))
        .body("tables[0].indexes.kind", equalTo(List.of("btree")))
        .body("tables[1].indexes.name", equalTo(List.of("name_idx", "age_idx")))
        .body("tables[1].indexes.kind", equalTo(List.of("inverted", "btree")))
        .body("tables[1].first_touch", equalTo(false))
        .body("tables[1]", not(hasKey("native_branch")))
        .body("pending.size()", equalTo(0));
    assertThat(r.<Number>path("tables[1].to_version").longValue())
        .isEqualTo(r.<Number>path("tables[1].from_version").longValue() + 1);
    assertThat(r.<Number>path("graph_manifest_version").longValue()).isGreaterThan(before);
    String head = api().get("/graphs/idx/commits").then().statusCode(200).extract().path("commits[0].graph_commit_id");
    assertThat(head).isEqualTo(r.<String>path("graph_commit_id"));
    String actor = api().get("/graphs/idx/commits/" + head).then().statusCode(200).extract().path("actor_id");
    assertThat(actor).isEqualTo("alice");
  }

  @Test
  @Order(30)
  void aSecondRunPublishesNothing() {
    long before = manifestVersion();
    ensure("idx", "{\"branch\":\"main\"}").then().statusCode(200)
        .body("changed", equalTo(false))
        .body("$", not(hasKey("graph_commit_id")))
        .body("tables.size()", equalTo(0))
        .body("graph_manifest_version", equalTo((int) before));
    assertThat(manifestVersion()).isEqualTo(before);
  }
}
