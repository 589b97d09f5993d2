package dev.omnigraph.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plain manifests in {@code k8s/}: the same single-writer invariants as the chart, and the
 * cross-references kubectl only checks at run time (ConfigMap and Secret keys, the kustomization's
 * resource list, the image's port and user).
 */
class K8sManifestTest {

  private static final Path K8S = Manifests.basedir().resolve("k8s");
  private static final String SECRET_EXAMPLE = "secret.example.yaml";
  private static final String KUSTOMIZATION = "kustomization.yaml";

  private static List<Path> manifestFiles() throws IOException {
    try (Stream<Path> files = Files.list(K8S)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals(KUSTOMIZATION))
          .filter(p -> !p.getFileName().toString().equals(SECRET_EXAMPLE))
          .sorted()
          .toList();
    }
  }

  private static Manifests applied() throws IOException {
    List<Manifests> parts = new ArrayList<>();
    for (Path p : manifestFiles()) {
      parts.add(Manifests.parse(Files.readString(p)));
    }
    return Manifests.concat(parts);
  }

  /**
   * Issue 17: k8s/readers/ adds read replicas (mode read-only, probes wired, several replicas) behind
   * their own Service, selecting only reader pods; the writer Deployment is the writer.
   */
  @Test
  void readReplicasAreAnOptionalKustomizationWithTheirOwnService() throws IOException {
    assertThat(applied().literalEnvironment(Manifests.container(applied().only("Deployment"))))
        .containsEntry("OMNIGRAPH_MODE", "writer");
    Path readers = K8S.resolve("readers");
    assertThat(Files.readString(readers.resolve(KUSTOMIZATION))).contains("reader-deployment.yaml", "reader-service.yaml");
    Manifests r = Manifests.concat(List.of(Manifests.parse(Files.readString(K8S.resolve("configmap.yaml"))),
        Manifests.parse(Files.readString(readers.resolve("reader-deployment.yaml"))),
        Manifests.parse(Files.readString(readers.resolve("reader-service.yaml")))));
    JsonNode d = r.only("Deployment");
    assertThat(d.path("spec").path("replicas").asInt()).isGreaterThan(1);
    JsonNode c = Manifests.container(d);
    assertThat(r.literalEnvironment(c)).containsEntry("OMNIGRAPH_MODE", "read-only");
    assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.READINESS_PATH);
    assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.LIVENESS_PATH);
    assertThat(r.only("Service").path("spec").path("selector").path("app.kubernetes.io/component").asText())
        .isEqualTo("reader");
    assertThat(d.path("spec").path("template").path("metadata").path("labels").path("app.kubernetes.io/component")
        .asText()).isEqualTo("reader");
    assertThat(applied().only("Service").path("spec").path("selector").path("app.kubernetes.io/component").asText())
        .isNotEqualTo("reader");
  }

  @Test
  void deploymentIsOneRecreatedReplicaWithSmallRyeProbes() throws IOException {
    Manifests m = applied();
    m.assertSingleWriterDeployment();
    JsonNode c = Manifests.container(m.only("Deployment"));
    assertThat(c.path("startupProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.LIVENESS_PATH);
  }

  /**
   * Issue 34: tokens without a policy serve DefaultDeny (read only), so the example mounts a starter
   * policy that lets its one actor, admin, do everything, in the writer and in the read replicas.
   */
  @Test
  void theWriterAndTheReadersMountOnePolicyThatParsesAndLetsTheExampleActorWrite() throws IOException {
    Manifests m = applied();
    JsonNode policyMap = m.named("ConfigMap", "omnigraph-policy");
    dev.omnigraph.engine.policy.Policy policy = dev.omnigraph.engine.policy.Policy.parse(
        policyMap.path("data").path("policy.yaml").asText(), "k8s/policy.yaml");
    assertThat(policy.decide("admin", dev.omnigraph.api.policy.PolicyAction.CHANGE, java.util.Optional.of("main"),
        java.util.Optional.empty()).allowed()).isTrue();
    assertThat(policy.decide("admin", dev.omnigraph.api.policy.PolicyAction.BRANCH_MERGE, java.util.Optional.of("f"),
        java.util.Optional.of("main")).allowed()).isTrue();
    assertThat(policy.decide("someone", dev.omnigraph.api.policy.PolicyAction.READ, java.util.Optional.of("main"),
        java.util.Optional.empty()).allowed()).isFalse();
    Manifests readers = Manifests.parse(Files.readString(K8S.resolve("readers/reader-deployment.yaml")));
    for (JsonNode d : List.of(m.only("Deployment"), readers.only("Deployment"))) {
      JsonNode c = Manifests.container(d);
      assertThat(c.path("env").toString()).contains("\"name\":\"OMNIGRAPH_POLICY_FILE\",\"value\":\"/etc/omnigraph/policy.yaml\"");
      assertThat(c.path("volumeMounts").toString()).contains("\"mountPath\":\"/etc/omnigraph\"");
      assertThat(d.path("spec").path("template").path("spec").path("volumes").toString())
          .contains("\"name\":\"omnigraph-policy\"");
    }
  }

  @Test
  void configMapCarriesTheGraphRootAndS3Settings() throws IOException {
    Manifests m = applied();
    Map<String, String> env = m.literalEnvironment(Manifests.container(m.only("Deployment")));
    assertThat(env.get("OMNIGRAPH_STORAGE_URI")).startsWith("s3://");
    assertThat(env).containsKeys("AWS_ENDPOINT", "AWS_REGION", "AWS_ALLOW_HTTP", "AWS_VIRTUAL_HOSTED_STYLE_REQUEST");
    // Path style is what MinIO needs, the example's store.
    assertThat(env).containsEntry("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false");
  }

  @Test
  void everySecretReferenceNamesAKeyOfTheExampleSecret() throws IOException {
    JsonNode secret = Manifests.parse(Files.readString(K8S.resolve(SECRET_EXAMPLE))).only("Secret");
    String secretName = secret.path("metadata").path("name").asText();
    Set<String> keys = new HashSet<>();
    secret.path("stringData").fieldNames().forEachRemaining(keys::add);

    List<JsonNode> refs = new ArrayList<>();
    Manifests.container(applied().only("Deployment")).path("env").forEach(e -> {
      if (e.path("valueFrom").has("secretKeyRef")) {
        refs.add(e.path("valueFrom").path("secretKeyRef"));
      }
    });
    assertThat(refs).isNotEmpty();
    for (JsonNode ref : refs) {
      assertThat(ref.path("name").asText()).isEqualTo(secretName);
      assertThat(keys).as("keys of %s", SECRET_EXAMPLE).contains(ref.path("key").asText());
    }
    // Placeholders only: a real credential must never be committed.
    secret.path("stringData").forEach(v -> assertThat(v.asText()).startsWith("REPLACE"));
  }

  @Test
  void kustomizationAppliesEveryManifestButTheSecretExample() throws IOException {
    JsonNode k = new YAMLMapper().readTree(K8S.resolve(KUSTOMIZATION).toFile());
    List<String> resources = new ArrayList<>();
    k.path("resources").forEach(r -> resources.add(r.asText()));
    List<String> files = manifestFiles().stream().map(p -> p.getFileName().toString()).toList();
    assertThat(resources).containsExactlyInAnyOrderElementsOf(files).doesNotContain(SECRET_EXAMPLE);
  }

  @Test
  void imageExposesTheProbedPortAndRunsAsThePodsUser() throws IOException {
    List<String> dockerfile = Files.readAllLines(Manifests.basedir().resolve("src/main/docker/Dockerfile.jvm"));
    assertThat(dockerfile).contains("EXPOSE " + Manifests.HTTP_PORT);
    JsonNode pod = applied().only("Deployment").path("spec").path("template").path("spec");
    String uid = pod.path("securityContext").path("runAsUser").asText();
    assertThat(uid).isNotEqualTo("0");
    assertThat(dockerfile).anyMatch(l -> l.startsWith("USER " + uid));
    assertThat(dockerfile).anyMatch(l -> l.startsWith("COPY target/*-runner.jar "));
  }
}
