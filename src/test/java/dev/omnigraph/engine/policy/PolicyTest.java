package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.NameScope;
import dev.omnigraph.api.policy.PolicyRefused;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.api.policy.PolicyAction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.Forbidden;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The policy format and decisions, with the reference's own cases ({@code crates/omnigraph-policy}
 * unit tests and the CLI's declarative {@code POLICY_TESTS_YAML}), rewritten here.
 */
class PolicyTest {

  /** The reference's e2e policy (shared with the HTTP and CLI acceptance). */
  static final String E2E = E2eCases.POLICY;

  private static Policy policy(String yaml) {
    return Policy.parse(yaml, "test.yaml");
  }

  private static PolicyRefused refused(String yaml) {
    return (PolicyRefused) org.assertj.core.api.Assertions.catchThrowable(() -> policy(yaml));
  }

  private static Optional<String> b(String branch) {
    return Optional.ofNullable(branch);
  }

  @Test
  void branchAndTargetRulesDecideAndNameTheRule() {
    Policy p = policy("""
        version: 1
        groups:
          team: [act-andrew, act-bruno]
          admins: [act-andrew]
        protected_branches: [main]
        rules:
          - id: team-read
            allow:
              actors: { group: team }
              actions: [read, export]
              branch_scope: any
          - id: team-write
            allow:
              actors: { group: team }
              actions: [change]
              branch_scope: unprotected
          - id: admins-promote
            allow:
              actors: { group: admins }
              actions: [branch_delete, branch_merge]
              target_branch_scope: protected
        """);
    PolicyDecision allow = p.decide("act-bruno", PolicyAction.CHANGE, b("feature"), b(null));
    assertThat(allow.allowed()).isTrue();
    assertThat(allow.ruleId()).contains("team-write");
    PolicyDecision deny = p.decide("act-bruno", PolicyAction.BRANCH_DELETE, b(null), b("main"));
    assertThat(deny.allowed()).isFalse();
    assertThat(deny.ruleId()).isEmpty();
    assertThat(deny.message()).isEqualTo(
        "policy denied action 'branch_delete' targeting branch 'main' for actor 'act-bruno'");
    PolicyDecision admin = p.decide("act-andrew", PolicyAction.BRANCH_DELETE, b(null), b("main"));
    assertThat(admin.allowed()).isTrue();
    assertThat(admin.ruleId()).contains("admins-promote");
    assertThat(p.decide("act-bruno", PolicyAction.CHANGE, b("main"), b(null)).allowed()).isFalse();
  }

  @Test
  void schemaApplyTakesTheTargetBranchScope() {
    Policy p = policy("""
        version: 1
        groups:
          admins: [act-ragnor]
        protected_branches: [main]
        rules:
          - id: admins-schema-apply
            allow:
              actors: { group: admins }
              actions: [schema_apply]
              target_branch_scope: protected
        """);
    assertThat(p.decide("act-ragnor", PolicyAction.SCHEMA_APPLY, b(null), b("main")).allowed()).isTrue();
    assertThat(p.decide("act-ragnor", PolicyAction.SCHEMA_APPLY, b(null), b("feature")).allowed()).isFalse();
  }

  @Test
  void scopesNeedABranchExceptAny() {
    Policy p = policy("""
        version: 1
        groups:
          any: [act-a]
          prot: [act-p]
        protected_branches: [main]
        rules:
          - id: any-read
            allow: { actors: { group: any }, actions: [read], branch_scope: any }
          - id: protected-read
            allow: { actors: { group: prot }, actions: [read], branch_scope: protected }
        """);
    // A graph-wide read (the branch list, a commit by id) has no branch: only `any` covers it.
    assertThat(p.decide("act-a", PolicyAction.READ, b(null), b(null)).allowed()).isTrue();
    assertThat(p.decide("act-p", PolicyAction.READ, b(null), b(null)).allowed()).isFalse();
    assertThat(p.decide("act-p", PolicyAction.READ, b("main"), b(null)).allowed()).isTrue();
    assertThat(p.decide("act-p", PolicyAction.READ, b("feature"), b(null)).allowed()).isFalse();
  }

