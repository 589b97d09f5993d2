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
import java.io.StringReader;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code index ensure --server URL --graph ID} against the running test server (graph
 * {@code idxcli}): the same lines and JSON as locally, the token's actor on the commit, and a
 * missing token as exit 1.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class IndexRemoteCliTest {

  @TestHTTPResource("/") URL server;

  @AfterEach
  void restoreEnvironment() {
    GraphOptions.env = System::getenv;
  }

  private Run run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", server.toString(), "--graph", "idxcli"));
    return CliHarness.run(all.toArray(String[]::new));
  }

  @Test
  void remoteEnsureBuildsOnceWithTheTokensActor() throws Exception {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.idxcli.uri", String.class);
    try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(uri), IndexCliTest.schema(), Optional.of("setup"))) {
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}"),
          dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
    }
    Run anonymous = run("index", "ensure");
    assertThat(anonymous.exit()).isEqualTo(1);
    assertThat(anonymous.err()).contains("HTTP 401");

    GraphOptions.env = name -> name.equals("OMNIGRAPH_TOKEN") ? GraphsTestResource.ALICE_TOKEN : null;
    Run first = run("index", "ensure", "--json");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.json().get("changed").asBoolean()).isTrue();
    assertThat(first.json().get("tables").get(0).get("table_key").asText()).isEqualTo("node:Person");
    String commit = first.json().get("graph_commit_id").asText();
    Run commitShown = run("commit", "show", commit, "--json");
    assertThat(commitShown.out()).contains("alice");

    Run again = run("index", "ensure", "--branch", "main");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.out()).contains("every declared index exists on main; nothing to build");
  }
}
