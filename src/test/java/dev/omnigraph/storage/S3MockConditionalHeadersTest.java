package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.testing.S3TestServer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What the test S3 server (S3Mock 5.2.0) answers to each conditional header, asked with a plain SDK
 * client, so {@code docs/storage.md} states measured behaviour and a change of S3Mock version that
 * alters it fails here first. Requests one at a time: the harness's front serializes conditional
 * requests but forwards them unchanged, so every status below is S3Mock's own. The same rows as AWS
 * S3's documented answers (conditional writes and conditional deletes user guides).
 */
class S3MockConditionalHeadersTest {

  private StorageConfig root;
  private S3Client s3;

  @BeforeEach
  void open() {
    root = S3TestServer.get().freshRoot("headers");
    s3 = RawBackend.client(root);
  }

  @AfterEach
  void close() {
    s3.close();
  }

  private String key(String k) {
    return root.prefix() + "/" + k;
  }

  private String put(String k, String body) {
    return s3.putObject(r -> r.bucket(root.bucket()).key(key(k)), RequestBody.fromString(body)).eTag();
  }

  /** The HTTP status and S3 error code of {@code call} ({@code 200} when it succeeds). */
  private static String status(Supplier<?> call) {
    try {
      call.get();
      return "200";
    } catch (S3Exception e) {
      return e.statusCode() + " " + e.awsErrorDetails().errorCode();
    }
  }

  @Test
  void putObjectHonoursIfMatch() {
    String etag = put("a", "one");
    put("b", "other");
    String otherEtag = s3.headObject(r -> r.bucket(root.bucket()).key(key("b"))).eTag();

    assertThat(status(() -> s3.putObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(otherEtag),
        RequestBody.fromString("stale")))).isEqualTo("412 PreconditionFailed");
    assertThat(s3.getObjectAsBytes(r -> r.bucket(root.bucket()).key(key("a"))).asUtf8String()).isEqualTo("one");

    assertThat(status(() -> s3.putObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(etag),
        RequestBody.fromString("two")))).isEqualTo("200");
    assertThat(s3.getObjectAsBytes(r -> r.bucket(root.bucket()).key(key("a"))).asUtf8String()).isEqualTo("two");

    // Absent object: 404 NoSuchKey, as AWS documents, and nothing is created.
    assertThat(status(() -> s3.putObject(r -> r.bucket(root.bucket()).key(key("absent")).ifMatch(etag),
        RequestBody.fromString("x")))).isEqualTo("404 NoSuchKey");
    assertThat(status(() -> s3.headObject(r -> r.bucket(root.bucket()).key(key("absent"))))).startsWith("404");

    // An unquoted ETag matches too (S3Mock compares both spellings).
    String now = s3.headObject(r -> r.bucket(root.bucket()).key(key("a"))).eTag();
    assertThat(status(() -> s3.putObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(now.replace("\"", "")),
        RequestBody.fromString("three")))).isEqualTo("200");
  }

  @Test
  void putObjectHonoursIfNoneMatchStar() {
    put("a", "one");
    assertThat(status(() -> s3.putObject(r -> r.bucket(root.bucket()).key(key("a")).ifNoneMatch("*"),
        RequestBody.fromString("again")))).isEqualTo("412 PreconditionFailed");
  }

  @Test
  void deleteObjectHonoursIfMatch() {
    String etag = put("a", "one");
    put("a", "two");
    String current = s3.headObject(r -> r.bucket(root.bucket()).key(key("a"))).eTag();

    assertThat(status(() -> s3.deleteObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(etag))))
        .isEqualTo("412 PreconditionFailed");
    assertThat(status(() -> s3.headObject(r -> r.bucket(root.bucket()).key(key("a"))))).isEqualTo("200");

    assertThat(status(() -> s3.deleteObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(current))))
        .isEqualTo("200");
    assertThat(status(() -> s3.headObject(r -> r.bucket(root.bucket()).key(key("a"))))).startsWith("404");

    assertThat(status(() -> s3.deleteObject(r -> r.bucket(root.bucket()).key(key("a")).ifMatch(current))))
        .isEqualTo("404 NoSuchKey");
  }

  @Test
  void theEtagIsAContentDigestSoIdenticalContentKeepsIt() {
    String first = put("a", "same");
    put("a", "different");
    String again = put("a", "same");
    assertThat(again).isEqualTo(first);
  }
}
