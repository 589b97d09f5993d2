package dev.omnigraph.policy;

import java.util.Optional;
import java.util.Set;

/**
 * One {@code allow} rule of a policy file: who ({@code actors: {group: G}} or {@code {id: A}}), which
 * actions, and at most one branch scope. Later scopes (per stored-query name, per type) are further
 * optional dimensions of this record, checked in {@link #grants} beside the branch scope.
 *
 * @param line the 1-based line the rule starts on, for messages
 */
public record PolicyRule(String id, int line, Optional<String> group, Optional<String> actorId,
    Set<PolicyAction> actions, Optional<BranchScope> branchScope, Optional<BranchScope> targetBranchScope) {

  /** Whether this rule grants {@code action} to an actor with {@code actorGroups} on the given branches. */
  boolean grants(String actor, Set<String> actorGroups, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch, Set<String> protectedBranches) {
    boolean selected = group.map(actorGroups::contains).orElse(false) || actorId.map(actor::equals).orElse(false);
    return selected && actions.contains(action)
        && branchScope.map(s -> s.covers(branch, protectedBranches)).orElse(true)
        && targetBranchScope.map(s -> s.covers(targetBranch, protectedBranches)).orElse(true);
  }
}