  @Test
  void unknownActorsAreDeniedAndTheSmallestGrantingRuleIsNamed() {
    Policy p = policy("""
        version: 1
        groups:
          team: [act-a]
        rules:
          - id: z-read
            allow: { actors: { group: team }, actions: [read] }
          - id: a-read
            allow: { actors: { id: act-solo }, actions: [read, export], branch_scope: any }
          - id: b-read
            allow: { actors: { id: act-a }, actions: [read] }
        """);
    PolicyDecision d = p.decide("act-nobody", PolicyAction.READ, b("main"), b(null));
    assertThat(d.allowed()).isFalse();
    assertThat(d.message()).isEqualTo("policy denied action 'read' for unknown actor 'act-nobody'");
    assertThat(p.decide("act-a", PolicyAction.READ, b("main"), b(null)).ruleId()).contains("b-read");
    assertThat(p.decide("act-solo", PolicyAction.EXPORT, b("x"), b(null)).ruleId()).contains("a-read");
    assertThat(p.actors()).containsExactly("act-a", "act-solo");
  }

  @Test
  void graphListAndInvokeQueryAreGraphWide() {
    Policy p = policy("""
        version: 1
        groups:
          admins: [act-andrew]
          viewers: [act-bruno]
        rules:
          - id: admins-list-graphs
            allow:
              actors: { group: admins }
              actions: [graph_list]
          - id: viewers-invoke
            allow:
              actors: { group: viewers }
              actions: [invoke_query]
        """);
    assertThat(p.decide("act-andrew", PolicyAction.GRAPH_LIST, b(null), b(null)).ruleId()).contains(
        "admins-list-graphs");
    assertThat(p.decide("act-bruno", PolicyAction.GRAPH_LIST, b(null), b(null)).allowed()).isFalse();
    assertThat(p.decide("act-bruno", PolicyAction.INVOKE_QUERY, b(null), b(null)).ruleId()).contains(
        "viewers-invoke");
    assertThat(p.decide("act-andrew", PolicyAction.INVOKE_QUERY, b(null), b(null)).allowed()).isFalse();
    assertThatThrownBy(p::requireGraphScoped).isInstanceOf(PolicyRefused.class)
        .hasMessage("policy test.yaml:6: rule 'admins-list-graphs': uses server-scoped action graph_list in a"
            + " graph's policy file; move it to the server's (omnigraph.policy.file)");
  }

  @Test
  void everyActionTakesExactlyTheScopeOfTheReferenceTable() {
    // The reference's table: branch_scope for read/export/change, target_branch_scope for schema_apply and
    // the branch operations, neither for invoke_query, admin and graph_list.
    for (PolicyAction a : PolicyAction.values()) {
      String group = "  - id: r\n    allow:\n      actors: { group: g }\n      actions: [" + a + "]\n";
      String head = "version: 1\ngroups:\n  g: [act]\nrules:\n";
      boolean branchOk = List.of(PolicyAction.READ, PolicyAction.EXPORT, PolicyAction.CHANGE).contains(a);
      boolean targetOk = List.of(PolicyAction.SCHEMA_APPLY, PolicyAction.BRANCH_CREATE, PolicyAction.BRANCH_DELETE,
          PolicyAction.BRANCH_MERGE).contains(a);
      for (String scope : List.of("branch_scope", "target_branch_scope")) {
        String yaml = head + group + "      " + scope + ": any\n";
        boolean ok = scope.equals("branch_scope") ? branchOk : targetOk;
        if (ok) {
          assertThat(policy(yaml).rules()).hasSize(1);
        } else {
          PolicyRefused r = refused(yaml);
          assertThat(r).as(a + " with " + scope).isNotNull();
          assertThat(r.ruleId()).contains("r");
          assertThat(r.line()).isEqualTo(5);
          assertThat(r.getMessage()).contains("uses " + scope + " with action '" + a + "'");
        }
      }
      assertThat(policy(head + group).rules()).hasSize(1);
    }
  }

