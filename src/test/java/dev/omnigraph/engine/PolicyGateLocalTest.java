package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.Forbidden;
import dev.omnigraph.engine.policy.Policy;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The engine gate (issue 34 item 3) on a real local graph: every writer and read asks the installed
 * gate at its head, before anything is prepared, so a denied write leaves the same head and no sidecar.
 */
class PolicyGateLocalTest extends AbstractGraphFixture {

  static final String E2E = dev.omnigraph.engine.policy.E2eCases.POLICY;
  private static final String GQ = "query add($name: String) { insert Person { name: $name } }";
  private static final Optional<String> ANDREW = Optional.of("act-andrew");
  private static final Optional<String> BRUNO = Optional.of("act-bruno");

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("policy-gate"));
  }

  @Override
  protected void buildTemplate(Omnigraph template) {
    template.load("main", new StringReader(person("Ada", 36)), LoadMode.MERGE, Optional.of("act-test"));
  }

  private String head(String branch) {
    return graph.commits(branch, CommitPage.parse(null, null), ANDREW).commits().get(0).graphCommitId();
  }

  private com.fasterxml.jackson.databind.JsonNode name(String n) {
    return new ObjectMapper().createObjectNode().put("name", n);
  }

  private void assertNothingLeft(String branch, String head) throws Exception {
    assertThat(head(branch)).isEqualTo(head);
    assertThat(graph.pendingRecovery()).isEmpty();
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      assertThat(storage.list(dev.omnigraph.recovery.SidecarStore.PREFIX)).isEmpty();
    }
  }

  @Test
  void aDeniedWriteLeavesTheSameHeadAndNoSidecar() throws Exception {
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    graph.gatedBy(PolicyGate.enforcing(Policy.parse(E2E, "e2e.yaml")));
    String mainHead = head("main");

    assertThatThrownBy(() -> graph.mutate("main", GQ, "add", name("Bob"), BRUNO, Optional.empty()))
        .isInstanceOfSatisfying(Forbidden.class, f -> {
          assertThat(f.action()).isEqualTo("change");
          assertThat(f.branch()).contains("main");
          assertThat(f.getMessage()).isEqualTo("policy denied action 'change' on branch 'main' for actor 'act-bruno'");
        });
    assertThatThrownBy(() -> graph.load("main", new StringReader(person("Cy", 1)), LoadMode.MERGE, BRUNO))
        .isInstanceOf(Forbidden.class);
    assertNothingLeft("main", mainHead);

    // The feature branch is unprotected: team writes there; merging into protected main is the admins'.
    graph.mutate("feature", GQ, "add", name("Bob"), BRUNO, Optional.empty());
    String featureHead = head("feature");
    assertThatThrownBy(() -> graph.branchMerge("feature", "main", false, BRUNO))
        .isInstanceOfSatisfying(Forbidden.class, f -> assertThat(f.getMessage()).isEqualTo(
            "policy denied action 'branch_merge' on branch 'feature' targeting branch 'main' for actor 'act-bruno'"));
    assertNothingLeft("main", mainHead);
    assertThat(head("feature")).isEqualTo(featureHead);
    assertThat(graph.branchMerge("feature", "main", false, ANDREW).outcome()).isNotNull();
    assertThat(head("main")).isNotEqualTo(mainHead);
    graph.gatedBy(PolicyGate.OPEN);
    assertThat(rows("main", "Person")).containsOnlyKeys("Ada", "Bob");
  }

  @Test
  void everyEntryAsksTheGateAndNoActorFailsClosed() {
    graph.gatedBy(PolicyGate.enforcing(Policy.parse(E2E, "e2e.yaml")));
    // A call site that passes no actor is refused under a policy, reads included.
    assertThatThrownBy(() -> graph.snapshot("main")).isInstanceOf(Forbidden.class)
        .hasMessage("action 'read' on branch 'main' denied: a policy is installed and no actor was named (CLI: --as"
            + " ACTOR)");
    assertThatThrownBy(() -> graph.branchList()).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.snapshot("main", Optional.of("act-stranger"))).isInstanceOf(Forbidden.class);
    assertThat(graph.snapshot("main", BRUNO).graphBranch()).isEqualTo("main");
    assertThat(graph.query(Optional.empty(), Optional.empty(), "query q() { match { $p: Person } return { $p.name } }",
        "q", null, dev.omnigraph.api.ReadSettings.fromSystemProperties(), BRUNO).rows()).hasSize(1);
    // Not granted by the e2e policy to anyone: export, schema apply, branch create/delete, maintenance.
    assertThatThrownBy(() -> graph.export(Optional.empty(), java.util.List.of(), ANDREW))
        .isInstanceOfSatisfying(Forbidden.class, f -> assertThat(f.action()).isEqualTo("export"));
    assertThatThrownBy(() -> graph.schemaApply(AbstractGraphEngineTest.schemaText(), false, ANDREW))
        .isInstanceOfSatisfying(Forbidden.class, f -> assertThat(f.targetBranch()).contains("main"));
    assertThatThrownBy(() -> graph.branchCreate("x", "main", ANDREW))
        .isInstanceOfSatisfying(Forbidden.class, f -> assertThat(f.action()).isEqualTo("branch_create"));
    assertThatThrownBy(() -> graph.branchDelete("x", ANDREW)).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.ensureIndices("main", BRUNO)).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.optimize("main", ANDREW)).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.cleanup(true, ANDREW))
        .isInstanceOfSatisfying(Forbidden.class, f -> assertThat(f.action()).isEqualTo("admin"));
    assertThatThrownBy(() -> graph.repair(false, ANDREW)).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.recover(ANDREW)).isInstanceOf(Forbidden.class);
    // The service's own recovery (its reconciler) is not an actor's request.
    assertThat(graph.recover()).isEmpty();
  }

  @Test
  void defaultDenyReadsOnly() {
    graph.gatedBy(PolicyGate.DEFAULT_DENY);
    assertThat(graph.branchList(BRUNO).branches()).containsExactly("main");
    assertThat(graph.commits("main", CommitPage.parse(null, null), BRUNO).commits()).isNotEmpty();
    assertThatThrownBy(() -> graph.mutate("main", GQ, "add", name("Bob"), BRUNO, Optional.empty()))
        .isInstanceOf(Forbidden.class).hasMessageContaining("default-deny");
    assertThatThrownBy(() -> graph.export(Optional.empty(), java.util.List.of(), BRUNO)).isInstanceOf(Forbidden.class);
    assertThatThrownBy(() -> graph.branchCreate("x", (String) null, BRUNO)).isInstanceOf(Forbidden.class);
  }

  /** Beyond the reference: agent-p reads and exports only Person; agent-w changes only Person. */
  static final String SCOPED = """
      version: 1
      groups:
        readers: [agent-p]
        writers: [agent-w]
        auditors: [act-andrew]
      rules:
        - id: auditors-read
          allow: { actors: { group: auditors }, actions: [read], branch_scope: any }
        - id: p-reads-person
          allow: { actors: { group: readers }, actions: [read, export], branch_scope: any, types: [Person] }
        - id: w-changes-person
          allow: { actors: { group: writers }, actions: [read, change], branch_scope: any, types: [Person] }
      """;
  private static final Optional<String> P = Optional.of("agent-p");
  private static final Optional<String> W = Optional.of("agent-w");
  private static final String PEOPLE = "query people() { match { $p: Person } return { $p.name } order { $p.name } }";
  private static final String FRIENDS = "query friends() { match { $p: Person  $p knows $f } return { $f.name } }";
  private static final String PAIR = "query pair($a: String, $b: String) { insert Person { name: $a }"
      + " insert Person { name: $b } insert Knows { from: $a, to: $b } }";
  private static final String FORGET = "query forget($name: String) { delete Person where name = $name }";

  @Test
  void typeScopesRefuseQueriesMutationsAndLoadLinesAndFilterExportAndChanges() throws Exception {
    load("main", LoadMode.MERGE, person("Bob", 40), "{\"edge\":\"Knows\",\"from\":\"Ada\",\"to\":\"Bob\"}");
    String setup = head("main");
    graph.gatedBy(PolicyGate.enforcing(Policy.parse(SCOPED, "scoped.yaml")));
    com.fasterxml.jackson.databind.node.ObjectNode none = new ObjectMapper().createObjectNode();

    // Reads: typed from the checked query, refused before it runs when it traverses Knows.
    assertThat(graph.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), PEOPLE, "people", none,
        dev.omnigraph.api.ReadSettings.fromSystemProperties(), P).rowCount()).isEqualTo(2);
    assertThatThrownBy(() -> graph.query(Optional.of(dev.omnigraph.api.BranchName.existing("main")), Optional.empty(), FRIENDS, "friends", none,
        dev.omnigraph.api.ReadSettings.fromSystemProperties(), P))
        .isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class, f -> {
          assertThat(f.type()).isEqualTo("Knows");
          assertThat(f.getMessage()).isEqualTo("policy denied action 'read' on branch 'main' for actor 'agent-p':"
              + " type 'Knows' is outside its scope");
        });

    // Export: every type streams only Person (2 rows); naming Knows is refused.
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    dev.omnigraph.read.GraphExport export = graph.export(Optional.empty(), java.util.List.of(), P);
    assertThat(export.typeNames()).containsExactly("Person");
    export.writeTo(out);
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList()).hasSize(2)
        .allMatch(l -> l.startsWith("{\"type\":\"Person\""));
    assertThatThrownBy(() -> graph.export(Optional.empty(), java.util.List.of("Knows"), P))
        .isInstanceOf(dev.omnigraph.api.TypeForbidden.class);

    // The change feed leaves rows of other types out: the setup commit inserted Bob and Ada->Bob.
    assertThat(graph.commitChanges(setup, dev.omnigraph.api.ChangesPage.FIRST, P).changes())
        .extracting(c -> c.type().name() + ":" + c.id()).containsExactly("Person:Bob");
    assertThat(graph.commitChanges(setup, dev.omnigraph.api.ChangesPage.FIRST, W).changes()).hasSize(1);
    assertThatThrownBy(() -> graph.changes("main", Optional.empty(), Optional.of("beginning"), Optional.empty(),
        dev.omnigraph.api.ChangesPage.parse(null, null, java.util.List.of(), java.util.List.of("knows"),
            java.util.List.of()), P))
        .isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class, f -> assertThat(f.type()).isEqualTo("Knows"));

    // Writes: a mutation inserting Knows, a node delete that cascades to Knows, a load with a Knows
    // line are refused before anything is prepared; nothing is left.
    String mainHead = head("main");
    assertThatThrownBy(() -> graph.mutate("main", PAIR, "pair", none.deepCopy().put("a", "X").put("b", "Y"), W,
        Optional.empty())).isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class,
            f -> assertThat(f.type()).isEqualTo("Knows"));
    assertThatThrownBy(() -> graph.mutate("main", FORGET, "forget", name("Bob"), W, Optional.empty()))
        .isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class, f -> {
          assertThat(f.type()).isEqualTo("Knows");
          assertThat(f.action()).isEqualTo("change");
        });
    assertThatThrownBy(() -> graph.load("main", new StringReader(person("Cy", 1) + "\n"
        + "{\"edge\":\"Knows\",\"from\":\"Cy\",\"to\":\"Ada\"}\n" + person("Di", 2)), LoadMode.MERGE, W))
        .isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class, f -> {
          assertThat(f.line()).hasValue(2);
          assertThat(f.getMessage()).isEqualTo("line 2: policy denied action 'change' on branch 'main' for actor"
              + " 'agent-w': type 'Knows' is outside its scope");
        });
    assertNothingLeft("main", mainHead);
    // Within the scope the same writer writes.
    graph.load("main", new StringReader(person("Cy", 1)), LoadMode.MERGE, W);
    assertThat(head("main")).isNotEqualTo(mainHead);
  }
}
