package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.NameScope;
import dev.omnigraph.api.policy.PolicyAction;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code allow} rule of a policy file: who ({@code actors: {group: G}} or {@code {id: A}}), which
 * actions, at most one branch scope, and (beyond the reference) the node and edge types
 * ({@code types}, with {@code read}, {@code export}, {@code change}) or stored-query names
 * ({@code queries}, with {@code invoke_query}) it is limited to. {@link #grants} decides the branch
 * dimension; the named dimensions compose across rules in {@link Policy#decide(String, PolicyAction,
 * Optional, Optional, java.util.Collection, Optional)}.
 *
 * @param line the 1-based line the rule starts on, for messages
 * @param types the types the rule covers; empty: every type
 * @param queries the stored queries the rule covers; empty: every query
 */
public record PolicyRule(String id, int line, Optional<String> group, Optional<String> actorId,
    Set<PolicyAction> actions, Optional<BranchScope> branchScope, Optional<BranchScope> targetBranchScope,
    NameScope types, NameScope queries) {

  /** A rule of the reference's format, without type or query limits. */
  public PolicyRule(String id, int line, Optional<String> group, Optional<String> actorId,
      Set<PolicyAction> actions, Optional<BranchScope> branchScope, Optional<BranchScope> targetBranchScope) {
    this(id, line, group, actorId, actions, branchScope, targetBranchScope, NameScope.ALL, NameScope.ALL);
  }

  /** Whether this rule grants {@code action} to an actor with {@code actorGroups} on the given branches. */
  boolean grants(String actor, Set<String> actorGroups, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch, Set<String> protectedBranches) {
    return selects(actor, actorGroups) && actions.contains(action)
        && branchScope.map(s -> s.covers(branch, protectedBranches)).orElse(true)
        && targetBranchScope.map(s -> s.covers(targetBranch, protectedBranches)).orElse(true);
  }

  /** Whether this rule names the actor (by one of its groups or by id). */
  boolean selects(String actor, Set<String> actorGroups) {
    return group.map(actorGroups::contains).orElse(false) || actorId.map(actor::equals).orElse(false);
  }
}
