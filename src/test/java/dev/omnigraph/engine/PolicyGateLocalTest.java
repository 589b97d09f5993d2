package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.Forbidden;
import dev.omnigraph.policy.Policy;
import dev.omnigraph.policy.PolicyGate;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.write.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The engine gate (issue 34 item 3) on a real local graph: every writer and read asks the installed
 * gate at its head, before anything is prepared, so a denied write leaves the same head and no sidecar.
 */
class PolicyGateLocalTest extends AbstractGraphFixture {

  static final String E2E = dev.omnigraph.policy.E2eCases.POLICY;
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
        "q", null, dev.omnigraph.read.ReadSettings.fromSystemProperties(), BRUNO).rows()).hasSize(1);
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
    assertThatThrownBy(() -> graph.branchCreate("x", null, BRUNO)).isInstanceOf(Forbidden.class);
  }
}
