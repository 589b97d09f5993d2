package dev.omnigraph.table;

import dev.omnigraph.api.storage.LanceProbeReport;
import dev.omnigraph.api.storage.LanceProbeCheck;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.Map;

/**
 * Child-process entry point for {@link LanceS3WithoutAwsEnvTest}: runs {@link LanceProbe} with S3
 * settings taken only from its arguments, in a process whose environment has no {@code AWS_*}.
 * Exits 0 when every check passes.
 */
final class ProbeWithoutAwsEnvMain {

  private ProbeWithoutAwsEnvMain() {}

  public static void main(String[] args) {
    String endpoint = args[0];
    String root = args[1];
    System.out.println("aws-env " + System.getenv().keySet().stream().filter(k -> k.startsWith("AWS")).sorted().toList());
    StorageConfig config = StorageConfig.fromEnvironment(root, Map.of(
        "AWS_ENDPOINT", endpoint,
        "AWS_REGION", args[2],
        "AWS_ACCESS_KEY_ID", args[3],
        "AWS_SECRET_ACCESS_KEY", args[4],
        "AWS_ALLOW_HTTP", "true"));
    LanceProbeReport report = LanceProbe.run(config, "__doctor/no-env");
    for (LanceProbeCheck check : report.checks()) {
      System.out.println((check.passed() ? "ok   " : "FAIL ") + check.name() + ": " + check.detail());
    }
    System.exit(report.passed() ? 0 : 1);
  }
}
