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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code GET|HEAD /graphs/{id}/blob} over HTTP on a real local graph ({@code blob}), as the reference's
 * OpenAPI says: a full read, one range (206, exact Content-Range), If-None-Match (304), an If-Match
 * mismatch (412), an unsatisfiable range (416 with blob_range), HEAD with the same headers and no
 * body, and a snapshot read of the older value after a merge. The engine's reads run on S3 too
 * ({@code BlobS3Test}).
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BlobApiTest {

  /** Over one 4 MiB read, so the body streams in two. */
  static final byte[] DOC = pattern(4 * 1024 * 1024 + 100, 3);
  static final byte[] NOTE = "a short note".getBytes(StandardCharsets.UTF_8);

  static byte[] pattern(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 13 + seed);
    }
    return b;
  }

  /** The graph's blob.allow: a base the test stores references under, and one whose source never answers. */
  static final String ALLOW = "https://blobs.example.com/ext/,http://127.0.0.1:1/ext/";
  static final String EXTERNAL = "https://blobs.example.com/ext/a.bin";

  @BeforeAll
  static void initGraph() {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.blob.uri", String.class);
    if (!Files.exists(Path.of(uri, "__manifest"))) {
      try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(uri),
          "node Doc {\n  slug: String @key\n  body: Blob?\n}\nnode Ext {\n  name: String @key\n  file: Blob?\n}\n",
          Optional.of("setup"))) {
        String gq = "query add($slug: String, $body: Blob?) { insert Doc { slug: $slug, body: $body } }";
        for (var doc : java.util.Map.of("big", DOC, "note", NOTE).entrySet()) {
          g.mutate("main", gq, "add", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
              .put("slug", doc.getKey()).put("body", "base64:" + Base64.getEncoder().encodeToString(doc.getValue())),
              Optional.of("setup"), Optional.empty());
        }
        g.load("main", new java.io.StringReader("{\"type\":\"Doc\",\"data\":{\"slug\":\"none\"}}"),
            dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
        // An overwrite keeps an allowed URI as a reference, reading nothing (the host need not exist).
        g.allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy.parse(ALLOW));
        g.load("main", new java.io.StringReader("{\"type\":\"Ext\",\"data\":{\"name\":\"ref\",\"file\":\""
            + EXTERNAL + "\"}}"), dev.omnigraph.api.LoadMode.OVERWRITE, Optional.of("setup"));
      }
    }
  }

  private static RequestSpecification api() {
    return given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
  }

  private static String cell(String id) {
    return "/graphs/blob/blob?entity=node&type=Doc&property=body&id=" + id;
  }

  private static String head() {
    return api().get("/graphs/blob/commits?branch=main").then().statusCode(200).extract()
        .path("commits[0].graph_commit_id");
  }

  @Test
  @Order(1)
  void aFullReadStreamsTheBytesWithTheValidators() {
    Response r = api().get(cell("big"));
    r.then().statusCode(200).header("Accept-Ranges", "bytes").header("Content-Length", String.valueOf(DOC.length))
        .header("Content-Type", "application/octet-stream").header("Omnigraph-Snapshot-Id", head());
    assertThat(r.header("ETag")).matches("\"\\d+\\.\\d+\\.\\d+\\.\\d+\"");
    assertThat(r.asByteArray()).isEqualTo(DOC);
  }

  @Test
  @Order(2)
  void oneRangeIsAnswered206WithItsExactContentRange() {
    Response r = api().header("Range", "bytes=4194300-4194309").get(cell("big"));
    r.then().statusCode(206).header("Content-Range", "bytes 4194300-4194309/" + DOC.length)
        .header("Content-Length", "10");
    assertThat(r.asByteArray()).isEqualTo(Arrays.copyOfRange(DOC, 4194300, 4194310));
    // A suffix range, and an open one past the end clipped to it.
    assertThat(api().header("Range", "bytes=-4").get(cell("note")).then().statusCode(206)
        .header("Content-Range", "bytes 8-11/12").extract().asString()).isEqualTo("note");
    api().header("Range", "bytes=2-99").get(cell("note")).then().statusCode(206).header("Content-Range", "bytes 2-11/12");
    // Several ranges are ignored: the whole Blob.
    api().header("Range", "bytes=0-1,4-5").get(cell("note")).then().statusCode(200).header("Content-Length", "12");
  }

  @Test
  @Order(3)
  void preconditionsRunInTheReferenceOrder() {
    String etag = api().get(cell("note")).then().statusCode(200).extract().header("ETag");
    api().header("If-None-Match", etag).get(cell("note")).then().statusCode(304).header("ETag", etag)
        .header("Content-Length", "12").header("Omnigraph-Snapshot-Id", head());
    api().header("If-None-Match", "W/" + etag).get(cell("note")).then().statusCode(304);
    api().header("If-Match", "\"other\"").get(cell("note")).then().statusCode(412).header("ETag", etag)
        .header("Omnigraph-Snapshot-Id", head());
    // If-Match is evaluated first: a mismatch is 412 even with a matching If-None-Match.
    api().header("If-Match", "\"other\"").header("If-None-Match", etag).get(cell("note")).then().statusCode(412);
    api().header("If-Match", etag).get(cell("note")).then().statusCode(200);
    api().header("If-Match", "*").get(cell("note")).then().statusCode(200);
    // If-Range with another tag serves the whole Blob; with the cell's tag, the range.
    api().header("Range", "bytes=0-0").header("If-Range", "\"old\"").get(cell("note")).then().statusCode(200);
    api().header("Range", "bytes=0-0").header("If-Range", etag).get(cell("note")).then().statusCode(206);
  }

  @Test
  @Order(4)
  void anUnsatisfiableRangeIs416WithTheBlobLength() {
    api().header("Range", "bytes=12-20").get(cell("note")).then().statusCode(416)
        .header("Content-Range", "bytes */12").header("Omnigraph-Snapshot-Id", head())
        .body("code", equalTo("bad_request")).body("blob_range.start", equalTo(12))
        .body("blob_range.end", equalTo(21)).body("blob_range.length", equalTo(12));
  }

  @Test
  @Order(5)
  void headAnswersTheSameHeadersWithoutABody() {
    // HEAD ignores Range, as the reference SDK's e2e pins: the headers of the whole representation.
    Response get = api().get(cell("note"));
    Response head = api().header("Range", "bytes=0-3").head(cell("note"));
    head.then().statusCode(200).header("Content-Length", "12");
    assertThat(head.header("Content-Range")).isNull();
    for (String h : new String[] {"ETag", "Content-Length", "Accept-Ranges", "Omnigraph-Snapshot-Id"}) {
      assertThat(head.header(h)).as(h).isNotNull().isEqualTo(get.header(h));
    }
    assertThat(head.asByteArray()).isEmpty();
  }

  @Test
  @Order(6)
  void missesAndNonBlobsAreTypedErrors() {
    api().get(cell("none")).then().statusCode(404).body("code", equalTo("not_found"));
    api().get(cell("nobody")).then().statusCode(404).body("code", equalTo("not_found"));
    api().get("/graphs/blob/blob?entity=node&type=Doc&property=slug&id=note").then().statusCode(400)
        .body("code", equalTo("bad_request"));
    api().get("/graphs/blob/blob?entity=node&type=Doc&property=body").then().statusCode(400);
    api().get(cell("note") + "&branch=main&snapshot=x").then().statusCode(400);
  }

  @Test
  @Order(6)
  void anExternalCellRedirectsWithoutReadingItsSource() {
    String ext = "/graphs/blob/blob?entity=node&type=Ext&property=file&id=ref";
    for (Response r : java.util.List.of(api().redirects().follow(false).get(ext),
        api().redirects().follow(false).header("Range", "bytes=0-3").head(ext))) {
      r.then().statusCode(302).header("Location", EXTERNAL).header("Cache-Control", "no-store")
          .header("Omnigraph-Snapshot-Id", head());
      assertThat(r.header("ETag")).isNull();
      assertThat(r.asByteArray()).isEmpty();
    }
    // It has no entity tag: an If-Match naming one cannot match it; '*' does (the cell exists).
    api().redirects().follow(false).header("If-Match", "\"1.1.1.1\"").get(ext).then().statusCode(412)
        .header("Omnigraph-Snapshot-Id", head());
    api().redirects().follow(false).header("If-Match", "*").get(ext).then().statusCode(302);
  }

  @Test
  @Order(6)
  void aKeyedWriteOfAnAllowedSourceThatCannotBeReadIs424AndOfAnotherIs400() {
    String before = head();
    api().contentType(GraphResource.NDJSON)
        .body("{\"type\":\"Ext\",\"data\":{\"name\":\"x\",\"file\":\"http://127.0.0.1:1/ext/x.bin\"}}"
            .getBytes(StandardCharsets.UTF_8))
        .post("/graphs/blob/load/ndjson?mode=append").then().statusCode(424)
        .body("code", org.hamcrest.Matchers.nullValue())
        .body("external_blob_source.uri", equalTo("http://127.0.0.1:1/ext/x.bin"))
        .body("external_blob_source.reason", org.hamcrest.Matchers.startsWith("no answer"));
    api().contentType(GraphResource.NDJSON)
        .body("{\"type\":\"Ext\",\"data\":{\"name\":\"x\",\"file\":\"https://blobs.example.com/other/x\"}}"
            .getBytes(StandardCharsets.UTF_8))
        .post("/graphs/blob/load/ndjson?mode=append").then().statusCode(400).body("code", equalTo("bad_request"))
        .body("error", org.hamcrest.Matchers.containsString("https://blobs.example.com/other/x"));
    assertThat(head()).isEqualTo(before);
  }

  @Test
  @Order(7)
  void aSnapshotReadsTheOlderValueAfterAMerge() {
    String before = head();
    String oldTag = api().get(cell("note")).then().extract().header("ETag");
    api().contentType(GraphResource.NDJSON).body(("{\"type\":\"Doc\",\"data\":{\"slug\":\"note\",\"body\":\"base64:"
        + Base64.getEncoder().encodeToString("rewritten".getBytes(StandardCharsets.UTF_8)) + "\"}}")
        .getBytes(StandardCharsets.UTF_8))
        .post("/graphs/blob/load/ndjson?mode=merge").then().statusCode(200);
    String after = head();
    assertThat(after).isNotEqualTo(before);

    api().get(cell("note")).then().statusCode(200).header("Omnigraph-Snapshot-Id", after)
        .body(equalTo("rewritten"));
    Response old = api().get(cell("note") + "&snapshot=" + before);
    old.then().statusCode(200).header("Omnigraph-Snapshot-Id", before).header("ETag", oldTag);
    assertThat(old.asByteArray()).isEqualTo(NOTE);
  }
}
