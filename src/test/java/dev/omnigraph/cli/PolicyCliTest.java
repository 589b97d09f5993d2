package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.policy.E2eCases;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy tooling ({@code policy validate|test|explain}) and the local CLI gate: a {@code --store}
 * graph with {@code --policy} runs the same e2e table as the HTTP acceptance ({@link E2eCases}) with
 * {@code --as}, and refuses a command that names no actor.
 */
class PolicyCliTest {

  @TempDir Path dir;

  @Test
  void validateTestAndExplain() throws Exception {
    Path policy = Files.writeString(dir.resolve("p.yaml"), E2eCases.POLICY);
    Run ok = CliHarness.run("policy", "validate", policy.toString());
    assertThat(ok.exit()).isZero();
    assertThat(ok.out()).isEqualTo("policy " + policy + ": valid; 2 groups, 2 actors, 3 rules, protected branches"
        + " [main]\n");
    Path bad = Files.writeString(dir.resolve("bad.yaml"), E2eCases.POLICY.replace(
        "actions: [branch_merge]", "actions: [branch_merge]\n      branch_scope: any"));
    Run refused = CliHarness.run("policy", "validate", bad.toString());
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("error: policy " + bad + ":17: rule 'admins-promote': may use branch_scope or"
        + " target_branch_scope, not both\n");

    Path cases = Files.writeString(dir.resolve("cases.yaml"), """
        version: 1
        cases:
          - id: allow-feature-write
            actor: act-andrew
            action: change
            branch: feature
            expect: allow
          - id: deny-main-write
            actor: act-bruno
            action: change
            branch: main
            expect: deny
        """);
    Run tests = CliHarness.run("policy", "test", "--policy", policy.toString(), "--tests", cases.toString());
    assertThat(tests.exit()).isZero();
    assertThat(tests.out()).isEqualTo("ok   allow-feature-write: expected allow, got allow (rule team-write)\n"
        + "ok   deny-main-write: expected deny, got deny\n2 passed, 0 failed\n");
    Path wrong = Files.writeString(dir.resolve("wrong.yaml"), Files.readString(cases).replace("expect: deny",
        "expect: allow"));
    Run failing = CliHarness.run("policy", "test", "--policy", policy.toString(), "--tests", wrong.toString());
    assertThat(failing.exit()).isEqualTo(1);
    assertThat(failing.out()).contains("FAIL deny-main-write: expected allow, got deny").endsWith("1 passed, 1 failed\n");

    Run explain = CliHarness.run("policy", "explain", "--policy", policy.toString(), "--actor", "act-andrew",
        "--action", "branch_merge", "--branch", "feature", "--target-branch", "main");
    assertThat(explain.out()).isEqualTo("allow (rule admins-promote): policy allowed action 'branch_merge' for actor"
        + " 'act-andrew'\n");
    Run deny = CliHarness.run("policy", "explain", "--policy", policy.toString(), "--actor", "act-bruno",
        "--action", "change", "--branch", "main");
    assertThat(deny.out()).isEqualTo("deny (no rule allows it): policy denied action 'change' on branch 'main' for"
        + " actor 'act-bruno'\n");
  }

