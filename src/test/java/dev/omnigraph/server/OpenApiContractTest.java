package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Our served OpenAPI document against the reference's (API 0.10, a copy in
 * {@code src/test/resources/reference/}, so a fresh clone runs it): for every route we serve, the
 * same operation id, parameters, request body and responses with their schemas, compared
 * structurally ({@link OpenApiDiff}). The routes of the reference we do not serve are listed here by
 * name, and the document must list exactly the routes the resources serve, so adding a route forces
 * this list, the document and the resource to agree.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class OpenApiContractTest {

  /** Reference operations this server does not serve (404); each is in docs/compatibility.md. */
  static final Set<String> NOT_SERVED = Set.of(
      "POST /graphs/{graph_id}/change",
      "POST /graphs/{graph_id}/read");

  /**
   * Operations of this server the reference does not have, documented in our document (each in
   * docs/http-api.md): served and listed, compared with nothing.
   */
  static final Set<String> OURS = Set.of("POST /graphs/{graph_id}/indexes/ensure", "GET /graphs/{graph_id}/lease",
      "POST /graphs/{graph_id}/branches/{branch}/revert",
      "GET /graphs/{graph_id}/access", "PUT /graphs/{graph_id}/blob", "DELETE /graphs/{graph_id}/blob");

  private static final String APPLY = "POST /graphs/{graph_id}/schema/apply";

  /**
   * Deliberate differences from the reference, by JSON path, each with its reason. A difference not
   * listed fails; a listing no difference needs fails too (so a fixed one is removed).
   */
  static final Map<String, String> EXTENSIONS = Map.of(
      "GET /graphs/{graph_id}/commits parameters[query:limit]", "commit pagination (docs/http-api.md, Commits)",
      "GET /graphs/{graph_id}/commits parameters[query:cursor]", "commit pagination (docs/http-api.md, Commits)",
      "GET /graphs/{graph_id}/snapshot parameters[query:commit]", "a commit's snapshot, for the console's history (docs/http-api.md)",
      "GET /graphs/{graph_id}/commits responses.200.content.application/json.schema.properties.next_cursor",
      "commit pagination: present only when more commits follow",
      APPLY + " requestBody.content.application/json.schema.additionalProperties",
      "unknown fields refused, so a misspelt allow_data_loss never applies with soft drops (docs/http-api.md)",
      APPLY + " responses.200.content.application/json.schema.properties.graph_commit_id",
      "the commit the apply published (docs/schema-evolution.md)",
      APPLY + " responses.200.content.application/json.schema.properties.hard_dropped",
      "the datasets a hard drop made irreversible (docs/schema-evolution.md)");

  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode reference() throws IOException {
    try (InputStream in = OpenApiContractTest.class.getResourceAsStream("/reference/omnigraph-openapi-0.10.json")) {
      return JSON.readTree(in);
    }
  }

  private static JsonNode served(String path) throws IOException {
    String body = given().accept("application/json").when().get(path).then().statusCode(200).extract().asString();
    return JSON.readTree(body);
  }

  @Test
  void servedDocumentMatchesTheReferenceOnEveryServedRoute() throws IOException {
    JsonNode reference = reference();
    for (String path : List.of("/openapi.json", "/q/openapi?format=json")) {
      JsonNode ours = served(path);
      Set<String> expected = new TreeSet<>(OpenApiDiff.operations(reference));
      assertThat(expected).as("every unserved route is a reference route").containsAll(NOT_SERVED);
      expected.removeAll(NOT_SERVED);
      assertThat(expected).as("our own routes are not the reference's").doesNotContainAnyElementsOf(OURS);
      Set<String> documented = new TreeSet<>(expected);
      documented.addAll(OURS);
      assertThat(OpenApiDiff.operations(ours)).as(path + ": the operations documented").isEqualTo(documented);

      List<String> differences = new ArrayList<>();
      for (String operation : expected) {
        differences.addAll(OpenApiDiff.operation(ours, reference, operation));
      }
      List<String> unexpected = differences.stream()
          .filter(d -> !EXTENSIONS.containsKey(d.substring(0, d.indexOf(": ")))).toList();
      assertThat(unexpected).as(path + ": differences from the reference").isEmpty();
      Set<String> seen = new TreeSet<>();
      differences.forEach(d -> seen.add(d.substring(0, d.indexOf(": "))));
      assertThat(seen).as(path + ": every listed extension is still a difference").isEqualTo(EXTENSIONS.keySet());
    }
  }

  @Test
  void theDocumentListsExactlyTheRoutesTheResourcesServe() throws IOException {
    // /openapi.json itself is not in the reference document either: it serves the document.
    Set<String> routes = routes(List.of(GraphResource.class, BlobResource.class, HealthzResource.class));
    assertThat(routes).isEqualTo(OpenApiDiff.operations(served("/openapi.json")));
  }

  @Test
  void openapiJsonIsPublicAndJson() {
    given().when().get("/openapi.json").then().statusCode(200).contentType("application/json");
  }

  /** {@code "METHOD /path"} of every resource method, with path-parameter regexes removed. */
  static Set<String> routes(List<Class<?>> resources) {
    Map<String, String> out = new TreeMap<>();
    for (Class<?> resource : resources) {
      String base = resource.getAnnotation(jakarta.ws.rs.Path.class).value();
      for (java.lang.reflect.Method m : resource.getDeclaredMethods()) {
        for (java.lang.annotation.Annotation a : m.getAnnotations()) {
          jakarta.ws.rs.HttpMethod http = a.annotationType().getAnnotation(jakarta.ws.rs.HttpMethod.class);
          if (http != null) {
            jakarta.ws.rs.Path sub = m.getAnnotation(jakarta.ws.rs.Path.class);
            String path = ("/" + base + (sub == null ? "" : "/" + sub.value())).replaceAll("/+", "/")
                .replaceAll("\\{([A-Za-z_]+)\\s*:[^}]*}", "{$1}");
            if (path.length() > 1 && path.endsWith("/")) {
              path = path.substring(0, path.length() - 1);
            }
            out.put(http.value() + " " + path, m.getName());
          }
        }
      }
    }
    return out.keySet();
  }
}
