package dev.omnigraph.api.policy;

import java.util.List;
import java.util.Optional;

/**
 * One authorization decision: allowed or not, the rule that allowed it (the smallest rule id among
 * those that grant, as the reference reports it; empty on a denial or when no policy decided), and a
 * message naming the action, branches and actor, never the policy's contents.
 *
 * @param rules every rule the allowance rests on, sorted: for a request naming types or a query,
 *     the granting rules whose lists cover part of it (two narrow rules may compose); else the one
 *     named by {@code ruleId}
 */
public record PolicyDecision(boolean allowed, Optional<String> ruleId, String message, List<String> rules) {

  public PolicyDecision {
    rules = List.copyOf(rules);
  }

  /** A decision resting on at most the one rule {@code ruleId}. */
  public PolicyDecision(boolean allowed, Optional<String> ruleId, String message) {
    this(allowed, ruleId, message, ruleId.stream().toList());
  }
}
