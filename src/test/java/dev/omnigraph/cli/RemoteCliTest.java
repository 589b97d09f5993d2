package dev.omnigraph.cli;

import dev.omnigraph.cli.CliHarness.Run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.server.GraphsTestResource;
import dev.omnigraph.api.storage.StorageConfig;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
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
import picocli.CommandLine;

/**
 * The CLI's remote form ({@code --server URL --graph ID}, token from {@code $OMNIGRAPH_TOKEN})
 * against the running test server: the same {@code --json} shapes as a local graph, and the same
 * exit codes for the outcomes the server reports.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class RemoteCliTest {

  @TestHTTPResource("/") URL server;

  @AfterEach
  void restoreEnvironment() {
    GraphOptions.env = System::getenv;
  }

  private Run run(String... args) {
    return runOn("cli", args);
  }

  private Run runOn(String graph, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", server.toString(), "--graph", graph));
    return CliHarness.run(all.toArray(String[]::new));
  }

  /** {@code queries list} remote is {@code GET /queries}: the same catalog, as JSON or one line a query. */
  @Test
  void queriesListIsTheServersCatalog() throws Exception {
    GraphOptions.env = name -> name.equals("OMNIGRAPH_TOKEN") ? GraphsTestResource.ALICE_TOKEN : null;
    String http = io.restassured.RestAssured.given().header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN)
        .get("/graphs/sq/queries").then().statusCode(200).extract().asString();
    Run json = runOn("sq", "queries", "list", "--json");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.json()).isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree(http));
    Run text = runOn("sq", "queries", "list");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).contains(String.format("%-24s %-8s %s%n", "add_person", "mutation",
        "$name: string, $age: int?"));
    assertThat(text.out()).contains(String.format("%-24s %-8s %s%n", "kinds", "read",
        "$s: string, $b: bool, $i: int, $big: bigint, $f: float, $d: date, $dt: datetime, $opt: string?,"
            + " $list: [int], $v: vector(3)"));
    Run none = runOn("g", "queries", "list", "--json");
    assertThat(none.exit()).as(none.err()).isZero();
    assertThat(none.json().get("queries").isArray()).isTrue();
    assertThat(none.json().get("queries").size()).isZero();
  }

  /** {@code changes poll} remote is {@code GET /changes}: from now, nothing yet and a caught-up cursor. */
  @Test
  void changesPollIsTheServersFeed() throws Exception {
    GraphOptions.env = name -> name.equals("OMNIGRAPH_TOKEN") ? GraphsTestResource.ALICE_TOKEN : null;
    Run now = runOn("default", "changes", "poll", "--json");
    assertThat(now.exit()).as(now.err()).isZero();
    assertThat(now.json().get("blocks").size()).isZero();
    assertThat(now.json().get("caught_up").asBoolean()).isTrue();
    Run bad = runOn("default", "changes", "poll", "--cursor", "garbage");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("'cursor' is not a cursor this server issued");
  }

  @Test
  void remoteCommandsSpeakTheReferenceShapesAndExitCodes(@TempDir Path dir) throws Exception {
    String uri = ConfigProvider.getConfig().getValue("omnigraph.graphs.cli.uri", String.class);
    Omnigraph.init(StorageConfig.fromEnvironment(uri), resource("graphs/people.pg"), Optional.of("setup")).close();
    Path gq = Files.writeString(dir.resolve("people.gq"), resource("graphs/people.gq")
        + "\nquery everyone() { match { $p: Person } return { $p.name } order { $p.name } }\n");
    Path data = Files.writeString(dir.resolve("people.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}\n");

    Run anonymous = run("snapshot", "--json");
    assertThat(anonymous.exit()).isEqualTo(1);
    assertThat(anonymous.err()).contains("missing bearer token").contains("HTTP 401");

    GraphOptions.env = name -> name.equals("OMNIGRAPH_TOKEN") ? GraphsTestResource.ALICE_TOKEN : null;
    Run load = run("load", "--data", data.toString(), "--mode", "append", "--json");
    assertThat(load.exit()).as(load.err()).isZero();
    assertThat(load.json().get("total_entities").asInt()).isEqualTo(2);
    assertThat(load.json().get("actor_id").asText()).isEqualTo("alice");
    assertThat(load.json().get("nodes").get(0).get("entities_loaded").asInt()).isEqualTo(2);

    Run query = run("query", "everyone", "--query", gq.toString());
    assertThat(query.exit()).as(query.err()).isZero();
    assertThat(query.json().get("rows").toString()).isEqualTo("[{\"p.name\":\"ann\"},{\"p.name\":\"ben\"}]");
    assertThat(query.json().get("target").get("branch").asText()).isEqualTo("main");

    Run mutate = run("mutate", "add_person", "--query", gq.toString(), "--params", "{\"name\":\"cy\"}", "--json");
    assertThat(mutate.exit()).as(mutate.err()).isZero();
    assertThat(mutate.json().get("affected_nodes").asInt()).isEqualTo(1);
    String head = mutate.json().get("commit").get("graph_commit_id").asText();

    // Was exit 3 (key conflict): a keyed mutation insert is an upsert by its derived id (issue 13).
    Run duplicate = run("mutate", "add_person", "--query", gq.toString(), "--params", "{\"name\":\"cy\"}", "--json");
    assertThat(duplicate.exit()).as(duplicate.err()).isZero();
    assertThat(duplicate.json().get("affected_nodes").asInt()).isEqualTo(1);
    head = duplicate.json().get("commit").get("graph_commit_id").asText();

    Run stale = run("mutate", "add_person", "--query", gq.toString(), "--params", "{\"name\":\"dee\"}",
        "--if-commit", load.json().get("commit").get("graph_commit_id").asText());
    assertThat(stale.exit()).isEqualTo(4);
    assertThat(stale.err()).contains("precondition failed").contains(head);

    Run bad = run("query", "everyone", "--query", gq.toString(), "--params", "{\"x\":1}");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("parameter $x");

    assertThat(run("branch", "create", "feature", "--json").json().get("from").asText()).isEqualTo("main");
    assertThat(run("branch", "list", "--json").json().get("branches").toString()).isEqualTo("[\"feature\",\"main\"]");
    Run again = run("branch", "create", "feature");
    assertThat(again.exit()).isEqualTo(3);
    assertThat(run("branch", "delete", "feature", "--json").json().get("name").asText()).isEqualTo("feature");

    JsonNode commits = run("commit", "list", "--json").json().get("commits");
    assertThat(commits).hasSize(4); // genesis, load, mutate, and the upsert of the same key
    commits.forEach(c -> assertThat(c.get("graph_branch").isNull()).as("main is graph_branch null").isTrue());
    assertThat(commits.get(0).get("graph_commit_id").asText()).isEqualTo(head);
    assertThat(run("commit", "show", head, "--json").json().get("actor_id").asText()).isEqualTo("alice");
    // Paged: the query string carries limit and cursor; the hint names this server and graph.
    Run firstPage = run("commit", "list", "--limit", "2");
    assertThat(firstPage.exit()).as(firstPage.err()).isZero();
    assertThat(firstPage.out().lines().map(l -> l.substring(0, l.indexOf(' '))))
        .containsExactly(commits.get(0).get("graph_commit_id").asText(), commits.get(1).get("graph_commit_id").asText());
    String more = "more: omnigraph commit list --server " + server + " --graph cli --branch main --limit 2 --cursor ";
    assertThat(firstPage.err()).startsWith(more);
    JsonNode lastPage = run("commit", "list", "--json", "--limit", "2", "--cursor",
        firstPage.err().strip().substring(more.length())).json();
    assertThat(lastPage.get("commits")).hasSize(2);
    assertThat(lastPage.get("commits").get(0).get("graph_commit_id").asText())
        .isEqualTo(commits.get(2).get("graph_commit_id").asText());
    assertThat(lastPage.has("next_cursor")).isFalse();
    assertThat(run("commit", "list", "--json", "--limit", "2").json().get("next_cursor").asText()).isNotBlank();
    Run badCursor = run("commit", "list", "--cursor", "a b&c=d");
    assertThat(badCursor.exit()).isEqualTo(1);
    // The server's 400 in full: the cursor arrived as one parameter, its space, '&' and '=' encoded.
    assertThat(badCursor.err()).isEqualTo("error: 'cursor' is not a commit-list cursor: pass the next_cursor of the"
        + " previous page unchanged, or omit it for the first page\n");

    JsonNode snapshot = run("snapshot", "--json").json();
    assertThat(snapshot.get("graph_branch").asText()).isEqualTo("main");
    assertThat(snapshot.get("internal_schema_version").asInt()).isEqualTo(6);

    Run unknown = runOn("nope", "snapshot");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("graph not found: nope").contains("HTTP 404");
    assertThat(run("schema", "show").out()).isEqualTo(resource("graphs/people.pg"));
    // Strict input and branch names, refused by the server exactly as locally (exit 1, the line named).
    Path twoObjects = Files.writeString(dir.resolve("two.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"x1\"}} {\"type\":\"Person\",\"data\":{\"name\":\"x2\"}}\n");
    Run strict = run("load", "--data", twoObjects.toString(), "--mode", "merge");
    assertThat(strict.exit()).isEqualTo(1);
    assertThat(strict.err()).isEqualTo(
        "error: line 1: unexpected content after the JSON object at column 40 (exactly one object per line)\n");
    Run bogusMode = run("load", "--data", twoObjects.toString(), "--mode", "bogus");
    assertThat(bogusMode.exit()).isEqualTo(2);
    assertThat(bogusMode.err()).contains("unknown load mode 'bogus'");
    Run mainBranch = run("branch", "create", "main");
    assertThat(mainBranch.exit()).isEqualTo(1);
    assertThat(mainBranch.err()).isEqualTo("error: branch name 'main' is reserved: the main branch always exists\n");
    assertThat(run("commit", "list", "--json").json().get("commits")).hasSize(4); // unchanged by the refused commands above

    Run noRemoteForm = run("init", "--schema", gq.toString());
    assertThat(noRemoteForm.exit()).isEqualTo(2);
    assertThat(noRemoteForm.err()).contains("no --server form");
    // Branch -> mutate -> review the diff -> merge, remotely; a conflicting merge exits 3 listing it.
    assertThat(run("branch", "create", "review").exit()).isZero();
    Run onReview = run("mutate", "set_age", "--query", gq.toString(), "--params", "{\"name\":\"ann\",\"age\":5}",
        "--branch", "review", "--json");
    assertThat(onReview.exit()).as(onReview.err()).isZero();
    String reviewed = onReview.json().get("commit").get("graph_commit_id").asText();
    Run diff = run("commit", "changes", reviewed, "--json");
    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.json().get("changes")).hasSize(1);
    assertThat(diff.json().get("changes").get(0).get("op").asText()).isEqualTo("update");
    assertThat(diff.json().get("changes").get(0).get("id").asText()).isEqualTo("ann");
    assertThat(diff.json().get("changes").get(0).get("after").get("properties").get("age").asInt()).isEqualTo(5);
    Run lines = run("commit", "changes", reviewed);
    assertThat(lines.out()).startsWith("update node:Person ann  before=");
    Run merged = run("branch", "merge", "review", "--json");
    assertThat(merged.exit()).as(merged.err()).isZero();
    assertThat(merged.json().get("outcome").asText()).isEqualTo("fast_forward");
    assertThat(merged.json().get("actor_id").asText()).isEqualTo("alice");
    JsonNode mainHead = run("commit", "list", "--json", "--limit", "1").json().get("commits").get(0);
    assertThat(mainHead.get("merged_parent_commit_id").asText()).isEqualTo(reviewed);
    assertThat(run("mutate", "set_age", "--query", gq.toString(), "--params", "{\"name\":\"ann\",\"age\":6}",
        "--branch", "review").exit()).isZero();
    assertThat(run("mutate", "set_age", "--query", gq.toString(), "--params", "{\"name\":\"ann\",\"age\":7}")
        .exit()).isZero();
    Run conflict = run("branch", "merge", "review", "--into", "main");
    assertThat(conflict.exit()).isEqualTo(3);
    assertThat(conflict.err()).contains("divergent_update node:Person ann");
    Run genesisDiff = run("commit", "changes", commits.get(commits.size() - 1).get("graph_commit_id").asText());
    assertThat(genesisDiff.exit()).isEqualTo(3);
    assertThat(genesisDiff.err()).contains("no parent");
    Run refused = run("branch", "merge", "review", "--delete-branch", "--json");
    assertThat(refused.exit()).as("no deletion after a refused merge").isEqualTo(3);
    assertThat(run("branch", "list", "--json").json().get("branches").toString()).isEqualTo("[\"main\",\"review\"]");
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = RemoteCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
