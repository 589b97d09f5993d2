package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StorageConfigTest {

  private static final Map<String, String> S3_ENV = Map.of(
      "AWS_ENDPOINT", "http://127.0.0.1:9000",
      "AWS_REGION", "eu-west-1",
      "AWS_ACCESS_KEY_ID", "AKID",
      "AWS_SECRET_ACCESS_KEY", "s3cr3t",
      "AWS_ALLOW_HTTP", "true");

  @Test
  void s3RootsAreCanonicalised() {
    StorageConfig c = StorageConfig.fromEnvironment("s3://bucket//graphs/g1/", S3_ENV);
    assertThat(c.rootUri()).isEqualTo("s3://bucket/graphs/g1");
    assertThat(c.backend()).isEqualTo(StorageConfig.Backend.S3);
    assertThat(c.bucket()).isEqualTo("bucket");
    assertThat(c.prefix()).isEqualTo("graphs/g1");
    assertThat(c.lanceUri("nodes/x")).isEqualTo("s3://bucket/graphs/g1/nodes/x");
    assertThat(StorageConfig.fromEnvironment("s3://bucket", S3_ENV).prefix()).isEmpty();
  }

  @Test
  void localRootsConvergeToOneAbsoluteUri() {
    String cwd = Path.of("").toAbsolutePath().toString();
    String a = StorageConfig.fromEnvironment("target/x/../graph", Map.of()).rootUri();
    String b = StorageConfig.fromEnvironment(cwd + "/target/graph/", Map.of()).rootUri();
    String c = StorageConfig.fromEnvironment(Path.of(cwd, "target/graph").toUri().toString(), Map.of()).rootUri();
    assertThat(a).isEqualTo(b).isEqualTo(c).startsWith("file:///").doesNotEndWith("/");
    assertThat(StorageConfig.fromEnvironment("target/graph", Map.of()).lanceUri("__manifest"))
        .isEqualTo(Path.of(cwd, "target/graph/__manifest").toString());
  }

  @Test
  void oneConfigurationFeedsLanceStorageOptions() {
    StorageConfig c = StorageConfig.fromEnvironment("s3://b/g", S3_ENV);
    assertThat(c.lanceStorageOptions())
        .containsEntry("aws_endpoint", "http://127.0.0.1:9000")
        .containsEntry("aws_region", "eu-west-1")
        .containsEntry("aws_access_key_id", "AKID")
        .containsEntry("aws_secret_access_key", "s3cr3t")
        .containsEntry("allow_http", "true")
        .containsEntry("aws_virtual_hosted_style_request", "false");
    assertThat(c.pathStyle()).isTrue();
    assertThat(StorageConfig.local(Path.of("target/g")).lanceStorageOptions()).isEmpty();
  }

  @Test
  void awsWithoutEndpointUsesVirtualHostedStyleAndDefaultChain() {
    StorageConfig c = StorageConfig.fromEnvironment("s3://b/g", Map.of("AWS_REGION", "us-west-2"));
    assertThat(c.pathStyle()).isFalse();
    assertThat(c.allowHttp()).isFalse();
    assertThat(c.accessKeyId()).isEmpty();
    assertThat(c.lanceStorageOptions()).doesNotContainKey("aws_endpoint").doesNotContainKey("aws_access_key_id");
  }

  @Test
  void secretsNeverPrint() {
    String printed = StorageConfig.fromEnvironment("s3://b/g", S3_ENV).toString();
    assertThat(printed).doesNotContain("s3cr3t").contains("<redacted>").contains("AKID");
  }

  @Test
  void badRootsAndHalfCredentialsAreRefused() {
    assertThatThrownBy(() -> StorageConfig.fromEnvironment("gs://b/g", Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unsupported");
    assertThatThrownBy(() -> StorageConfig.fromEnvironment("s3:///g", Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket");
    assertThatThrownBy(() -> StorageConfig.fromEnvironment("s3://b/g", Map.of("AWS_ACCESS_KEY_ID", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secret");
  }
}
