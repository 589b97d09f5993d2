package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph index ensure} on a local graph: the lines (per table its indexes, pending vector
 * properties, the commit), {@code --json}, a second run that builds nothing, a named branch (forks
 * only the tables with work), and the exit codes of an unknown branch and of a usage error.
 */
class IndexCliTest {

  @TempDir Path dir;

  /** people.pg with Person.age and Knows.since indexed, and a vector nobody has yet. */
  static String schema() {
    try (InputStream in = IndexCliTest.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("  age: I32?\n", "  age: I32? @index\n  emb: Vector(4)? @index\n")
          .replace("  since: I64?\n", "  since: I64? @index\n");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @BeforeEach
  void graph() {
    try (Omnigraph g = Omnigraph.init(StorageConfig.local(dir), schema(), Optional.of("setup"))) {
      g.load("main", new StringReader("""
          {"type":"Person","data":{"name":"ann","age":30}}
          {"type":"Person","data":{"name":"bob","age":40}}
          {"edge":"Knows","from":"ann","to":"bob","data":{"since":2001}}
          """), LoadMode.APPEND, Optional.of("setup"));
    }
  }

  @Test
  void ensureBuildsPrintsAndASecondRunBuildsNothing() throws Exception {
    Run first = CliHarness.run("index", "ensure", "--store", dir.toString(), "--actor", "ops");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out().lines().toList()).hasSize(4);
    assertThat(first.out()).contains("edge:Knows", "since btree", "node:Person", "name inverted, age btree",
        "pending: node:Person.emb: no non-null vector", "published commit ");
    Run again = CliHarness.run("index", "ensure", dir.toString(), "--json");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.json().get("changed").asBoolean()).isFalse();
    assertThat(again.json().has("graph_commit_id")).isFalse();
    assertThat(again.json().get("tables")).isEmpty();
    assertThat(again.json().get("pending").get(0).get("property").asText()).isEqualTo("emb");
    Run text = CliHarness.run("index", "ensure", "--store", dir.toString());
    assertThat(text.out()).contains("every declared index exists on main; nothing to build");
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(dir), dev.omnigraph.api.OpenMode.READ_ONLY)) {
      String head = g.commits("main", dev.omnigraph.api.CommitPage.first(1)).commits().get(0).graphCommitId();
      assertThat(first.out()).contains("published commit " + head);
      assertThat(g.commit(head).actorId()).isEqualTo("ops");
    }
  }

  @Test
  void aBranchForksOnlyTablesWithWorkAndErrorsHaveTheirExitCodes() throws Exception {
    assertThat(CliHarness.run("branch", "create", "feature", "--store", dir.toString()).exit()).isZero();
    Run json = CliHarness.run("index", "ensure", "--store", dir.toString(), "--branch", "feature", "--json");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.json().get("branch").asText()).isEqualTo("feature");
    assertThat(json.json().get("tables")).hasSize(2).allSatisfy(t -> {
      assertThat(t.get("first_touch").asBoolean()).isTrue();
      assertThat(t.get("native_branch").asText()).isEqualTo("feature");
    });

    Run unknown = CliHarness.run("index", "ensure", "--store", dir.toString(), "--branch", "nope");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("nope");
    Run both = CliHarness.run("index", "ensure", dir.toString(), "--server", "http://localhost:1");
    assertThat(both.exit()).isEqualTo(2);
  }
}
