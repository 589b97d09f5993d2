package dev.omnigraph.policy;

import java.util.Optional;

/**
 * One authorization decision: allowed or not, the rule that allowed it (the smallest rule id among
 * those that grant, as the reference reports it; empty on a denial or when no policy decided), and a
 * message naming the action, branches and actor, never the policy's contents.
 */
public record PolicyDecision(boolean allowed, Optional<String> ruleId, String message) {}
