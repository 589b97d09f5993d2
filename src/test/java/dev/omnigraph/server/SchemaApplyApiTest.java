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
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code POST /graphs/{id}/schema/apply} on real local graphs: the request shape, authentication,
 * an apply that adds a type and a property, a repeated apply that changes nothing, and the refusals
 * (unsupported change 400, other branches 409, a desired schema that does not parse 400 at its
 * position, one that breaks a stored query 400). The methods run in order on graph {@code apply},
 * each starting from the schema the one before left.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchemaApplyApiTest {

  private static final String PEOPLE = GraphApiTest.resource("graphs/people.pg");
  /** People plus a property on Company and a new type: two supported steps. */
  private static final String WITH_CITY = PEOPLE.replace("founded: Date?", "founded: Date?\n  city: String?")
      + "\nnode City { name: String @key }\n";

  @BeforeAll
  static void initGraphs() {
    // Graph sq is StoredQueriesApiTest's too: initialized by whichever class runs first, never applied to.
    String sq = ConfigProvider.getConfig().getValue("omnigraph.graphs.sq.uri", String.class);
    if (!Files.exists(Path.of(sq, "__manifest"))) {
      Omnigraph.init(StorageConfig.fromEnvironment(sq), PEOPLE, Optional.of("setup")).close();
    }
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.apply.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(uri), PEOPLE, Optional.of("setup"))) {
        g.load("main", new java.io.StringReader("""
            {"type":"Person","data":{"name":"ann","age":30}}
            {"type":"Company","data":{"name":"acme","founded":"2001-02-03"}}
            """), dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static Response apply(String graph, String body) {
    return api().contentType("application/json").body(body.getBytes(StandardCharsets.UTF_8))
        .post("/graphs/" + graph + "/schema/apply");
  }

  private static Response apply(String schema, boolean allowDataLoss) {
    return api().contentType("application/json")
        .body(Map.of("schema_source", schema, "allow_data_loss", allowDataLoss))
        .post("/graphs/apply/schema/apply");
  }

  private static String schema() {
    return api().get("/graphs/apply/schema").then().statusCode(200).extract().path("schema_source");
  }

  private static long manifestVersion() {
    return api().get("/graphs/apply/snapshot").then().statusCode(200).extract()
        .<Number>path("graph_manifest_version").longValue();
  }

  @Test
  @Order(10)
  void theBodyIsCheckedStrictlyBeforeAnythingRuns() {
    apply("apply", "{}").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("'schema_source'"));
    apply("apply", "{\"schema_source\":\"" + "node A { name: String @key }" + "\",\"allow_data_los\":true}")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("allow_data_los"));
    apply("apply", "{\"schema_source\": ").then().statusCode(400).body("code", equalTo("bad_request"));
    apply("apply", "").then().statusCode(400).body("error", containsString("request body is required"));
    apply("apply", "{\"schema_source\":\"x\",\"allow_data_loss\":\"yes\"}").then().statusCode(400)
        .body("error", containsString("allow_data_loss"));
    apply("apply", "{\"schema_source\":\"x\",\"schema_source\":\"y\"}").then().statusCode(400);
    api().contentType("text/plain").body("x").post("/graphs/apply/schema/apply").then().statusCode(415);
    apply("nope", "{\"schema_source\":\"x\"}").then().statusCode(404).body("code", equalTo("not_found"));
    assertThat(schema()).isEqualTo(PEOPLE);
  }

  @Test
  @Order(11)
  void anApplyNeedsAKnownBearerToken() {
    given().contentType("application/json").body(Map.of("schema_source", WITH_CITY))
        .post("/graphs/apply/schema/apply").then().statusCode(401).body("code", equalTo("unauthorized"));
    given().header("Authorization", "Bearer not-a-token").contentType("application/json")
        .body(Map.of("schema_source", WITH_CITY)).post("/graphs/apply/schema/apply").then().statusCode(401);
    assertThat(schema()).isEqualTo(PEOPLE);
  }

  @Test
  @Order(12)
  void aDesiredSchemaThatBreaksAStoredQueryIsRefusedNamingIt() {
    String before = api().get("/graphs/sq/schema").then().statusCode(200).extract().path("schema_source");
    String renamed = before.replace("age: I32?", "years: I32? @rename_from(\"age\")")
        .replace("@range(age,", "@range(years,");
    api().contentType("application/json").body(Map.of("schema_source", renamed)).post("/graphs/sq/schema/apply")
        .then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", containsString("graph 'sq': 3 stored queries failed the schema check"))
        .body("error", containsString("query 'add_person'"))
        .body("error", containsString("query 'find_person'"))
        .body("error", containsString("query 'set_age'"));
    assertThat(api().get("/graphs/sq/schema").then().extract().<String>path("schema_source")).isEqualTo(before);
  }

  @Test
  @Order(20)
  void anApplyAddsATypeAndAPropertyInOneCommit() {
    long before = manifestVersion();
    apply(WITH_CITY, false).then().statusCode(200)
        .body("uri", notNullValue())
        .body("supported", equalTo(true))
        .body("applied", equalTo(true))
        .body("step_count", equalTo(2))
        .body("steps.kind", equalTo(List.of("add_type", "add_property")))
        .body("steps[0].name", equalTo("City"))
        .body("steps[1].type_name", equalTo("Company"))
        .body("steps[1].property_name", equalTo("city"))
        .body("graph_commit_id", notNullValue())
        .body("$", not(hasKey("hard_dropped")));
    assertThat(manifestVersion()).isGreaterThan(before);
    assertThat(schema()).isEqualTo(WITH_CITY);
    String head = api().get("/graphs/apply/commits").then().statusCode(200).extract().path("commits[0].graph_commit_id");
    assertThat(head).isNotNull();
    // The new type and property take rows at once.
    api().contentType("application/x-ndjson").body("""
        {"type":"City","data":{"name":"paris"}}
        {"type":"Company","data":{"name":"bolt","city":"paris"}}
        """.getBytes(StandardCharsets.UTF_8)).post("/graphs/apply/load/ndjson?mode=append").then().statusCode(200);
  }

  @Test
  @Order(30)
  void theSameSchemaAgainAppliesNothing() {
    long before = manifestVersion();
    apply(WITH_CITY, false).then().statusCode(200)
        .body("supported", equalTo(true))
        .body("applied", equalTo(false))
        .body("step_count", equalTo(0))
        .body("steps.size()", equalTo(0))
        .body("graph_manifest_version", equalTo((int) before))
        .body("$", not(hasKey("graph_commit_id")));
    assertThat(manifestVersion()).isEqualTo(before);
  }

  @Test
  @Order(40)
  void anUnsupportedChangeIs400NamingTheEntityAndWritesNothing() {
    long before = manifestVersion();
    apply(WITH_CITY.replace("founded: Date?", "founded: DateTime?"), false).then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", containsString("node:Company.founded"));
    assertThat(manifestVersion()).isEqualTo(before);
    assertThat(schema()).isEqualTo(WITH_CITY);
  }

  @Test
  @Order(50)
  void aDesiredSchemaThatDoesNotParseIs400AtItsPosition() {
    apply("node Person {\n  name: Strin @key\n}\n", false).then().statusCode(400)
        .body("code", equalTo("bad_request"))
        .body("error", containsString("2:"));
    assertThat(schema()).isEqualTo(WITH_CITY);
  }

  @Test
  @Order(60)
  void otherBranchesBlockAnApplyWith409UntilDeleted() {
    api().contentType("application/json").body(Map.of("name", "feature")).post("/graphs/apply/branches")
        .then().statusCode(200);
    long before = manifestVersion();
    String withRegion = WITH_CITY + "\nnode Region { name: String @key }\n";
    apply(withRegion, false).then().statusCode(409)
        .body("code", equalTo("conflict"))
        .body("error", containsString("feature"))
        .body("error", containsString("merge or delete them first"));
    assertThat(manifestVersion()).isEqualTo(before);
    assertThat(schema()).isEqualTo(WITH_CITY);
    api().delete("/graphs/apply/branches/feature").then().statusCode(200);
    apply(withRegion, false).then().statusCode(200).body("applied", equalTo(true))
        .body("steps.kind", equalTo(List.of("add_type")));
    api().contentType("application/x-ndjson").body("{\"type\":\"Region\",\"data\":{\"name\":\"north\"}}\n"
        .getBytes(StandardCharsets.UTF_8)).post("/graphs/apply/load/ndjson?mode=append").then().statusCode(200);
  }

  @Test
  @Order(70)
  void aHardDropNamesTheDatasetsItMadeIrreversible() {
    String region = api().get("/graphs/apply/snapshot").then().statusCode(200).extract()
        .path("datasets.find { it.type_name == 'Region' }.dataset_path");
    assertThat(region).isNotNull();
    apply(WITH_CITY, true).then().statusCode(200)
        .body("applied", equalTo(true))
        .body("steps.kind", equalTo(List.of("drop_type")))
        .body("steps[0].name", equalTo("Region"))
        .body("steps[0].mode", equalTo("hard"))
        .body("hard_dropped.size()", equalTo(1))
        .body("hard_dropped", equalTo(List.of(region)));
    assertThat(schema()).isEqualTo(WITH_CITY);
  }
}