  /** A new local graph of graphs/people.pg at {@code root}, open read-write and ungated. */
  private static Omnigraph people(Path root) throws java.io.IOException {
    String schema = new String(PolicyCliTest.class.getResourceAsStream("/graphs/people.pg").readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
    return Omnigraph.init(StorageConfig.local(root), schema, Optional.of("setup"));
  }

  @Test
  void aLocalGraphWithAPolicyRunsTheE2eTableAndRefusesANamelessCommand() throws Exception {
    Path root = dir.resolve("g");
    try (Omnigraph g = people(root)) {
      g.branchCreate("feature", "main", Optional.of("setup"));
    }
    Path policy = Files.writeString(dir.resolve("p.yaml"), E2eCases.POLICY);
    Path gq = Files.writeString(dir.resolve("add.gq"), "query add($name: String) { insert Person { name: $name } }");
    String store = root.toString();
    List<String> outcomes = new ArrayList<>();
    int n = 0;
    for (E2eCases.Case c : E2eCases.CASES) {
      List<String> args = new ArrayList<>(switch (c.op()) {
        case MUTATE_MAIN, MUTATE_FEATURE -> List.of("mutate", "add", "--query", gq.toString(), "--params",
            "{\"name\":\"P" + n++ + "\"}", "--branch", c.op() == E2eCases.Op.MUTATE_MAIN ? "main" : "feature");
        case MERGE_INTO_MAIN -> List.of("branch", "merge", "feature", "--into", "main");
      });
      args.addAll(List.of("--store", store, "--policy", policy.toString(), "--as", c.actor()));
      Run r = CliHarness.run(args.toArray(String[]::new));
      outcomes.add(c.actor() + " " + c.op() + " " + (r.exit() == 0 ? "allowed" : r.exit() + " " + r.err().strip()));
    }
    assertThat(outcomes).containsExactly(
        "act-bruno MUTATE_MAIN 1 error: policy denied action 'change' on branch 'main' for actor 'act-bruno'",
        "act-bruno MUTATE_FEATURE allowed",
        "act-bruno MERGE_INTO_MAIN 1 error: policy denied action 'branch_merge' on branch 'feature' targeting branch"
            + " 'main' for actor 'act-bruno'",
        "act-andrew MERGE_INTO_MAIN allowed");
    Run nameless = CliHarness.run("snapshot", "--store", store, "--policy", policy.toString());
    assertThat(nameless.exit()).isEqualTo(1);
    assertThat(nameless.err()).contains("a policy is installed and no actor was named (CLI: --as ACTOR)");
    // Without a policy the local root is Open, as in the reference.
    assertThat(CliHarness.run("snapshot", "--store", store).exit()).isZero();
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_ONLY)) {
      assertThat(g.snapshot("main").graphManifestVersion()).isPositive();
    }
  }

  @Test
  void aLocalGraphRunsTheScopedTableAndExportsOnlyTheAllowedTypes() throws Exception {
    Path root = dir.resolve("scoped");
    try (Omnigraph g = people(root)) {
      g.load("main", new java.io.StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"Ada\"}}\n"
          + "{\"type\":\"Person\",\"data\":{\"name\":\"Bob\"}}\n{\"edge\":\"Knows\",\"from\":\"Ada\",\"to\":\"Bob\"}\n"),
          dev.omnigraph.api.LoadMode.MERGE, Optional.of("setup"));
    }
    Path policy = Files.writeString(dir.resolve("scoped.yaml"), E2eCases.SCOPED_POLICY);
    Path gq = Files.writeString(dir.resolve("scoped.gq"), E2eCases.SCOPED_QUERIES);
    Path withKnows = Files.writeString(dir.resolve("with-knows.ndjson"), E2eCases.LOAD_WITH_KNOWS);
    Path person = Files.writeString(dir.resolve("person.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"Di\"}}\n");
    String store = root.toString();
    List<String> outcomes = new ArrayList<>();
    for (E2eCases.ScopedCase c : E2eCases.SCOPED_CASES) {
      List<String> args = new ArrayList<>(switch (c.op()) {
        case QUERY_PERSON -> List.of("query", "people", "--query", gq.toString());
        case QUERY_KNOWS -> List.of("query", "friends", "--query", gq.toString());
        case LOAD_WITH_KNOWS -> List.of("load", "--data", withKnows.toString(), "--mode", "merge");
        case LOAD_PERSON -> List.of("load", "--data", person.toString(), "--mode", "merge");
      });
      args.addAll(List.of("--store", store, "--policy", policy.toString(), "--as", c.actor()));
      Run r = CliHarness.run(args.toArray(String[]::new));
      assertThat(r.exit() == 0).as(c + ": " + r.err()).isEqualTo(c.allowed());
      outcomes.add(c.actor() + " " + c.op() + " " + (r.exit() == 0 ? "allowed" : r.exit() + " " + r.err().strip()));
    }
    assertThat(outcomes).containsExactly(
        "agent-p QUERY_PERSON allowed",
        "agent-p QUERY_KNOWS 1 error: policy denied action 'read' on branch 'main' for actor 'agent-p': type 'Knows'"
            + " is outside its scope",
        "act-bruno QUERY_KNOWS allowed",
        "agent-w LOAD_WITH_KNOWS 1 error: " + E2eCases.LOAD_REFUSAL,
        "agent-p LOAD_PERSON 1 error: policy denied action 'change' on branch 'main' for actor 'agent-p'",
        "agent-w LOAD_PERSON allowed");
    // The export of a Person-only reader: exactly the three Person rows (Cy's refused load left nothing).
    Run export = CliHarness.run("export", "--store", store, "--policy", policy.toString(), "--as", "agent-p");
    assertThat(export.exit()).as(export.err()).isZero();
    assertThat(export.out().lines().map(l -> l.replaceAll(".*\"name\":\"([A-Za-z]+)\".*", "$1")).toList())
        .containsExactly("Ada", "Bob", "Di");
    assertThat(export.out().lines()).allMatch(l -> l.startsWith("{\"type\":\"Person\""));
    Run explain = CliHarness.run("policy", "explain", "--policy", policy.toString(), "--actor", "agent-p", "--action",
        "read", "--branch", "main", "--types", "Person,Knows");
    assertThat(explain.out()).isEqualTo("deny (no rule allows it): policy denied action 'read' on branch 'main' for"
        + " actor 'agent-p': type 'Knows' is outside its scope\n");
    Run allow = CliHarness.run("policy", "explain", "--policy", policy.toString(), "--actor", "agent-p", "--action",
        "invoke_query", "--query", "people");
    assertThat(allow.out()).isEqualTo("allow (rule readers-invoke): policy allowed action 'invoke_query' for actor"
        + " 'agent-p'\n");
  }
}
