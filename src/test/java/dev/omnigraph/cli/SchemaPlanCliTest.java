package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schema plan} on a local graph with data: the reference CLI's human lines and JSON, an
 * unsupported plan, a desired schema that does not parse, and that planning writes nothing.
 */
class SchemaPlanCliTest {

  @TempDir Path dir;
  private Path root;
  private String accepted;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    accepted = resource("graphs/people.pg");
    try (Omnigraph g = Omnigraph.init(StorageConfig.local(root), accepted, Optional.of("setup"))) {
      g.load("main", new java.io.StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}"),
          dev.omnigraph.api.LoadMode.APPEND, Optional.of("setup"));
    }
  }

  private List<String> tree() throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  private Path desired(String source) throws Exception {
    return Files.writeString(dir.resolve("desired.pg"), source);
  }

  @Test
  void aPlanListsItsStepsInOrderAndWritesNothing() throws Exception {
    List<String> before = tree();
    Path file = desired(accepted.replace("founded: Date?", "founded: Date?\n  city: String?")
        + "\nnode City { name: String @key }\n");
    Run human = CliHarness.run("schema", "plan", "--schema", file.toString(), "--store", root.toString());
    assertThat(human.exit()).as(human.err()).isZero();
    assertThat(human.out().lines().toList()).containsExactly(
        "schema plan for " + StorageConfig.local(root).rootUri(),
        "supported: yes",
        "- add node type 'City'",
        "- add property 'Company.city' (String?) on node 'Company'");
    Run json = CliHarness.run("schema", "plan", "--schema", file.toString(), "--json", "--store", root.toString());
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.json().get("supported").asBoolean()).isTrue();
    assertThat(json.json().get("step_count").asInt()).isEqualTo(2);
    assertThat(json.json().get("steps").get(0).toString())
        .isEqualTo("{\"kind\":\"add_type\",\"type_kind\":\"node\",\"name\":\"City\"}");
    assertThat(tree()).isEqualTo(before);
  }

  @Test
  void anUnsupportedPlanSaysSoAndNamesTheEntity() throws Exception {
    Run plan = CliHarness.run("schema", "plan", "--schema", desired(accepted.replace("founded: Date?", "founded: DateTime?"))
        .toString(), "--store", root.toString());
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.out().lines().toList()).containsExactly(
        "schema plan for " + StorageConfig.local(root).rootUri(),
        "supported: no",
        "- unsupported change on node:Company.founded: changing the type of 'Company.founded' from Date? to "
            + "DateTime? is not supported");
  }

  @Test
  void theSameSchemaPlansNoChanges() throws Exception {
    Run plan = CliHarness.run("schema", "plan", "--schema", desired(accepted).toString(), "--store", root.toString());
    assertThat(plan.exit()).as(plan.err()).isZero();
    assertThat(plan.out()).endsWith("supported: yes\nno schema changes\n");
  }

  @Test
  void aDesiredSchemaThatDoesNotParseIsAnErrorAtItsPosition() throws Exception {
    Run plan = CliHarness.run("schema", "plan", "--schema", desired("node Person {\n  name: Strin @key\n}\n")
        .toString(), "--store", root.toString());
    assertThat(plan.exit()).isEqualTo(1);
    assertThat(plan.err()).contains("2:");
    assertThat(plan.out()).isEmpty();
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = SchemaPlanCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