  @Test
  void refusalsNameTheRuleAndItsLine() {
    PolicyRefused dup = refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: same
            allow: { actors: { group: team }, actions: [read], branch_scope: any }
          - id: same
            allow: { actors: { group: team }, actions: [export], branch_scope: any }
        """);
    assertThat(dup.getMessage()).isEqualTo("policy test.yaml:7: rule 'same': duplicate rule id");
    assertThat(refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: bad
            allow:
              actors: { group: admins }
              actions: [read]
              branch_scope: any
        """).getMessage()).isEqualTo("policy test.yaml:5: rule 'bad': references unknown group 'admins'");
    assertThat(refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: bad
            allow:
              actors: { group: team }
              actions: [branch_merge]
              branch_scope: protected
        """).getMessage()).isEqualTo("policy test.yaml:5: rule 'bad': uses branch_scope with action"
            + " 'branch_merge', which takes target_branch_scope");
    assertThat(refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: bad
            allow:
              actors: { group: team }
              actions: [invoke_query]
              branch_scope: any
        """).getMessage()).contains("uses branch_scope with action 'invoke_query', which takes no branch scope");
    assertThat(refused("""
        version: 1
        groups:
          admins: [act-andrew]
        rules:
          - id: mixed-resource-kinds
            allow:
              actors: { group: admins }
              actions: [graph_list, read]
        """).getMessage()).contains("rule 'mixed-resource-kinds': mixes server-scoped actions");
    assertThat(refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: both
            allow: { actors: { group: team }, actions: [read], branch_scope: any, target_branch_scope: any }
        """).getMessage()).contains("not both");
    assertThat(refused("""
        version: 1
        groups:
          team: [act-andrew]
        rules:
          - id: x
            allow: { actors: { group: team }, actions: [delete_everything] }
        """).getMessage()).contains("unknown action 'delete_everything'");
  }

  @Test
  void unknownKeysAndBrokenYamlAreRefusedNotIgnored() {
    // As the reference's from_source test: a misspelt key must not widen (or narrow) a rule silently.
    assertThat(refused("version: 1\nkind: server\nrules: []\n").getMessage())
        .isEqualTo("policy test.yaml:2: unknown key 'kind' (allowed: version, groups, protected_branches, rules)");
    PolicyRefused typo = refused("""
        version: 1
        groups:
          readers: ["act-r"]
        rules:
          - id: typo-must-not-widen-access
            allow:
              actors: { group: readers }
              actions: [read]
              branch_scpoe: protected
        """);
    assertThat(typo.ruleId()).contains("typo-must-not-widen-access");
    assertThat(typo.getMessage()).contains("unknown key 'branch_scpoe'");
    assertThat(refused("version: 2\n").getMessage()).isEqualTo("policy test.yaml:1: version must be 1");
    assertThat(refused("").getMessage()).contains("the file is empty");
    PolicyRefused yaml = refused("version: 1\ngroups:\n  team: [act-a\nrules: []\n");
    assertThat(yaml.getMessage()).startsWith("policy test.yaml:").contains("not valid YAML");
    assertThat(yaml.line()).isPositive();
    assertThat(refused("version: 1\nversion: 1\n").getMessage()).contains("not valid YAML").contains("version");
    assertThat(refused("version: 1\ngroups:\n  team: []\n").getMessage()).contains("group 'team' must not be empty");
  }

  @Test
  void declarativeCasesRunAgainstAPolicy() {
    // The reference CLI's POLICY_TESTS_YAML against its POLICY_YAML (E2E here).
    PolicyTests tests = PolicyTests.parse("""
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
          - id: admin-merges-main
            actor: act-andrew
            action: branch_merge
            branch: feature
            target_branch: main
            expect: allow
          - id: wrong-expectation
            actor: act-bruno
            action: branch_merge
            branch: feature
            target_branch: main
            expect: allow
        """, "cases.yaml");
    List<PolicyTests.Result> results = tests.run(policy(E2E));
    assertThat(results).extracting(r -> r.testCase().id() + "=" + r.passed()).containsExactly(
        "allow-feature-write=true", "deny-main-write=true", "admin-merges-main=true", "wrong-expectation=false");
    assertThat(results.get(2).decision().ruleId()).contains("admins-promote");
    assertThatThrownBy(() -> PolicyTests.parse("version: 1\ncases:\n  - id: a\n    actor: x\n    action: fly\n"
        + "    expect: allow\n", "cases.yaml")).isInstanceOf(PolicyRefused.class)
        .hasMessage("policy cases.yaml:3: rule 'a': unknown action 'fly' (actions: " + PolicyAction.spellings() + ")");
  }

  @Test
  void gateStatesFailClosed() {
    Optional<String> bruno = Optional.of("act-bruno");
    assertThat(PolicyGate.OPEN.decide(Optional.empty(), PolicyAction.BRANCH_MERGE, b("a"), b("main")).allowed())
        .isTrue();
    assertThat(PolicyGate.DEFAULT_DENY.decide(bruno, PolicyAction.READ, b("main"), b(null)).allowed()).isTrue();
    for (PolicyAction a : PolicyAction.values()) {
      if (a != PolicyAction.READ) {
        assertThat(PolicyGate.DEFAULT_DENY.decide(bruno, a, b("main"), b(null)).allowed()).as(a.wireName()).isFalse();
      }
    }
    PolicyGate gate = PolicyGate.enforcing(policy(E2E));
    assertThat(gate.decide(Optional.empty(), PolicyAction.READ, b("main"), b(null)).allowed()).isFalse();
    assertThatThrownBy(() -> gate.check(bruno, PolicyAction.CHANGE, b("main"), b(null)))
        .isInstanceOfSatisfying(Forbidden.class, f -> {
          assertThat(f.action()).isEqualTo("change");
          assertThat(f.branch()).contains("main");
          assertThat(f.getMessage()).isEqualTo("policy denied action 'change' on branch 'main' for actor 'act-bruno'");
        });
    gate.check(bruno, PolicyAction.CHANGE, b("feature"), b(null));
  }

  /** Beyond the reference: a fleet where agent-p reads only Person, agent-k also Knows on feature branches. */
  static final String SCOPED = """
      version: 1
      groups:
        people: [agent-p, agent-k]
        knows: [agent-k]
      protected_branches: [main]
      rules:
        - id: people-read-person
          allow: { actors: { group: people }, actions: [read, export], branch_scope: any, types: [Person] }
        - id: knows-read-knows
          allow: { actors: { group: knows }, actions: [read], branch_scope: unprotected, types: [Knows] }
        - id: people-invoke
          allow: { actors: { group: people }, actions: [invoke_query], queries: [find_person, list_people] }
      """;

  @Test
  void typeScopesComposeAcrossRulesAndNameTheFirstTypeOutside() {
    Policy p = policy(SCOPED);
    List<String> both = List.of("Person", "Knows");
    // A rule listing types still grants the action; the types are what the call may touch.
    assertThat(p.decide("agent-p", PolicyAction.READ, b("main"), b(null)).allowed()).isTrue();
    assertThat(p.typeScope("agent-p", PolicyAction.READ, b("main"))).isEqualTo(NameScope.of(java.util.Set.of("Person")));
    PolicyDecision person = p.decide("agent-p", PolicyAction.READ, b("main"), b(null), List.of("Person"), b(null));
    assertThat(person.allowed()).isTrue();
    assertThat(person.rules()).containsExactly("people-read-person");
    PolicyDecision knows = p.decide("agent-p", PolicyAction.READ, b("main"), b(null), both, b(null));
    assertThat(knows.allowed()).isFalse();
    assertThat(knows.message()).isEqualTo(
        "policy denied action 'read' on branch 'main' for actor 'agent-p': type 'Knows' is outside its scope");
    // Two narrow rules compose on a branch both cover; on main only the Person rule applies.
    PolicyDecision composed = p.decide("agent-k", PolicyAction.READ, b("feature"), b(null), both, b(null));
    assertThat(composed.allowed()).isTrue();
    assertThat(composed.ruleId()).contains("knows-read-knows");
    assertThat(composed.rules()).containsExactly("knows-read-knows", "people-read-person");
    assertThat(p.decide("agent-k", PolicyAction.READ, b("main"), b(null), both, b(null)).allowed()).isFalse();
    assertThat(p.typeScope("agent-k", PolicyAction.READ, b("feature")))
        .isEqualTo(NameScope.of(java.util.Set.of("Knows", "Person")));
    assertThat(p.typeScopeOnAnyBranch("agent-k", PolicyAction.READ))
        .isEqualTo(NameScope.of(java.util.Set.of("Knows", "Person")));
    // No grant: no type at all. A rule without types: every type.
    assertThat(p.typeScope("agent-p", PolicyAction.CHANGE, b("feature")).covers("Person")).isFalse();
    assertThat(policy(E2E).typeScope("act-bruno", PolicyAction.CHANGE, b("feature"))).isEqualTo(NameScope.ALL);
    // Query names: only those listed, and the gate reports the type it refused.
    assertThat(p.queryScope("agent-p")).isEqualTo(NameScope.of(java.util.Set.of("find_person", "list_people")));
    assertThat(p.decide("agent-p", PolicyAction.INVOKE_QUERY, b(null), b(null), List.of(), b("find_person")).rules())
        .containsExactly("people-invoke");
    assertThat(p.decide("agent-p", PolicyAction.INVOKE_QUERY, b(null), b(null), List.of(), b("add_person"))
        .message()).isEqualTo("policy denied action 'invoke_query' for actor 'agent-p': query 'add_person' is"
            + " outside its scope");
    assertThatThrownBy(() -> PolicyGate.enforcing(p).checkTypes(b("agent-p"), PolicyAction.READ, b("main"), both))
        .isInstanceOfSatisfying(dev.omnigraph.api.TypeForbidden.class, f -> {
          assertThat(f.type()).isEqualTo("Knows");
          assertThat(f.action()).isEqualTo("read");
          assertThat(f.branch()).contains("main");
        });
    assertThat(PolicyGate.DEFAULT_DENY.typeScope(b("x"), PolicyAction.READ, b("main"))).isEqualTo(NameScope.ALL);
  }

  @Test
  void typesAndQueriesAreRefusedOnActionsTheyCannotLimit() {
    assertThat(refused("""
        version: 1
        groups:
          team: [a]
        rules:
          - id: ok
            allow: { actors: { group: team }, actions: [read], types: [Person] }
          - id: merge-types
            allow: { actors: { group: team }, actions: [change, branch_merge], types: [Person] }
        """).getMessage()).isEqualTo("policy test.yaml:7: rule 'merge-types': uses types with action 'branch_merge';"
        + " types limit only read, export and change");
    assertThat(refused("""
        version: 1
        groups:
          team: [a]
        rules:
          - id: read-queries
            allow: { actors: { group: team }, actions: [read], queries: [q] }
        """).getMessage()).isEqualTo("policy test.yaml:5: rule 'read-queries': uses queries with action 'read';"
        + " queries limit only invoke_query");
    assertThat(refused("""
        version: 1
        groups:
          team: [a]
        rules:
          - id: empty
            allow: { actors: { group: team }, actions: [read], types: [] }
        """).getMessage()).isEqualTo("policy test.yaml:5: rule 'empty': types must list at least one name (leave it"
        + " out for all)");
    // Type names are not checked at load: the policy does not know the schema.
    assertThat(policy("""
        version: 1
        groups:
          team: [a]
        rules:
          - id: r
            allow: { actors: { group: team }, actions: [read], types: [NoSuchType] }
        """).rules().get(0).types()).isEqualTo(NameScope.of(java.util.Set.of("NoSuchType")));
  }

  @Test
  void declarativeCasesMayNameTypesAndAQuery() {
    PolicyTests tests = PolicyTests.parse("""
        version: 1
        cases:
          - { id: p-person, actor: agent-p, action: read, branch: main, types: [Person], expect: allow }
          - { id: p-knows, actor: agent-p, action: read, branch: main, types: [Person, Knows], expect: deny }
          - { id: k-both, actor: agent-k, action: read, branch: f, types: [Person, Knows], expect: allow }
          - { id: p-find, actor: agent-p, action: invoke_query, query: find_person, expect: allow }
          - { id: p-add, actor: agent-p, action: invoke_query, query: add_person, expect: deny }
        """, "cases.yaml");
    assertThat(tests.run(policy(SCOPED))).allMatch(PolicyTests.Result::passed).hasSize(5);
  }
}
