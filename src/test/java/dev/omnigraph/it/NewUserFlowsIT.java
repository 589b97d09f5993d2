package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user does with the packaged jar through {@code bin/omnigraph}: a load killed mid-way
 * (a failpoint halting the JVM, exit 137, as a crash would), then a read-only snapshot that still
 * serves the last published state, then the next write healing the graph; and read queries from a
 * query file, at the head and at an older commit.
 */
// The flows share nothing (each its own @TempDir), so they run side by side (pom.xml, failsafe).
@Execution(ExecutionMode.CONCURRENT)
class NewUserFlowsIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path LAUNCHER = BASEDIR.resolve("bin/omnigraph");
  private static final ObjectMapper JSON = new ObjectMapper();
  /**
   * JIT settings for the short-lived CLI runs here (JIT and GC only: the same jar, launcher and
   * code paths). C2's and G1's threads were ~30% of a run's CPU: {@code query} 8.9 -> 6.2 s CPU
   * (shared machine); with them, four runs two at a time (the parallel IT run, pom.xml) took
   * 11.6-12.1 s against 17.5-21.2 s one after another. PackagedAppIT keeps the launcher's defaults.
   */
  static final String CLI_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  record Run(int exit, String stdout, String stderr) {
    JsonNode json() throws Exception {
      return JSON.readTree(stdout);
    }
  }

  private static Run run(Path dir, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    // A halted JVM never deletes Lance's unpacked native library: keep it inside the test's dir.
    Path jvmTmp = Files.createDirectories(dir.resolve("jvm-tmp"));
    pb.environment().putAll(env);
    pb.environment().put("OMNIGRAPH_JAVA_OPTS", CLI_JVM_OPTIONS + " -Djava.io.tmpdir=" + jvmTmp + " "
        + env.getOrDefault("OMNIGRAPH_JAVA_OPTS", ""));
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("command finished: %s", cmd).isTrue();
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static Run run(Path dir, String... args) throws Exception {
    return run(dir, Map.of(), args);
  }

  private static List<Path> sidecars(Path graph) throws Exception {
    Path dir = graph.resolve("__recovery");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files.toList();
    }
  }

  private static Path graph(Path dir) throws Exception {
    Path schema = dir.resolve("social.pg");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/social.pg"), schema);
    Path graph = dir.resolve("g");
    Run init = run(dir, "init", "--schema", schema.toString(), graph.toString());
    assertThat(init.exit()).as(init.stderr()).isZero();
    return graph;
  }

  @Test
  void afterAKilledLoadTheSnapshotStillServesAndTheNextWriteHeals(@TempDir Path dir) throws Exception {
    Path g = graph(dir);
    Path first = dir.resolve("first.ndjson");
    Files.writeString(first, "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n");
    assertThat(run(dir, "load", "--data", first.toString(), "--store", g.toString()).exit()).isZero();
    Run before = run(dir, "snapshot", "--json", "--store", g.toString());

    Path second = dir.resolve("second.ndjson");
    Files.writeString(second, "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"
        + "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}\n");
    Run killed = run(dir, Map.of("OMNIGRAPH_JAVA_OPTS",
        dev.omnigraph.util.FailpointAgent.javaOption(dir, "write.after_table_commit=exit")),
        "load", "--data", second.toString(), "--store", g.toString());
    assertThat(killed.exit()).as(killed.stderr()).isEqualTo(137);
    assertThat(sidecars(g)).hasSize(1);

    Run snapshot = run(dir, "snapshot", "--json", "--store", g.toString());
    assertThat(snapshot.exit()).as(snapshot.stderr()).isZero();
    assertThat(snapshot.json()).isEqualTo(before.json());

    Path third = dir.resolve("third.ndjson");
    Files.writeString(third, "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n");
    Run healed = run(dir, "load", "--data", third.toString(), "--store", g.toString());
    assertThat(healed.exit()).as(healed.stderr()).isZero();
    assertThat(sidecars(g)).isEmpty();
    Path queries = dir.resolve("q.gq");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/social.gq"), queries);
    Run everyone = run(dir, "query", "everyone", "--query", queries.toString(), "--store", g.toString());
    assertThat(everyone.exit()).as(everyone.stderr()).isZero();
    List<String> names = new ArrayList<>();
    everyone.json().get("rows").forEach(r -> names.add(r.get("p.name").asText()));
    assertThat(names).containsExactlyInAnyOrder("ann", "cy");
    assertThat(run(dir, "query", "founded", "--query", queries.toString(), "--store", g.toString()).json()
        .get("row_count").asInt()).isZero();
  }

  @Test
  void queriesReadTheHeadAnOlderCommitAndPrintATable(@TempDir Path dir) throws Exception {
    Path g = graph(dir);
    Path data = dir.resolve("social.ndjson");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/social.ndjson"), data);
    assertThat(run(dir, "load", "--data", data.toString(), "--store", g.toString()).exit()).isZero();
    Path queries = dir.resolve("social.gq");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/social.gq"), queries);
    String loaded = run(dir, "commit", "list", "--json", "--store", g.toString()).json().get("commits").get(0)
        .get("graph_commit_id").asText();
    Run mutate = run(dir, "mutate", "add_person", "--query", queries.toString(), "--params", "{\"name\":\"zed\"}",
        "--store", g.toString());
    assertThat(mutate.exit()).as(mutate.stderr()).isZero();

    Run head = run(dir, "query", "friends", "--query", queries.toString(), "--params", "{\"name\":\"alice\"}",
        "--store", g.toString());
    assertThat(head.exit()).as(head.stderr()).isZero();
    JsonNode out = head.json();
    assertThat(out.get("query_name").asText()).isEqualTo("friends");
    assertThat(out.get("target").get("branch").asText()).isEqualTo("main");
    assertThat(out.get("columns").toString()).isEqualTo("[\"f.name\"]");
    assertThat(out.get("rows").toString()).isEqualTo("[{\"f.name\":\"bob\"},{\"f.name\":\"carol\"}]");
    assertThat(out.get("row_count").asInt()).isEqualTo(2);

    Run then = run(dir, "query", "everyone", "--query", queries.toString(), "--commit", loaded, "--store",
        g.toString());
    assertThat(then.json().get("row_count").asInt()).isEqualTo(5);
    assertThat(then.json().get("graph_commit_id").asText()).isEqualTo(loaded);
    assertThat(run(dir, "query", "everyone", "--query", queries.toString(), "--store", g.toString()).json()
        .get("row_count").asInt()).isEqualTo(6);

    Run table = run(dir, "query", "per_company", "--query", queries.toString(), "--format", "table", "--store",
        g.toString());
    assertThat(table.stdout()).startsWith("company | n | avg_age").contains("acme    | 2 | 27.5").endsWith("(2 rows)\n");

    // Export streams the head as load-format NDJSON; a second graph loads it back unchanged.
    Path dump = dir.resolve("dump.ndjson");
    Run export = run(dir, "export", "--output", dump.toString(), "--progress", "--store", g.toString());
    assertThat(export.exit()).as(export.stderr()).isZero();
    assertThat(export.stderr()).contains("exported").contains("done");
    assertThat(Files.readAllLines(dump)).hasSize(16);
    Path copy = dir.resolve("copy");
    assertThat(run(dir, "init", "--schema", dir.resolve("social.pg").toString(), copy.toString()).exit()).isZero();
    Run reload = run(dir, "load", "--data", dump.toString(), "--progress", "--store", copy.toString());
    assertThat(reload.exit()).as(reload.stderr()).isZero();
    assertThat(reload.stderr())
        .containsPattern("read 16 lines, [0-9.]+ / [0-9.]+ MiB \\(100%\\)(, [0-9.]+ lines/s)?(, ETA [0-9]+ s)?, done");
    for (String q : List.of("per_company", "everyone", "older_friends")) {
      assertThat(run(dir, "query", q, "--query", queries.toString(), "--store", copy.toString()).json().get("rows"))
          .isEqualTo(run(dir, "query", q, "--query", queries.toString(), "--store", g.toString()).json().get("rows"));
    }

    Run bad = run(dir, "query", "nope", "--query", queries.toString(), "--store", g.toString());
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.stderr()).contains("nope");
  }

  /**
   * Issue 15, as a new user would: init with one schema, load data, add a property and a type with
   * {@code schema apply} (no export, no re-init), load rows using them, and query the new head and
   * the commit before the apply, each with the schema it was written under.
   */
  @Test
  void aSchemaEvolvesInPlaceAndOldCommitsStillRead(@TempDir Path dir) throws Exception {
    Path g = graph(dir);
    Path data = dir.resolve("social.ndjson");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/social.ndjson"), data);
    assertThat(run(dir, "load", "--data", data.toString(), "--store", g.toString()).exit()).isZero();
    String before = run(dir, "commit", "list", "--json", "--store", g.toString()).json().get("commits").get(0)
        .get("graph_commit_id").asText();
    Path desired = dir.resolve("social-v2.pg");
    Files.writeString(desired, Files.readString(dir.resolve("social.pg"))
        .replace("  founded: Date?\n", "  founded: Date?\n  city: String?\n")
        + "\nnode City {\n  name: String @key\n  population: I64?\n}\n");

    Run plan = run(dir, "schema", "plan", "--schema", desired.toString(), "--store", g.toString());
    assertThat(plan.exit()).as(plan.stderr()).isZero();
    assertThat(plan.stdout()).contains("supported: yes").contains("add node type 'City'")
        .contains("add property 'Company.city'");
    Run apply = run(dir, "schema", "apply", "--schema", desired.toString(), "--store", g.toString());
    assertThat(apply.exit()).as(apply.stderr()).isZero();
    assertThat(apply.stdout()).contains("applied: yes");

    Path more = dir.resolve("more.ndjson");
    Files.writeString(more, "{\"type\":\"City\",\"data\":{\"name\":\"oslo\",\"population\":700000}}\n"
        + "{\"type\":\"Company\",\"data\":{\"name\":\"fjord\",\"city\":\"oslo\"}}\n");
    Run load = run(dir, "load", "--data", more.toString(), "--store", g.toString());
    assertThat(load.exit()).as(load.stderr()).isZero();

    Path queries = dir.resolve("v2.gq");
    Files.writeString(queries, """
        query located() {
          match { $c: Company  $c.city = "oslo" }
          return { $c.name, $c.city }
        }
        query companies() {
          match { $c: Company }
          return { $c.name }
          order { $c.name asc }
        }
        """);
    Run now = run(dir, "query", "located", "--query", queries.toString(), "--store", g.toString());
    assertThat(now.exit()).as(now.stderr()).isZero();
    assertThat(now.json().get("rows").toString()).isEqualTo("[{\"c.name\":\"fjord\",\"c.city\":\"oslo\"}]");
    Run then = run(dir, "query", "companies", "--query", queries.toString(), "--commit", before, "--store",
        g.toString());
    assertThat(then.exit()).as(then.stderr()).isZero();
    assertThat(then.json().get("rows").toString()).doesNotContain("fjord");
    Run old = run(dir, "query", "located", "--query", queries.toString(), "--commit", before, "--store",
        g.toString());
    assertThat(old.exit()).as("the commit before the apply has no Company.city").isNotZero();
    assertThat(run(dir, "schema", "show", "--store", g.toString()).stdout()).contains("node City");
  }
}
