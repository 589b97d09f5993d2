package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.testing.S3TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Lance on S3 driven by {@code StorageConfig} alone. PRODUCT.md §2 records that lance-java 7.0.0's
 * {@code createBranch(name, ref)} reads S3 settings only from the process environment; surefire sets
 * {@code AWS_*} for the whole test JVM, so the in-JVM smoke tests cannot tell whether our code still
 * depends on it. This test runs the probe in a child JVM with an environment that has no
 * {@code AWS_*} at all: every check, branch creation included, must pass on storage options alone.
 */
class LanceS3WithoutAwsEnvTest {

  @Test
  void probePassesWithNoAwsEnvironment() throws Exception {
    S3TestServer s3 = S3TestServer.get();
    String root = "s3://" + S3TestServer.BUCKET + "/no-env-" + UUID.randomUUID();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new java.util.ArrayList<>(List.of(java, "--add-opens=java.base/java.nio=ALL-UNNAMED"));
    cmd.addAll(dev.omnigraph.testing.ChildJvm.nativeOptions());
    cmd.addAll(List.of("-cp", dev.omnigraph.testing.ChildJvm.classPath(), ProbeWithoutAwsEnvMain.class.getName(),
        s3.endpoint(), root, S3TestServer.REGION, S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY));
    ProcessBuilder builder = new ProcessBuilder(cmd);
    builder.environment().clear();
    builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    builder.redirectErrorStream(true);

    Process child = builder.start();
    byte[] output = child.getInputStream().readAllBytes();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String text = new String(output, StandardCharsets.UTF_8);

    assertThat(text).contains("aws-env []");
    assertThat(child.exitValue()).as(text).isZero();
    for (String check : LanceProbe.CHECKS) {
      assertThat(text).contains("ok   " + check + ":");
    }
  }
}
