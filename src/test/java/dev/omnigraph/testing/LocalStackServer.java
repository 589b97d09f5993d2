package dev.omnigraph.testing;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * LocalStack's S3, started once per test JVM through Testcontainers, for the suites that run our
 * S3 contracts against it (issue 42, the design card's "Testcontainers LocalStack"). Where no Docker
 * engine is reachable, as on the CI machines, {@link RequiresDocker} reports those suites skipped
 * with the reason; the same contracts still run against S3Mock there ({@link S3TestServer}).
 */
public final class LocalStackServer {

  /**
   * The image: pinned, because LocalStack releases after 4.14 refuse to start without an auth
   * token (localstack/docker-compose.yml uses the same one). S3 conditional writes, which the
   * sidecars and Lance's commits rely on, exist since 3.7.
   */
  public static final String IMAGE = "localstack/localstack:4.14.0";

  private static LocalStackServer instance;
  private static Optional<String> unavailable;

  private final LocalStackContainer container;

  private LocalStackServer(LocalStackContainer container) {
    this.container = container;
  }

  /**
   * Why the LocalStack suites cannot run here, or empty when a Docker engine answers. Asked once per
   * JVM: Testcontainers tries every configured strategy (DOCKER_HOST, the socket, the config file).
   */
  public static synchronized Optional<String> unavailableReason() {
    if (unavailable == null) {
      try {
        unavailable = DockerClientFactory.instance().isDockerAvailable() ? Optional.empty()
            : Optional.of("no Docker engine reachable (DOCKER_HOST, /var/run/docker.sock, ~/.testcontainers"
                + ".properties): the LocalStack suites are skipped; the same contracts ran against S3Mock");
      } catch (Throwable e) {
        unavailable = Optional.of("Docker could not be asked (" + e.getClass().getSimpleName() + ": "
            + e.getMessage() + "): the LocalStack suites are skipped");
      }
    }
    return unavailable;
  }

  /** The running server, started on first use and stopped by Testcontainers when the JVM exits. */
  public static synchronized LocalStackServer get() {
    if (instance == null) {
      LocalStackContainer c = new LocalStackContainer(DockerImageName.parse(IMAGE)).withServices("s3");
      c.start();
      instance = new LocalStackServer(c);
    }
    return instance;
  }

  /** A fresh, empty graph root {@code s3://og-<uuid>/<label>} in a bucket of its own. */
  public StorageConfig freshRoot(String label) {
    String bucket = "og-" + UUID.randomUUID().toString().replace("-", "");
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(bucket));
    }
    return StorageConfig.fromEnvironment("s3://" + bucket + "/" + label, Map.of(
        "AWS_ENDPOINT", container.getEndpoint().toString(),
        "AWS_REGION", container.getRegion(),
        "AWS_ACCESS_KEY_ID", container.getAccessKey(),
        "AWS_SECRET_ACCESS_KEY", container.getSecretKey(),
        "AWS_ALLOW_HTTP", "true"));
  }

  private S3Client client() {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .region(Region.of(container.getRegion()))
        .forcePathStyle(true)
        .endpointOverride(container.getEndpoint())
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(container.getAccessKey(), container.getSecretKey())))
        .build();
  }

  /**
   * {@code @ExtendWith(LocalStackServer.RequiresDocker.class)}: the class runs only where a Docker
   * engine answers; elsewhere each test is reported skipped (not passed, not absent) with the reason.
   */
  public static final class RequiresDocker implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return unavailableReason().map(ConditionEvaluationResult::disabled)
          .orElseGet(() -> ConditionEvaluationResult.enabled("a Docker engine answers: LocalStack " + IMAGE));
    }
  }
}
