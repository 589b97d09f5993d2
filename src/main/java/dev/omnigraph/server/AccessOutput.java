package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.omnigraph.api.policy.DecisionListener;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /graphs/{id}/access?branch=} (ours; the reference has no such route): the caller's own
 * authorization on one branch, so the console can say who is signed in and disable what the caller
 * may not do. It tells the caller only its own decisions, as booleans: no rule id, group, protected
 * branch list or other actor (docs/authorization.md, "The console").
 *
 * @param actorId the bearer token's actor; null on a server without tokens
 * @param state the graph's runtime state: {@code open}, {@code default_deny} or {@code policy_enabled}
 * @param actions every per-graph action ({@code graph_list} is the server's, not a graph's) and
 *     whether the caller may do it on {@code branch}: {@code read}, {@code export} and {@code change}
 *     on it; {@code schema_apply}, {@code branch_create}, {@code branch_delete} and {@code branch_merge}
 *     with it as the target (a merge into it, from any source); {@code invoke_query} and {@code admin}
 *     graph-wide
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AccessOutput(
    @JsonProperty("graph_id") String graphId,
    @JsonProperty("branch") String branch,
    @JsonProperty("actor_id") String actorId,
    @JsonProperty("state") String state,
    @JsonProperty("actions") Map<String, Boolean> actions) {

  /** What {@code gate} decides for {@code actor} on {@code branch}, each action asked once. */
  static AccessOutput of(String graphId, PolicyGate gate, Optional<String> actor, String branch) {
    // A preview of decisions no request made: kept out of the decision counters.
    PolicyGate preview = gate.observedBy(DecisionListener.NONE);
    Map<String, Boolean> actions = new LinkedHashMap<>();
    for (PolicyAction a : PolicyAction.values()) {
      if (a.serverScoped()) {
        continue;
      }
      Optional<String> on = a.scope() == PolicyAction.Scope.BRANCH ? Optional.of(branch) : Optional.empty();
      Optional<String> target = a.scope() == PolicyAction.Scope.TARGET_BRANCH ? Optional.of(branch) : Optional.empty();
      actions.put(a.wireName(), preview.decide(actor, a, on, target).allowed());
    }
    return new AccessOutput(graphId, branch, actor.orElse(null), gate.state().name().toLowerCase(Locale.ROOT),
        java.util.Collections.unmodifiableMap(actions));
  }
}
