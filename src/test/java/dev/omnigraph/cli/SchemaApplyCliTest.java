package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schema apply} on a local graph: the reference CLI's human lines and JSON, rows of the new
 * type and property loaded right after, the old commit still read by {@code query --commit}, a
 * repeated apply that changes nothing, and the refusals with their exit codes (unsupported 1, a
 * desired file that does not parse 1, other branches 3), a soft drop still read by time travel, and
 * the warning a hard drop prints.
 */
class SchemaApplyCliTest {

  @TempDir Path dir;
  private Path root;
  private String accepted;
  private String uri;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    accepted = resource("graphs/people.pg");
    uri = StorageConfig.local(root).rootUri();
    try (Omnigraph g = Omnigraph.init(StorageConfig.local(root), accepted, Optional.of("setup"))) {
      g.load("main", new java.io.StringReader("{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}"),
          dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
    }
  }

  private Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  private String withCity() {
    return accepted.replace("founded: Date?", "founded: Date?\n  city: String?") + "\nnode City { name: String @key }\n";
  }

  private Run apply(Path schema, String... more) {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("schema", "apply", "--schema",
        schema.toString(), "--store", root.toString()));
    args.addAll(java.util.List.of(more));
    return CliHarness.run(args.toArray(String[]::new));
  }

  private String head() throws Exception {
    return CliHarness.run("commit", "list", "--json", "--limit", "1", "--store", root.toString()).json()
        .get("commits").get(0).get("graph_commit_id").asText();
  }

  @Test
  void anApplyPrintsTheReferenceLinesAndTheNewSchemaTakesRowsAtOnce() throws Exception {
    String before = head();
    Path desired = file("desired.pg", withCity());
    Run applied = apply(desired);
    assertThat(applied.exit()).as(applied.err()).isZero();
    assertThat(applied.out().lines().toList()).hasSize(6);
    assertThat(applied.out().lines().toList().subList(0, 3)).containsExactly(
        "schema apply for " + uri, "supported: yes", "applied: yes");
    assertThat(applied.out().lines().toList().get(3)).matches("graph_manifest_version: \\d+");
    assertThat(applied.out().lines().toList().subList(4, 6)).containsExactly(
        "- add node type 'City'",
        "- add property 'Company.city' (String?) on node 'Company'");
    assertThat(applied.err()).isEmpty();
    assertThat(CliHarness.run("schema", "show", "--store", root.toString()).out()).isEqualTo(withCity());

    Path rows = file("rows.ndjson", """
        {"type":"City","data":{"name":"paris"}}
        {"type":"Company","data":{"name":"bolt","city":"paris"}}
        """);
    Run load = CliHarness.run("load", "--data", rows.toString(), "--mode", "append", "--store", root.toString());
    assertThat(load.exit()).as(load.err()).isZero();
    Path gq = file("q.gq", """
        query companies() {
          match { $c: Company }
          return { $c.name }
          order { $c.name }
        }
        """);
    Run now = CliHarness.run("query", "companies", "--query", gq.toString(), "--format", "csv", "--store",
        root.toString());
    assertThat(now.exit()).as(now.err()).isZero();
    assertThat(now.out()).isEqualTo("c.name\nacme\nbolt\n");
    Run then = CliHarness.run("query", "companies", "--query", gq.toString(), "--format", "csv", "--commit", before,
        "--store", root.toString());
    assertThat(then.exit()).as(then.err()).isZero();
    assertThat(then.out()).isEqualTo("c.name\nacme\n");

    Run again = apply(desired, "--json");
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.json().get("applied").asBoolean()).isFalse();
    assertThat(again.json().get("step_count").asInt()).isZero();
    assertThat(again.json().has("graph_commit_id")).isFalse();
    Run human = apply(desired);
    assertThat(human.out()).startsWith("schema apply for " + uri + "\nsupported: yes\napplied: no\n")
        .endsWith("no schema changes\n");
  }

  @Test
  void jsonIsTheSchemaApplyOutput() throws Exception {
    Run json = apply(file("desired.pg", withCity()), "--json");
    assertThat(json.exit()).as(json.err()).isZero();
    var out = json.json();
    assertThat(out.get("uri").asText()).isEqualTo(uri);
    assertThat(out.get("supported").asBoolean()).isTrue();
    assertThat(out.get("applied").asBoolean()).isTrue();
    assertThat(out.get("step_count").asInt()).isEqualTo(2);
    assertThat(out.get("graph_manifest_version").asLong()).isPositive();
    assertThat(out.get("steps").get(0).toString())
        .isEqualTo("{\"kind\":\"add_type\",\"type_kind\":\"node\",\"name\":\"City\"}");
    assertThat(out.get("graph_commit_id").asText()).isEqualTo(head());
    assertThat(out.has("hard_dropped")).isFalse();
  }

  @Test
  void anUnsupportedChangeExits1NamingTheEntityAndWritesNothing() throws Exception {
    String before = head();
    Run refused = apply(file("desired.pg", accepted.replace("founded: Date?", "founded: DateTime?")));
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).startsWith("error: ").contains("node:Company.founded");
    assertThat(refused.out()).isEmpty();
    assertThat(head()).isEqualTo(before);
  }

  @Test
  void aDesiredFileThatDoesNotParseExits1AtItsPosition() throws Exception {
    Run refused = apply(file("desired.pg", "node Person {\n  name: Strin @key\n}\n"));
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).contains("2:");
    assertThat(refused.out()).isEmpty();
  }

  @Test
  void otherBranchesBlockAnApplyWithExit3() throws Exception {
    assertThat(CliHarness.run("branch", "create", "feature", "--store", root.toString()).exit()).isZero();
    String before = head();
    Run blocked = apply(file("desired.pg", withCity()));
    assertThat(blocked.exit()).isEqualTo(3);
    assertThat(blocked.err()).contains("feature").contains("merge or delete them first");
    assertThat(head()).isEqualTo(before);
    assertThat(CliHarness.run("schema", "show", "--store", root.toString()).out()).isEqualTo(accepted);
  }

  /** The graph with City applied and one City row loaded; returns the head after the load. */
  private String withACity() throws Exception {
    assertThat(apply(file("desired.pg", withCity())).exit()).isZero();
    Path rows = file("rows.ndjson", "{\"type\":\"City\",\"data\":{\"name\":\"paris\"}}\n");
    assertThat(CliHarness.run("load", "--data", rows.toString(), "--mode", "append", "--store", root.toString())
        .exit()).isZero();
    return head();
  }

  @Test
  void aSoftDropKeepsTheOldDataReadableByTimeTravel() throws Exception {
    String loaded = withACity();
    Run soft = apply(file("without.pg", accepted), "--json");
    assertThat(soft.exit()).as(soft.err()).isZero();
    assertThat(soft.err()).isEmpty();
    assertThat(soft.json().get("steps").findValuesAsText("kind")).containsExactly("drop_property", "drop_type");
    assertThat(soft.json().get("steps").findValuesAsText("mode")).containsOnly("soft");
    assertThat(soft.json().has("hard_dropped")).isFalse();
    Path gq = file("cities.gq", "query cities() { match { $c: City } return { $c.name } }\n");
    Run then = CliHarness.run("query", "cities", "--query", gq.toString(), "--format", "csv", "--commit", loaded,
        "--store", root.toString());
    assertThat(then.exit()).as(then.err()).isZero();
    assertThat(then.out()).isEqualTo("c.name\nparis\n");
  }

  @Test
  void aHardDropWarnsThatItCannotBeUndone() throws Exception {
    withACity();
    Run hard = apply(file("without.pg", accepted), "--allow-data-loss");
    assertThat(hard.exit()).as(hard.err()).isZero();
    assertThat(hard.out()).contains("- drop node type 'City' (hard mode)");
    assertThat(hard.err()).matches("warning: --allow-data-loss dropped property 'Company.city', node type 'City'"
        + " for good: every version before this apply of datasets \\S+, \\S+ was removed \\(a dropped type's"
        + " dataset entirely\\), so time travel to before this apply can no longer read them \\(irreversible\\)\n");
  }

  @Test
  void planHasNoRemoteFormAndSaysWhy() throws Exception {
    Run plan = CliHarness.run("schema", "plan", "--schema", file("desired.pg", withCity()).toString(), "--server",
        "http://127.0.0.1:1");
    assertThat(plan.exit()).isEqualTo(2);
    assertThat(plan.err()).contains("schema plan has no --server form").contains("POST /schema/apply");
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = SchemaApplyCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
