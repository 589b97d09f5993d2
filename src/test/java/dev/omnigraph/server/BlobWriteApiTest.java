package dev.omnigraph.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code PUT|DELETE /graphs/{id}/blob} (ours) over HTTP on a real local graph ({@code blobw}): a PUT
 * then GET returns the same bytes (sha256) with the answered ETag, a stale {@code If-Match} and a
 * stale {@code Omnigraph-If-Graph-Commit} are 412 (an empty or entity-tag one 400), a DELETE makes the GET 404, an unknown row 404, a
 * non-Blob property and a required Blob's DELETE 400, and a body over 32 MiB 413 with nothing moved
 * (no data file, no sidecar, no version). The engine's writes run on S3 too ({@code BlobS3Test}).
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class BlobWriteApiTest {

  private static String uri;

  @io.quarkus.test.common.http.TestHTTPResource("/") java.net.URL server;

  @BeforeAll
  static void initGraph() {
    uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.blobw.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(uri),
          "node Doc {\n  slug: String @key\n  body: Blob?\n}\nnode Pic {\n  name: String @key\n  img: Blob\n}\n",
          Optional.of("setup"))) {
        g.load("main", new java.io.StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"a\",\"body\":\"base64:AQID\"}}\n"
            + "{\"type\":\"Pic\",\"data\":{\"name\":\"p\",\"img\":\"base64:AQ==\"}}"),
            dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static String cell(String type, String id, String property) {
    return "/graphs/blobw/blob?entity=node&type=" + type + "&property=" + property + "&id=" + id;
  }

  private static String head() {
    return api().get("/graphs/blobw/commits?branch=main").then().statusCode(200).extract()
        .path("commits[0].graph_commit_id");
  }

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
  }

  /** Everything under the root, so "nothing was written" is checked on the files themselves. */
  private static List<String> files() throws Exception {
    try (var walk = Files.walk(Path.of(uri))) {
      // The sidecar of the last write is retired off the acknowledgement path: checked on its own.
      // The writer lease is renewed in the background (its temp file can be caught mid-rename): not a
      // write's footprint either.
      return walk.filter(Files::isRegularFile).map(Path::toString).filter(p -> !p.contains("__recovery"))
          .filter(p -> !p.contains("__lease.json")).sorted().toList();
    }
  }

  @Test
  void aPutIsOneCommitAndItsPreconditionsAndRefusalsAreTyped() throws Exception {
    byte[] bytes = BlobApiTest.pattern(5 * 1024 * 1024 + 11, 9); // over one 4 MiB read
    String before = head();
    String tag = api().get(cell("Doc", "a", "body")).then().statusCode(200).extract().header("ETag");

    Response put = api().contentType("application/octet-stream").header("If-Match", tag)
        .header(GraphResource.IF_GRAPH_COMMIT, before).body(bytes).put(cell("Doc", "a", "body"));
    put.then().statusCode(200).body("branch", equalTo("main")).body("size", equalTo(bytes.length));
    String commit = put.path("graph_commit_id");
    assertThat(commit).isEqualTo(head()).isNotEqualTo(before);
    assertThat(put.header("Omnigraph-Snapshot-Id")).isEqualTo(commit);
    assertThat(put.header("ETag")).isEqualTo(put.<String>path("etag")).isNotEqualTo(tag);
    Response get = api().get(cell("Doc", "a", "body"));
    get.then().statusCode(200).header("ETag", put.header("ETag")).header("Omnigraph-Snapshot-Id", commit);
    assertThat(sha256(get.asByteArray())).isEqualTo(sha256(bytes));
    api().get("/graphs/blobw/commits?branch=main").then().body("commits[1].graph_commit_id", equalTo(before));

    // Stale preconditions: 412 each, nothing written.
    List<String> files = files();
    api().contentType("application/octet-stream").header("If-Match", tag).body(new byte[] {1})
        .put(cell("Doc", "a", "body")).then().statusCode(412)
        .body("precondition_failure.expected", equalTo(tag))
        .body("precondition_failure.actual", equalTo(put.header("ETag")));
    api().contentType("application/octet-stream").header(GraphResource.IF_GRAPH_COMMIT, before).body(new byte[] {1})
        .put(cell("Doc", "a", "body")).then().statusCode(412)
        .body("precondition_failure.expected", equalTo(before)).body("precondition_failure.actual", equalTo(commit));
    // A header that names no commit is parsed as the conditional mutation routes parse it: 400, not 412.
    for (String value : List.of("", " ", "W/\"" + commit + "\"")) {
      api().contentType("application/octet-stream").header(GraphResource.IF_GRAPH_COMMIT, value).body(new byte[] {1})
          .put(cell("Doc", "a", "body")).then().statusCode(400).body("code", equalTo("bad_request"))
          .body("error", org.hamcrest.Matchers.startsWith(GraphResource.IF_GRAPH_COMMIT + " must "));
    }
    // An If-Match with no entity tag in it is 400 too: read as no header, it would let the write run.
    for (String value : List.of("", " ", " , ")) {
      api().contentType("application/octet-stream").header("If-Match", value).body(new byte[] {1})
          .put(cell("Doc", "a", "body")).then().statusCode(400).body("code", equalTo("bad_request"))
          .body("error", equalTo("If-Match must name an entity tag or *"));
      api().header("If-Match", value).delete(cell("Doc", "a", "body")).then().statusCode(400);
    }
    api().contentType("application/octet-stream").body(new byte[] {1}).put(cell("Doc", "zz", "body"))
        .then().statusCode(404).body("code", equalTo("not_found"));
    api().contentType("application/octet-stream").body(new byte[] {1}).put(cell("Doc", "a", "slug"))
        .then().statusCode(400).body("error", org.hamcrest.Matchers.containsString("not a Blob property"));
    api().delete(cell("Pic", "p", "img")).then().statusCode(400)
        .body("error", org.hamcrest.Matchers.containsString("required Blob"));
    // Over 32 MiB: refused before anything is staged. On a raw socket: the server answers 413 and
    // closes the connection without reading the body, which an HTTP client still sending it sees as a
    // broken pipe (the chunked case is RequestBodyLimitsTest's).
    try (java.net.Socket socket = new java.net.Socket(server.getHost(), server.getPort())) {
      socket.setSoTimeout(60_000);
      socket.getOutputStream().write(("PUT " + cell("Doc", "a", "body") + " HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer " + GraphsTestResource.ALICE_TOKEN + "\r\nContent-Type: application/octet-stream\r\n"
          + "Content-Length: " + (32 * 1024 * 1024 + 1) + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      byte[] first = new byte[4096];
      int n = socket.getInputStream().read(first);
      String answer = new String(first, 0, Math.max(n, 0), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 413").contains(dev.omnigraph.api.BlobLimits.PAYLOAD_RESOURCE);
    }
    assertThat(head()).isEqualTo(commit);
    assertThat(files()).isEqualTo(files);

    // DELETE clears the cell: the GET is 404, as the OpenAPI says for a null cell.
    Response cleared = api().header("If-Match", put.header("ETag")).delete(cell("Doc", "a", "body"));
    cleared.then().statusCode(200).body("etag", equalTo(null)).body("size", equalTo(null));
    assertThat(cleared.header("ETag")).isNull();
    api().get(cell("Doc", "a", "body")).then().statusCode(404).body("code", equalTo("not_found"));
    // The older value stays readable at its snapshot.
    assertThat(sha256(api().get(cell("Doc", "a", "body") + "&snapshot=" + commit).asByteArray()))
        .isEqualTo(sha256(bytes));
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (sidecars() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(sidecars()).isZero();
  }

  private static long sidecars() throws Exception {
    Path dir = Path.of(uri, "__recovery");
    if (!Files.exists(dir)) {
      return 0;
    }
    try (var list = Files.list(dir)) {
      return list.filter(p -> p.toString().endsWith(".json")).count();
    }
  }
}
