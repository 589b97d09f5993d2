package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.testing.S3TestServer;
import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code GET|HEAD|PUT /graphs/{id}/blob} over HTTP against the packaged service ({@code bin/omnigraph
 * serve}) serving a graph on S3 (S3Mock on loopback, the failsafe run's {@code AWS_*}): the same checks
 * {@code BlobApiTest} makes on a local graph in the test application. A full read streamed in two 4 MiB
 * reads, one range (206, exact Content-Range), If-None-Match (304), an If-Match mismatch (412), an
 * unsatisfiable range (416), HEAD with the same headers and no body, an allowed external cell (302 with
 * nothing read), then a PUT through the write path and a snapshot read of the value it replaced.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BlobServedS3IT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path LAUNCHER = BASEDIR.resolve("bin/omnigraph");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Over one 4 MiB read, so the body streams in two reads of the S3 object. */
  static final byte[] DOC = pattern(4 * 1024 * 1024 + 100, 3);
  static final byte[] NOTE = "a short note".getBytes(StandardCharsets.UTF_8);
  /** An allowed base whose host need not exist: a 302 names it without reading it. */
  static final String ALLOW = "https://blobs.example.com/ext/";
  static final String EXTERNAL = ALLOW + "a.bin";

  private static Path dir;
  private static Process serve;
  private static String base;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

  static byte[] pattern(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 13 + seed);
    }
    return b;
  }

  @BeforeAll
  static void serveAnS3Graph() throws Exception {
    dir = Files.createTempDirectory("blob-served-s3");
    StorageConfig root = S3TestServer.get().freshRoot("blobserved");
    try (Omnigraph g = Omnigraph.init(root,
        "node Doc {\n  slug: String @key\n  body: Blob?\n}\nnode Ext {\n  name: String @key\n  file: Blob?\n}\n",
        Optional.of("setup"))) {
      String gq = "query add($slug: String, $body: Blob?) { insert Doc { slug: $slug, body: $body } }";
      for (var doc : java.util.Map.of("big", DOC, "note", NOTE).entrySet()) {
        g.mutate("main", gq, "add", JSON.createObjectNode().put("slug", doc.getKey())
            .put("body", "base64:" + Base64.getEncoder().encodeToString(doc.getValue())), Optional.of("setup"),
            Optional.empty());
      }
      g.allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy.parse(ALLOW));
      g.load("main", new StringReader("{\"type\":\"Ext\",\"data\":{\"name\":\"ref\",\"file\":\"" + EXTERNAL + "\"}}"),
          LoadMode.OVERWRITE, Optional.of("setup"));
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path log = dir.resolve("serve.log");
    ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", Integer.toString(port), "--store",
        root.rootUri()).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    // The child inherits AWS_* (failsafe points them at the S3Mock front); the graph served from
    // --store is "default", so its allow list is omnigraph.graphs.default.blob.allow.
    pb.environment().put("OMNIGRAPH_JAVA_OPTS", "-Domnigraph.graphs.default.blob.allow=" + ALLOW);
    serve = pb.start();
    base = "http://127.0.0.1:" + port;
    awaitReady(log);
  }

  @AfterAll
  static void stop() throws Exception {
    if (serve != null) {
      serve.destroy();
      if (!serve.waitFor(20, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
      assertThat(Files.readString(dir.resolve("serve.log"))).doesNotContain("NoClassDefFoundError");
    }
  }

  private static void awaitReady(Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!serve.isAlive()) {
        throw new AssertionError("serve exited: " + Files.readString(log));
      }
      try {
        if (send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready"))).statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("service not ready: " + Files.readString(log));
  }

  private static HttpResponse<byte[]> send(HttpRequest.Builder b) throws Exception {
    return HTTP.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static HttpRequest.Builder cell(String id) {
    return cell("Doc", "body", id, "");
  }

  private static HttpRequest.Builder cell(String type, String property, String id, String extra) {
    return HttpRequest.newBuilder(URI.create(base + "/graphs/default/blob?entity=node&type=" + type + "&property="
        + property + "&id=" + id + extra));
  }

  private static String header(HttpResponse<?> r, String name) {
    return r.headers().firstValue(name).orElse(null);
  }

  private static String head() throws Exception {
    HttpResponse<byte[]> r = send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/commits?branch=main")));
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode commits = JSON.readTree(r.body()).get("commits");
    return commits.get(0).get("graph_commit_id").asText();
  }

  @Test
  @Order(1)
  void aFullReadStreamsTheBytesWithTheValidators() throws Exception {
    HttpResponse<byte[]> r = send(cell("big"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(header(r, "Accept-Ranges")).isEqualTo("bytes");
    assertThat(header(r, "Content-Length")).isEqualTo(String.valueOf(DOC.length));
    assertThat(header(r, "Content-Type")).isEqualTo("application/octet-stream");
    assertThat(header(r, "Omnigraph-Snapshot-Id")).isEqualTo(head());
    assertThat(header(r, "ETag")).matches("\"\\d+\\.\\d+\\.\\d+\\.\\d+\"");
    assertThat(r.body()).isEqualTo(DOC);
  }

  @Test
  @Order(2)
  void oneRangeIsAnswered206WithItsExactContentRange() throws Exception {
    // Across the boundary of the two 4 MiB reads.
    HttpResponse<byte[]> r = send(cell("big").header("Range", "bytes=4194300-4194309"));
    assertThat(r.statusCode()).isEqualTo(206);
    assertThat(header(r, "Content-Range")).isEqualTo("bytes 4194300-4194309/" + DOC.length);
    assertThat(header(r, "Content-Length")).isEqualTo("10");
    assertThat(r.body()).isEqualTo(Arrays.copyOfRange(DOC, 4194300, 4194310));
    HttpResponse<byte[]> suffix = send(cell("note").header("Range", "bytes=-4"));
    assertThat(suffix.statusCode()).isEqualTo(206);
    assertThat(header(suffix, "Content-Range")).isEqualTo("bytes 8-11/12");
    assertThat(new String(suffix.body(), StandardCharsets.UTF_8)).isEqualTo("note");
  }

  @Test
  @Order(3)
  void preconditionsRunInTheReferenceOrder() throws Exception {
    String etag = header(send(cell("note")), "ETag");
    HttpResponse<byte[]> notModified = send(cell("note").header("If-None-Match", etag));
    assertThat(notModified.statusCode()).isEqualTo(304);
    assertThat(header(notModified, "ETag")).isEqualTo(etag);
    assertThat(notModified.body()).isEmpty();
    HttpResponse<byte[]> failed = send(cell("note").header("If-Match", "\"other\""));
    assertThat(failed.statusCode()).isEqualTo(412);
    assertThat(header(failed, "ETag")).isEqualTo(etag);
    assertThat(header(failed, "Omnigraph-Snapshot-Id")).isEqualTo(head());
    assertThat(send(cell("note").header("If-Match", "\"other\"").header("If-None-Match", etag)).statusCode())
        .isEqualTo(412);
    assertThat(send(cell("note").header("If-Match", etag)).statusCode()).isEqualTo(200);
    assertThat(send(cell("note").header("Range", "bytes=0-0").header("If-Range", "\"old\"")).statusCode())
        .isEqualTo(200);
    assertThat(send(cell("note").header("Range", "bytes=0-0").header("If-Range", etag)).statusCode()).isEqualTo(206);
  }

  @Test
  @Order(4)
  void anUnsatisfiableRangeIs416WithTheBlobLength() throws Exception {
    HttpResponse<byte[]> r = send(cell("note").header("Range", "bytes=12-20"));
    assertThat(r.statusCode()).isEqualTo(416);
    assertThat(header(r, "Content-Range")).isEqualTo("bytes */12");
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.get("code").asText()).isEqualTo("bad_request");
    assertThat(body.get("blob_range").get("start").asLong()).isEqualTo(12);
    assertThat(body.get("blob_range").get("end").asLong()).isEqualTo(21);
    assertThat(body.get("blob_range").get("length").asLong()).isEqualTo(12);
  }

  @Test
  @Order(5)
  void headAnswersTheSameHeadersWithoutABody() throws Exception {
    HttpResponse<byte[]> get = send(cell("big"));
    HttpResponse<byte[]> head = send(cell("big").header("Range", "bytes=0-3")
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(header(head, "Content-Range")).isNull();
    for (String h : new String[] {"ETag", "Content-Length", "Accept-Ranges", "Omnigraph-Snapshot-Id"}) {
      assertThat(header(head, h)).as(h).isNotNull().isEqualTo(header(get, h));
    }
    assertThat(head.body()).isEmpty();
  }

  @Test
  @Order(6)
  void anAllowedExternalCellRedirectsWithoutReadingItsSource() throws Exception {
    HttpResponse<byte[]> r = send(cell("Ext", "file", "ref", ""));
    assertThat(r.statusCode()).isEqualTo(302);
    assertThat(header(r, "Location")).isEqualTo(EXTERNAL);
    assertThat(header(r, "Cache-Control")).isEqualTo("no-store");
    assertThat(r.body()).isEmpty();
  }

  @Test
  @Order(7)
  void aPutCommitsAndASnapshotStillReadsTheValueItReplaced() throws Exception {
    String before = head();
    String oldTag = header(send(cell("note")), "ETag");
    byte[] rewritten = "rewritten on S3".getBytes(StandardCharsets.UTF_8);
    HttpResponse<byte[]> put = send(cell("note").header("Content-Type", "application/octet-stream")
        .header("Omnigraph-If-Graph-Commit", before).PUT(HttpRequest.BodyPublishers.ofByteArray(rewritten)));
    assertThat(put.statusCode()).as(new String(put.body(), StandardCharsets.UTF_8)).isEqualTo(200);
    String after = head();
    assertThat(after).isNotEqualTo(before);

    HttpResponse<byte[]> now = send(cell("note"));
    assertThat(header(now, "Omnigraph-Snapshot-Id")).isEqualTo(after);
    assertThat(header(now, "ETag")).isNotEqualTo(oldTag);
    assertThat(now.body()).isEqualTo(rewritten);
    HttpResponse<byte[]> old = send(cell("Doc", "body", "note", "&snapshot=" + before));
    assertThat(old.statusCode()).isEqualTo(200);
    assertThat(header(old, "Omnigraph-Snapshot-Id")).isEqualTo(before);
    assertThat(header(old, "ETag")).isEqualTo(oldTag);
    assertThat(old.body()).isEqualTo(NOTE);
    // The old tag no longer matches the head's cell: a conditional PUT naming it is refused.
    HttpResponse<byte[]> stale = send(cell("note").header("Content-Type", "application/octet-stream")
        .header("If-Match", oldTag).PUT(HttpRequest.BodyPublishers.ofByteArray(NOTE)));
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(head()).isEqualTo(after);
  }
}
