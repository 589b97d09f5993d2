package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the web console (docs/console.md) needs of the service, over HTTP: its files under the
 * strict policy headers, the bare {@code /ui} sent to {@code /ui/}, a commit's snapshot and the
 * writer lease. The console itself is driven in a browser by {@code ConsoleBrowserIT}. Reads only
 * the {@code default} graph (the embedded example: two commits), so it shares it safely.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class ConsoleRoutesTest {

  static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
      + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  @Test
  void theConsoleIsServedUnderAStrictPolicy() {
    given().redirects().follow(false).get("/ui").then().statusCode(302).header("Location", "/ui/");
    given().get("/ui/").then().statusCode(200)
        .contentType(startsWith("text/html"))
        .header("Content-Security-Policy", POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("X-Frame-Options", "DENY")
        .header("Referrer-Policy", "no-referrer")
        .body(containsString("<script type=\"module\" src=\"js/console.js\"></script>"));
    // Module scripts must be typed as JavaScript; the drawing library is packaged with the console.
    for (String path : List.of("/ui/js/console.js", "/ui/js/dom.js", "/ui/vendor/cytoscape/cytoscape.esm.min.js")) {
      given().get(path).then().statusCode(200).contentType(startsWith("text/javascript"))
          .header("Content-Security-Policy", POLICY);
    }
    // The policy is the console's, not the API's.
    assertThat(given().get("/healthz").header("Content-Security-Policy")).isNull();
  }

  @Test
  void noPageOfTheConsoleInsertsMarkupOrRunsInlineCode() {
    // Escaping by construction (dom.js): text always enters the page as text nodes.
    for (String file : List.of("console.js", "dom.js", "api.js", "gq.js", "draw.js", "outcome.js")) {
      String source = given().get("/ui/js/" + file).then().statusCode(200).extract().asString();
      assertThat(source).as(file).doesNotContain("innerHTML").doesNotContain("outerHTML")
          .doesNotContain("insertAdjacentHTML").doesNotContain("document.write").doesNotContain("eval(")
          .doesNotContain("new Function");
    }
    String html = given().get("/ui/").then().extract().asString();
    assertThat(html).doesNotContain(" style=").doesNotContain("<style").doesNotContain(" onclick=");
  }

  @Test
  void aCommitsSnapshotIsTheStateItPublished() {
    List<String> commits = api().get("/graphs/default/commits").then().statusCode(200)
        .extract().jsonPath().getList("commits.graph_commit_id");
    assertThat(commits).hasSize(2);
    String oldest = commits.get(1);
    api().get("/graphs/default/snapshot?commit=" + oldest).then().statusCode(200)
        .body("graph_manifest_version", equalTo(2))
        .body("datasets.find { it.type_name == 'Person' }.entity_count", equalTo(0));
    api().get("/graphs/default/snapshot?commit=" + commits.get(0)).then().statusCode(200)
        .body("datasets.find { it.type_name == 'Person' }.entity_count", equalTo(3));
    api().get("/graphs/default/snapshot?commit=" + oldest + "&branch=main").then().statusCode(400)
        .body("code", equalTo("bad_request")).body("error", containsString("either branch or commit"));
    api().get("/graphs/default/snapshot?commit=01NOSUCHCOMMIT0000000000000").then().statusCode(404)
        .body("code", equalTo("not_found"));
  }

  @Test
  void theLeaseRouteNamesThisServiceAsTheWriter() {
    api().get("/graphs/default/snapshot").then().statusCode(200); // opens the graph: the lease is taken
    api().get("/graphs/default/lease").then().statusCode(200)
        .body("graph_id", equalTo("default"))
        .body("role", equalTo("writer"))
        .body("live", equalTo(true))
        .body("holder.pid", equalTo((int) ProcessHandle.current().pid()))
        .body("holder.owner_id", notNullValue())
        .body("expires_at_micros", greaterThan(0L));
    given().get("/graphs/default/lease").then().statusCode(401);
    api().get("/graphs/nosuch/lease").then().statusCode(404);
  }
}
