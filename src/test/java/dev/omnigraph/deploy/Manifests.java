package dev.omnigraph.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes objects parsed from YAML (multi-document streams, as {@code helm template} prints them
 * and as {@code k8s/} holds them), with the lookups the chart and manifest tests share. The
 * single-writer invariants are asserted here once so that both deliveries are held to the same ones.
 */
final class Manifests {

  static final String LIVENESS_PATH = "/q/health/live";
  static final String READINESS_PATH = "/q/health/ready";
  static final int HTTP_PORT = 8080;

  private static final YAMLMapper YAML = new YAMLMapper();

  private final List<JsonNode> objects;

  private Manifests(List<JsonNode> objects) {
    this.objects = objects;
  }

  static Path basedir() {
    return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
  }

  static Manifests parse(String yaml) throws IOException {
    List<JsonNode> objects = new ArrayList<>();
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        // Empty documents (a template that rendered nothing, a trailing ---) are not objects.
        if (doc != null && doc.isObject() && doc.has("kind")) {
          objects.add(doc);
        }
      }
    }
    return new Manifests(objects);
  }

  static Manifests concat(List<Manifests> parts) {
    List<JsonNode> all = new ArrayList<>();
    parts.forEach(m -> all.addAll(m.objects));
    return new Manifests(all);
  }

  List<JsonNode> all() {
    return objects;
  }

  List<JsonNode> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
  }

  JsonNode only(String kind) {
    List<JsonNode> found = ofKind(kind);
    assertThat(found).as("exactly one %s", kind).hasSize(1);
    return found.get(0);
  }

  JsonNode named(String kind, String name) {
    return ofKind(kind).stream()
        .filter(o -> name.equals(o.path("metadata").path("name").asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " among " + objects));
  }

  static JsonNode container(JsonNode deployment) {
    JsonNode containers = deployment.path("spec").path("template").path("spec").path("containers");
    assertThat(containers.size()).as("containers in the pod").isEqualTo(1);
    return containers.get(0);
  }

  /** The container's {@code env} entries by name (value or valueFrom node). */
  static Map<String, JsonNode> env(JsonNode container) {
    Map<String, JsonNode> env = new LinkedHashMap<>();
    container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
    return env;
  }

  /**
   * The literal environment the container starts with: every ConfigMap named by {@code envFrom}
   * (looked up among these objects), overridden by literal {@code env} values, as the kubelet does.
   */
  Map<String, String> literalEnvironment(JsonNode container) {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode from : container.path("envFrom")) {
      if (from.has("configMapRef")) {
        named("ConfigMap", from.path("configMapRef").path("name").asText())
            .path("data").fields().forEachRemaining(f -> out.put(f.getKey(), f.getValue().asText()));
      }
    }
    env(container).forEach((name, e) -> {
      if (e.has("value")) {
        out.put(name, e.path("value").asText());
      }
    });
    return out;
  }

  /**
   * The invariants of PRODUCT.md §9: one writer process per graph root (one replica, Recreate),
   * SmallRye probes, port 8080 exposed on all interfaces with unauthenticated access off, S3
   * credentials only through a Secret.
   */
  void assertSingleWriterDeployment() {
    JsonNode deployment = only("Deployment");
    JsonNode spec = deployment.path("spec");
    assertThat(spec.path("replicas").isInt()).as("replicas is an integer").isTrue();
    assertThat(spec.path("replicas").asInt()).as("replicas").isEqualTo(1);
    assertThat(spec.path("strategy").path("type").asText()).as("strategy").isEqualTo("Recreate");
    assertThat(spec.path("strategy").has("rollingUpdate")).isFalse();

    JsonNode c = container(deployment);
    assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo(LIVENESS_PATH);
    assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo(READINESS_PATH);
    assertThat(c.path("livenessProbe").path("httpGet").path("port").asText()).isEqualTo("http");
    assertThat(c.path("readinessProbe").path("httpGet").path("port").asText()).isEqualTo("http");
    JsonNode port = c.path("ports").get(0);
    assertThat(port.path("name").asText()).isEqualTo("http");
    assertThat(port.path("containerPort").asInt()).isEqualTo(HTTP_PORT);

    assertThat(c.path("resources").path("requests").path("memory").asText()).isNotEmpty();
    assertThat(c.path("resources").path("requests").path("cpu").asText()).isNotEmpty();
    assertThat(c.path("resources").path("limits").path("memory").asText()).isNotEmpty();

    Map<String, String> literal = literalEnvironment(c);
    assertThat(literal).containsEntry("QUARKUS_HTTP_HOST", "0.0.0.0");
    assertThat(literal).containsEntry("OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED", "false");
    assertThat(literal).containsKey("OMNIGRAPH_STORAGE_URI");
    // Secrets never appear as literals, only as references.
    assertThat(literal).doesNotContainKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY");
    Map<String, JsonNode> env = env(c);
    for (String name : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")) {
      assertThat(env.get(name)).as(name).isNotNull();
      assertThat(env.get(name).path("valueFrom").has("secretKeyRef")).as(name + " from a Secret").isTrue();
    }
    assertThat(env.keySet()).as("at least one bearer-token hash")
        .anyMatch(n -> n.startsWith("OMNIGRAPH_AUTH_TOKENS_"));
    env.forEach((name, e) -> {
      if (name.startsWith("OMNIGRAPH_AUTH_TOKENS_")) {
        assertThat(e.path("valueFrom").has("secretKeyRef")).as(name + " from a Secret").isTrue();
      }
    });

    assertThat(ofKind("Secret")).as("no Secret is rendered or applied").isEmpty();

    JsonNode service = only("Service");
    assertThat(service.path("spec").path("type").asText()).isEqualTo("ClusterIP");
    JsonNode servicePort = service.path("spec").path("ports").get(0);
    assertThat(servicePort.path("port").asInt()).isEqualTo(HTTP_PORT);
    assertThat(servicePort.path("targetPort").asText()).isEqualTo("http");
    JsonNode podLabels = deployment.path("spec").path("template").path("metadata").path("labels");
    service.path("spec").path("selector").fields().forEachRemaining(sel ->
        assertThat(podLabels.path(sel.getKey()).asText()).as("service selects the pod: " + sel.getKey())
            .isEqualTo(sel.getValue().asText()));
    deployment.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(sel ->
        assertThat(podLabels.path(sel.getKey()).asText()).as("deployment selects its pods: " + sel.getKey())
            .isEqualTo(sel.getValue().asText()));
  }
}
