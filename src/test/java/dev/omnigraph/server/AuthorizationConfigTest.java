package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.engine.policy.E2eCases;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime states and the fail-closed startup refusals of {@link Authorization} (issue 34 item 2). */
class AuthorizationConfigTest {

  @TempDir Path dir;

  @Test
  void statesFollowTokensAndPolicies() throws Exception {
    Path policy = Files.writeString(dir.resolve("p.yaml"), E2eCases.POLICY);
    assertThat(new Authorization(Optional.empty(), Map.of(), false).forGraph("g").state())
        .isEqualTo(PolicyGate.State.OPEN);
    Authorization defaultDeny = new Authorization(Optional.empty(), Map.of(), true);
    assertThat(defaultDeny.forGraph("g").state()).isEqualTo(PolicyGate.State.DEFAULT_DENY);
    assertThat(defaultDeny.forServer().state()).isEqualTo(PolicyGate.State.DEFAULT_DENY);
    Authorization perGraph = new Authorization(Optional.empty(), Map.of("a", policy), true);
    assertThat(perGraph.forGraph("a").state()).isEqualTo(PolicyGate.State.POLICY_ENABLED);
    assertThat(perGraph.forGraph("b").state()).isEqualTo(PolicyGate.State.DEFAULT_DENY);
    assertThat(perGraph.describe(List.of("a", "b"))).isEqualTo("authorization: server DefaultDeny (tokens, no"
        + " policy: only read); graph a PolicyEnabled (" + policy + ", 2 actors, 3 rules); graph b DefaultDeny"
        + " (tokens, no policy: only read)");
    Authorization server = new Authorization(Optional.of(policy), Map.of(), true);
    assertThat(server.forGraph("b").policy()).isPresent();
  }

  @Test
  void startupRefusesWhatWouldNotFailClosed() throws Exception {
    Path policy = Files.writeString(dir.resolve("p.yaml"), E2eCases.POLICY);
    assertThatThrownBy(() -> new Authorization(Optional.of(policy), Map.of(), false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("omnigraph.policy.file (" + policy + ") is set but no bearer token is configured")
        .hasMessageContaining("Configure tokens");
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "version: 1\ngroups:\n  team: [a\n");
    assertThatThrownBy(() -> new Authorization(Optional.of(broken), Map.of(), true))
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("refusing to start: policy " + broken + ":")
        .hasMessageContaining("omnigraph policy validate FILE");
    Path serverRules = Files.writeString(dir.resolve("list.yaml"), "version: 1\ngroups:\n  a: [x]\nrules:\n"
        + "  - id: list\n    allow: { actors: { group: a }, actions: [graph_list] }\n");
    assertThatThrownBy(() -> new Authorization(Optional.empty(), Map.of("g", serverRules), true))
        .hasMessageContaining("rule 'list': uses server-scoped action graph_list in a graph's policy file");
    Authorization typo = new Authorization(Optional.empty(), Map.of("gg", policy), true);
    assertThatThrownBy(() -> typo.requireServed(List.of("g")))
        .hasMessage("refusing to start: omnigraph.graphs.gg.policy-file names graph 'gg', which this server does not"
            + " serve (serving: g)");
  }

  @Test
  void theGraphPolicyKeyReadsBothSpellings() {
    Map<String, String> values = Map.of("omnigraph.graphs.a.policy-file", "/p/a.yaml",
        "OMNIGRAPH_GRAPHS_B_POLICY_FILE", "/p/b.yaml");
    assertThat(KeyedConfig.read(values.keySet(), values::get, "omnigraph.graphs", "policy-file", java.util.Set.of()))
        .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("a", "/p/a.yaml", "b", "/p/b.yaml")));
  }

  @Test
  void everyDecisionOfAnObservedGateIsHeardAndAPreviewIsNot() throws Exception {
    Path policy = Files.writeString(dir.resolve("p.yaml"), E2eCases.POLICY);
    List<String> heard = new java.util.ArrayList<>();
    PolicyGate gate = PolicyGate.enforcing(dev.omnigraph.engine.policy.Policy.load(policy))
        .observedBy((action, d) -> heard.add(action + "=" + d.allowed()));
    gate.decide(Optional.of("act-bruno"), PolicyAction.CHANGE, Optional.of("feature"), Optional.empty());
    assertThatThrownBy(() -> gate.check(Optional.of("act-bruno"), PolicyAction.CHANGE, Optional.of("main"),
        Optional.empty())).isInstanceOf(dev.omnigraph.api.Forbidden.class);
    // No actor under a policy: refused, and heard as a denial.
    assertThatThrownBy(() -> gate.check(Optional.empty(), PolicyAction.READ, Optional.of("main"), Optional.empty()))
        .isInstanceOf(dev.omnigraph.api.Forbidden.class);
    assertThat(heard).containsExactly("change=true", "change=false", "read=false");
    AccessOutput.of("g", gate, Optional.of("act-bruno"), "main");
    assertThat(heard).hasSize(3);
  }

  @Test
  void anOpenGraphAllowsEveryActionToNobody() {
    AccessOutput open = AccessOutput.of("g", PolicyGate.OPEN, Optional.empty(), "main");
    assertThat(open.actorId()).isNull();
    assertThat(open.state()).isEqualTo("open");
    assertThat(open.actions()).hasSize(9).containsOnlyKeys("read", "export", "change", "schema_apply",
        "branch_create", "branch_delete", "branch_merge", "invoke_query", "admin").allSatisfy((a, ok) ->
        assertThat(ok).as(a).isTrue());
  }
}
