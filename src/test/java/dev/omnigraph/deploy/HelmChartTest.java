package dev.omnigraph.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Lints and renders {@code helm/omnigraph} with helm-java (Helm's Go library through JNA, no helm
 * binary) and asserts the rendered objects: one replica, Recreate, SmallRye probes, and storage
 * values given with {@code --set} reaching the container's environment.
 */
class HelmChartTest {

  private static final Path CHART = Manifests.basedir().resolve("helm/omnigraph");

  private static Manifests render(UnaryOperator<TemplateCommand> options) throws IOException {
    TemplateCommand template = new Helm(CHART).template().withName("og").withNamespace("graphs");
    return Manifests.parse(options.apply(template).call());
  }

  @Test
  void lintsCleanInStrictMode() {
    LintResult lint = new Helm(CHART).lint().strict().call();
    assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
    assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
  }

  @Test
  void defaultsRenderOneRecreatedReplicaWithSmallRyeProbes() throws IOException {
    Manifests m = render(t -> t);
    m.assertSingleWriterDeployment();

    JsonNode deployment = m.only("Deployment");
    assertThat(deployment.path("metadata").path("name").asText()).isEqualTo("og-omnigraph");
    JsonNode c = Manifests.container(deployment);
    assertThat(c.path("image").asText()).isEqualTo("omnigraph:0.1.0");
    assertThat(c.path("startupProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.LIVENESS_PATH);

    Map<String, JsonNode> env = Manifests.env(c);
    assertThat(env.get("AWS_ACCESS_KEY_ID").path("valueFrom").path("secretKeyRef").path("name").asText())
        .isEqualTo("omnigraph-secrets");
    JsonNode admin = env.get("OMNIGRAPH_AUTH_TOKENS_ADMIN").path("valueFrom").path("secretKeyRef");
    assertThat(admin.path("name").asText()).isEqualTo("omnigraph-secrets");
    assertThat(admin.path("key").asText()).isEqualTo("token-sha256-admin");

    Map<String, String> literal = m.literalEnvironment(c);
    assertThat(literal)
        .containsEntry("OMNIGRAPH_STORAGE_URI", "s3://omnigraph/graph")
        .containsEntry("AWS_REGION", "us-east-1")
        .containsEntry("AWS_ALLOW_HTTP", "false")
        .containsEntry("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false")
        .doesNotContainKey("AWS_ENDPOINT");
    assertThat(m.only("Service").path("spec").path("ports").get(0).path("port").asInt()).isEqualTo(8080);
  }

  @Test
  void storageValuesGivenWithSetReachTheContainerEnvironment() throws IOException {
    Manifests m = render(t -> t
        .set("storage.uri", "s3://bucket/prefix")
        .set("storage.s3.endpoint", "http://minio.storage.svc:9000")
        .set("storage.s3.region", "eu-central-1")
        .set("storage.s3.pathStyle", "true")
        .set("storage.s3.allowHttp", "true")
        .set("graphs.social", "s3://bucket/social"));
    m.assertSingleWriterDeployment();

    JsonNode configMap = m.only("ConfigMap").path("data");
    assertThat(configMap.path("OMNIGRAPH_STORAGE_URI").asText()).isEqualTo("s3://bucket/prefix");
    assertThat(configMap.path("AWS_ENDPOINT").asText()).isEqualTo("http://minio.storage.svc:9000");

    Map<String, String> env = m.literalEnvironment(Manifests.container(m.only("Deployment")));
    assertThat(env)
        .containsEntry("OMNIGRAPH_STORAGE_URI", "s3://bucket/prefix")
        .containsEntry("AWS_ENDPOINT", "http://minio.storage.svc:9000")
        .containsEntry("AWS_REGION", "eu-central-1")
        .containsEntry("AWS_ALLOW_HTTP", "true")
        .containsEntry("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false")
        .containsEntry("OMNIGRAPH_GRAPHS_SOCIAL_URI", "s3://bucket/social");
  }

  /**
   * Issue 34: tokens without a policy serve DefaultDeny, so a deployment that writes needs its
   * policy in the pod. policy.content becomes a ConfigMap mounted read-only and named by
   * OMNIGRAPH_POLICY_FILE (omnigraph.policy.file); without it nothing is mounted.
   */
  @Test
  void aPolicyGivenAsContentIsMountedAndNamedByOmnigraphPolicyFile(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    String policy = "version: 1\ngroups:\n  team: [alice]\nprotected_branches: [main]\nrules:\n"
        + "  - id: team-read\n    allow:\n      actors: {group: team}\n      actions: [read]\n      branch_scope: any\n";
    Path values = dir.resolve("values.yaml");
    java.nio.file.Files.writeString(values, "policy:\n  content: |\n"
        + policy.lines().map(l -> "    " + l + "\n").collect(java.util.stream.Collectors.joining()));
    Manifests m = render(t -> t.withValuesFile(values));
    JsonNode mounted = m.named("ConfigMap", "og-omnigraph-policy");
    assertThat(mounted.path("data").path("policy.yaml").asText().strip()).isEqualTo(policy.strip());
    dev.omnigraph.engine.policy.Policy.parse(mounted.path("data").path("policy.yaml").asText(), "policy.yaml");
    JsonNode writer = m.only("Deployment");
    JsonNode container = Manifests.container(writer);
    assertThat(m.literalEnvironment(container)).containsEntry("OMNIGRAPH_POLICY_FILE", "/etc/omnigraph/policy.yaml");
    assertThat(container.path("volumeMounts").toString()).contains("\"mountPath\":\"/etc/omnigraph\"")
        .contains("\"readOnly\":true");
    assertThat(writer.path("spec").path("template").path("spec").path("volumes").toString())
        .contains("\"name\":\"og-omnigraph-policy\"");

    Manifests none = render(t -> t);
    assertThat(none.all()).noneMatch(o -> o.path("metadata").path("name").asText().endsWith("-policy"));
    assertThat(none.literalEnvironment(Manifests.container(none.only("Deployment"))))
        .doesNotContainKey("OMNIGRAPH_POLICY_FILE");
  }

  /** Issue 17: the writer Deployment is a writer with its lease settings; no reader unless asked. */
  @Test
  void theWriterTakesTheLeaseWithItsTtlAndDrainGraceAndNoReaderByDefault() throws IOException {
    Manifests m = render(t -> t.set("lease.ttl", "45s").set("drain.grace", "20s")
        .set("admission.maxConcurrentPerActor", "8").set("admission.actors.ingest7", "2"));
    JsonNode writer = m.only("Deployment");
    assertThat(writer.path("spec").path("replicas").asInt()).isEqualTo(1);
    assertThat(writer.path("spec").path("strategy").path("type").asText()).isEqualTo("Recreate");
    assertThat(m.literalEnvironment(Manifests.container(writer)))
        .containsEntry("OMNIGRAPH_MODE", "writer")
        .containsEntry("OMNIGRAPH_LEASE_TTL", "45s")
        .containsEntry("OMNIGRAPH_DRAIN_GRACE", "20s")
        .containsEntry("OMNIGRAPH_ADMISSION_MAX_CONCURRENT_PER_ACTOR", "8")
        .containsEntry("OMNIGRAPH_ADMISSION_ACTORS_INGEST7", "2");
    assertThat(m.only("Service").path("spec").path("selector").path("app.kubernetes.io/component").asText())
        .isEqualTo("writer");
  }

  /**
   * Issue 17: with reader.enabled a second Deployment runs read replicas (mode read-only, the set
   * replica count, both probes) behind its own Service; the writer stays one Recreate pod and its
   * Service selects only the writer.
   */
  @Test
  void readReplicasGetTheirOwnDeploymentModeAndService() throws IOException {
    Manifests m = render(t -> t.set("reader.enabled", "true").set("reader.replicas", "3"));
    List<JsonNode> deployments = m.all().stream().filter(o -> o.path("kind").asText().equals("Deployment")).toList();
    assertThat(deployments).hasSize(2);
    JsonNode writer = deployments.stream().filter(d -> d.path("metadata").path("name").asText().equals("og-omnigraph"))
        .findFirst().orElseThrow();
    JsonNode reader = deployments.stream()
        .filter(d -> d.path("metadata").path("name").asText().equals("og-omnigraph-reader")).findFirst().orElseThrow();
    assertThat(writer.path("spec").path("replicas").asInt()).isEqualTo(1);
    assertThat(writer.path("spec").path("strategy").path("type").asText()).isEqualTo("Recreate");
    assertThat(reader.path("spec").path("replicas").asInt()).isEqualTo(3);
    assertThat(m.literalEnvironment(Manifests.container(writer))).containsEntry("OMNIGRAPH_MODE", "writer");
    assertThat(m.literalEnvironment(Manifests.container(reader))).containsEntry("OMNIGRAPH_MODE", "read-only");
    for (JsonNode d : deployments) {
      JsonNode c = Manifests.container(d);
      assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.READINESS_PATH);
      assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo(Manifests.LIVENESS_PATH);
      String role = d.path("spec").path("selector").path("matchLabels").path("app.kubernetes.io/component").asText();
      assertThat(d.path("spec").path("template").path("metadata").path("labels").path("app.kubernetes.io/component")
          .asText()).isEqualTo(role);
    }
    List<JsonNode> services = m.all().stream().filter(o -> o.path("kind").asText().equals("Service")).toList();
    assertThat(services).extracting(sv -> sv.path("metadata").path("name").asText() + "->"
            + sv.path("spec").path("selector").path("app.kubernetes.io/component").asText())
        .containsExactlyInAnyOrder("og-omnigraph->writer", "og-omnigraph-read->reader");
  }

  @Test
  void virtualHostedStyleIsTheNegationOfPathStyle() throws IOException {
    Manifests m = render(t -> t.set("storage.s3.pathStyle", "false"));
    assertThat(m.literalEnvironment(Manifests.container(m.only("Deployment"))))
        .containsEntry("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "true");
  }

  @Test
  void everyActorGetsItsTokenHashFromTheExistingSecret() throws IOException {
    Manifests m = render(t -> t
        .set("existingSecret", "og-creds")
        .set("auth.actors[0]", "alice")
        .set("auth.actors[1]", "ci7"));
    m.assertSingleWriterDeployment();
    Map<String, JsonNode> env = Manifests.env(Manifests.container(m.only("Deployment")));
    assertThat(env.keySet().stream().filter(n -> n.startsWith("OMNIGRAPH_AUTH_TOKENS_")))
        .containsExactly("OMNIGRAPH_AUTH_TOKENS_ALICE", "OMNIGRAPH_AUTH_TOKENS_CI7");
    JsonNode ref = env.get("OMNIGRAPH_AUTH_TOKENS_CI7").path("valueFrom").path("secretKeyRef");
    assertThat(ref.path("name").asText()).isEqualTo("og-creds");
    assertThat(ref.path("key").asText()).isEqualTo("token-sha256-ci7");
    assertThat(env.get("AWS_SECRET_ACCESS_KEY").path("valueFrom").path("secretKeyRef").path("name").asText())
        .isEqualTo("og-creds");
  }

  @Test
  void credentialsCanComeFromTheSdkDefaultChainInstead() throws IOException {
    Manifests m = render(t -> t.set("storage.s3.credentialsFromSecret", "false"));
    Map<String, JsonNode> env = Manifests.env(Manifests.container(m.only("Deployment")));
    assertThat(env).doesNotContainKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY");
    assertThat(env).containsKey("OMNIGRAPH_AUTH_TOKENS_ADMIN");
  }

  @Test
  void refusesMoreThanOneReplica() {
    assertThatThrownBy(() -> render(t -> t.set("replicaCount", "2")))
        .hasMessageContaining("replicaCount must be 1");
  }

  @Test
  void refusesARollingUpdate() {
    assertThatThrownBy(() -> render(t -> t.set("strategy.type", "RollingUpdate")))
        .hasMessageContaining("strategy.type must be Recreate");
  }

  @Test
  void refusesToExposeTheServiceWithoutTokensUnlessTold() throws IOException {
    assertThatThrownBy(() -> render(t -> t.set("auth.actors", "null")))
        .hasMessageContaining("auth.actors is empty");
    Manifests open = render(t -> t.set("auth.actors", "null").set("auth.allowUnauthenticated", "true"));
    assertThat(open.literalEnvironment(Manifests.container(open.only("Deployment"))))
        .containsEntry("OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED", "true");
  }

  @Test
  void refusesIdsThatDoNotSurviveTheEnvironmentName() {
    // OMNIGRAPH_AUTH_TOKENS_CI_BOT would read back as actor "ci.bot".
    assertThatThrownBy(() -> render(t -> t.set("auth.actors[0]", "ci_bot")))
        .hasMessageContaining("lowercase letters and digits");
    assertThatThrownBy(() -> render(t -> t.set("graphs.Social", "s3://b/s")))
        .hasMessageContaining("lowercase letters and digits");
  }

  /** STYLE.md 12: every values.yaml key is documented with a {@code # --} comment, itself or an ancestor. */
  @Test
  void everyValuesKeyIsDocumented() throws IOException {
    List<String> lines = Files.readAllLines(CHART.resolve("values.yaml"));
    Pattern key = Pattern.compile("^(\\s*)([A-Za-z0-9_.-]+):\\s*(.*)$");
    List<Integer> documentedIndents = new ArrayList<>(); // indents of open, documented ancestors
    List<Integer> openIndents = new ArrayList<>();
    List<String> undocumented = new ArrayList<>();
    boolean docPending = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String trimmed = line.strip();
      if (trimmed.startsWith("# --")) {
        docPending = true;
        continue;
      }
      if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("- ")) {
        if (trimmed.isEmpty()) {
          docPending = false;
        }
        continue;
      }
      Matcher k = key.matcher(line);
      if (!k.matches()) {
        continue;
      }
      int indent = k.group(1).length();
      while (!openIndents.isEmpty() && openIndents.get(openIndents.size() - 1) >= indent) {
        int closed = openIndents.remove(openIndents.size() - 1);
        documentedIndents.remove((Integer) closed);
      }
      boolean covered = docPending || !documentedIndents.isEmpty();
      boolean header = k.group(3).isEmpty() && !nextContentIsListItem(lines, i);
      if (header) {
        openIndents.add(indent);
        if (docPending) {
          documentedIndents.add(indent);
        }
      } else if (!covered) {
        undocumented.add(k.group(2) + " (line " + (i + 1) + ")");
      }
      docPending = false;
    }
    assertThat(undocumented).as("values.yaml keys without a '# --' comment").isEmpty();
  }

  private static boolean nextContentIsListItem(List<String> lines, int from) {
    for (int j = from + 1; j < lines.size(); j++) {
      String t = lines.get(j).strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        return t.startsWith("- ");
      }
    }
    return false;
  }
}
