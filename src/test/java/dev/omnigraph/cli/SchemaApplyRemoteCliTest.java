package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.server.GraphsTestResource;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schema apply --server URL --graph ID} against the running test server (graph
 * {@code applycli}): the same lines, JSON and exit codes as on a local graph, the actor the token
 * names, and the server's refusals turned back into the local exit codes (400 → 1, 409 → 3).
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class SchemaApplyRemoteCliTest {

  @TestHTTPResource("/") URL server;
  @TempDir Path dir;

  @AfterEach
  void restoreEnvironment() {
    GraphOptions.env = System::getenv;
  }

  private Run run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", server.toString(), "--graph", "applycli"));
    return CliHarness.run(all.toArray(String[]::new));
  }

  private Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void remoteApplySpeaksTheLocalLinesJsonAndExitCodes() throws Exception {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.applycli.uri", String.class);
    String people = resource("graphs/people.pg");
    Omnigraph.init(StorageConfig.fromEnvironment(uri), people, Optional.of("setup")).close();
    String withCity = people.replace("founded: Date?", "founded: Date?\n  city: String?")
        + "\nnode City { name: String @key }\n";
    Path desired = file("desired.pg", withCity);

    Run anonymous = run("schema", "apply", "--schema", desired.toString());
    assertThat(anonymous.exit()).isEqualTo(1);
    assertThat(anonymous.err()).contains("missing bearer token").contains("HTTP 401");

    GraphOptions.env = name -> name.equals("OMNIGRAPH_TOKEN") ? GraphsTestResource.ALICE_TOKEN : null;
    Run unsupported = run("schema", "apply", "--schema",
        file("bad.pg", people.replace("founded: Date?", "founded: DateTime?")).toString());
    assertThat(unsupported.exit()).isEqualTo(1);
    assertThat(unsupported.err()).contains("node:Company.founded");

    assertThat(run("branch", "create", "feature").exit()).isZero();
    Run blocked = run("schema", "apply", "--schema", desired.toString());
    assertThat(blocked.exit()).isEqualTo(3);
    assertThat(blocked.err()).contains("feature").contains("merge or delete them first");
    assertThat(run("branch", "delete", "feature").exit()).isZero();

    Run applied = run("schema", "apply", "--schema", desired.toString());
    assertThat(applied.exit()).as(applied.err()).isZero();
    List<String> lines = applied.out().lines().toList();
    assertThat(lines.get(0)).startsWith("schema apply for ");
    assertThat(lines.subList(1, 3)).containsExactly("supported: yes", "applied: yes");
    assertThat(lines.get(3)).matches("graph_manifest_version: \\d+");
    assertThat(lines.subList(4, lines.size())).containsExactly(
        "- add node type 'City'",
        "- add property 'Company.city' (String?) on node 'Company'");
    assertThat(run("schema", "show").out()).isEqualTo(withCity);
    assertThat(run("commit", "list", "--json", "--limit", "1").json().get("commits").get(0).get("actor_id").asText())
        .isEqualTo("alice");

    Run again = run("schema", "apply", "--schema", desired.toString(), "--json");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.json().get("applied").asBoolean()).isFalse();
    assertThat(again.json().get("steps").size()).isZero();

    // A hard drop read back from the server warns as locally.
    Path rows = file("rows.ndjson", "{\"type\":\"City\",\"data\":{\"name\":\"paris\"}}\n");
    assertThat(run("load", "--data", rows.toString(), "--mode", "append").exit()).isZero();
    Run hard = run("schema", "apply", "--schema", file("people.pg", people).toString(), "--allow-data-loss", "--json");
    assertThat(hard.exit()).as(hard.err()).isZero();
    assertThat(hard.json().get("hard_dropped").size()).isPositive();
    assertThat(hard.err()).startsWith("warning: --allow-data-loss dropped property 'Company.city', node type 'City'"
        + " for good: every version before this apply of datasets ").contains("(irreversible)");
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = SchemaApplyRemoteCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
