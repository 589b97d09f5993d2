package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.DecisionListener;
import dev.omnigraph.api.policy.NameScope;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.api.Forbidden;
import dev.omnigraph.api.TypeForbidden;
import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The one authorization gate of a graph, in one of the reference's runtime states. The engine asks
 * it at the head of every writer and read (and the server for what only it serves: stored-query
 * invocation, the graph list), before anything is prepared, so a denial leaves nothing behind.
 *
 * <ul>
 *   <li>{@link State#OPEN}: no tokens and no policy (a loopback or explicitly opted-in server, a local
 *       CLI without a policy): everything is allowed.
 *   <li>{@link State#DEFAULT_DENY}: tokens but no policy: only {@code read}; the "configured auth, forgot
 *       the policy" trap answers 403 instead of letting every token write.
 *   <li>{@link State#POLICY_ENABLED}: the policy decides; a call with no actor is refused (fail
 *       closed: a call site that forgets to pass one never gets through).
 * </ul>
 *
 * <p>Immutable; a reloaded policy is a new gate. A gate may carry a {@link DecisionListener}
 * ({@link #observedBy}) that hears each of its decisions.
 */
public final class PolicyGate {

  /** The runtime state, as the reference names it. */
  public enum State {
    OPEN, DEFAULT_DENY, POLICY_ENABLED
  }

  /** No policy and no tokens: the gate allows everything. */
  public static final PolicyGate OPEN = new PolicyGate(State.OPEN, Optional.empty(), DecisionListener.NONE);
  /** Tokens without a policy: only {@code read}. */
  public static final PolicyGate DEFAULT_DENY = new PolicyGate(State.DEFAULT_DENY, Optional.empty(),
      DecisionListener.NONE);

  private final State state;
  private final Optional<Policy> policy;
  private final DecisionListener listener;

  private PolicyGate(State state, Optional<Policy> policy, DecisionListener listener) {
    this.state = state;
    this.policy = policy;
    this.listener = listener;
  }

  /** A gate that enforces {@code policy}. */
  public static PolicyGate enforcing(Policy policy) {
    return new PolicyGate(State.POLICY_ENABLED, Optional.of(policy), DecisionListener.NONE);
  }

  /**
   * This gate, deciding the same, telling {@code listener} of each decision (in place of any listener
   * it had; {@link DecisionListener#NONE} for a preview that must not count as a request's decision).
   */
  public PolicyGate observedBy(DecisionListener listener) {
    return new PolicyGate(state, policy, java.util.Objects.requireNonNull(listener, "listener"));
  }

  public State state() {
    return state;
  }

  public Optional<Policy> policy() {
    return policy;
  }

  /**
   * The decision for {@code actor} (empty: nobody authenticated or named) in this state, told to this
   * gate's listener.
   */
  public PolicyDecision decide(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    PolicyDecision d = evaluate(actor, action, branch, targetBranch);
    listener.decided(action, d);
    return d;
  }

  private PolicyDecision evaluate(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    return switch (state) {
      case OPEN -> new PolicyDecision(true, Optional.empty(), "open: no tokens and no policy");
      case DEFAULT_DENY -> action == PolicyAction.READ
          ? new PolicyDecision(true, Optional.empty(), "default-deny allows read")
          : new PolicyDecision(false, Optional.empty(), "action '" + action + "'" + where(branch, targetBranch)
              + " denied: default-deny (bearer tokens are configured but no policy file, so only read is"
              + " permitted); grant it in a policy file (omnigraph.policy.file)");
      case POLICY_ENABLED -> actor.isEmpty()
          ? new PolicyDecision(false, Optional.empty(), "action '" + action + "'" + where(branch, targetBranch)
              + " denied: a policy is installed and no actor was named (CLI: --as ACTOR)")
          : policy.orElseThrow().decide(actor.get(), action, branch, targetBranch);
    };
  }

  /**
   * Allows the call or refuses it.
   *
   * @throws Forbidden when the decision is a denial (its message names the action, branches and actor)
   */
  public void check(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    PolicyDecision d = decide(actor, action, branch, targetBranch);
    if (!d.allowed()) {
      throw new Forbidden(d.message(), action.wireName(), branch, targetBranch);
    }
  }

  /**
   * As {@link #decide(Optional, PolicyAction, Optional, Optional)} for a request that names the types
   * it touches and the stored query it invokes ({@link Policy#decide(String, PolicyAction, Optional,
   * Optional, Collection, Optional)}); without a policy those dimensions are not limited.
   */
  public PolicyDecision decide(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch, Collection<String> types, Optional<String> query) {
    PolicyDecision d = decide(actor, action, branch, targetBranch);
    return state == State.POLICY_ENABLED && d.allowed()
        ? policy.orElseThrow().decide(actor.orElseThrow(), action, branch, targetBranch, types, query) : d;
  }

  /**
   * The node and edge types {@code actor} may touch with {@code action} on {@code branch}, once
   * {@link #check} allowed the action: every type without a policy or when a granting rule lists none.
   */
  public NameScope typeScope(Optional<String> actor, PolicyAction action, Optional<String> branch) {
    return state != State.POLICY_ENABLED ? NameScope.ALL
        : actor.map(a -> policy.orElseThrow().typeScope(a, action, branch)).orElse(NameScope.of(Set.of()));
  }

  /** As {@link #typeScope}, on some branch ({@link Policy#typeScopeOnAnyBranch}). */
  public NameScope typeScopeOnAnyBranch(Optional<String> actor, PolicyAction action) {
    return state != State.POLICY_ENABLED ? NameScope.ALL
        : actor.map(a -> policy.orElseThrow().typeScopeOnAnyBranch(a, action)).orElse(NameScope.of(Set.of()));
  }

  /** The stored queries {@code actor} may invoke, once {@code invoke_query} is allowed at all. */
  public NameScope queryScope(Optional<String> actor) {
    return state != State.POLICY_ENABLED ? NameScope.ALL
        : actor.map(a -> policy.orElseThrow().queryScope(a)).orElse(NameScope.of(Set.of()));
  }

  /**
   * Allows {@code action} on {@code branch} for a request touching {@code types}, or refuses it.
   *
   * @throws Forbidden when the action is denied on the branch
   * @throws TypeForbidden naming the first of {@code types} (in their order) outside the actor's scope
   */
  public void checkTypes(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Collection<String> types) {
    // The action itself was decided (and counted) at the head of the call; this re-evaluates it
    // without telling the listener, so one request is one decision in the metrics.
    PolicyDecision d = evaluate(actor, action, branch, Optional.empty());
    if (!d.allowed()) {
      throw new Forbidden(d.message(), action.wireName(), branch, Optional.empty());
    }
    NameScope scope = typeScope(actor, action, branch);
    for (String type : types) {
      refuseOutOfScope(scope, actor, action, branch, type, OptionalLong.empty());
    }
  }

  /**
   * Refuses {@code type} when {@code scope} (from {@link #typeScope}) does not cover it.
   *
   * @param line for a load, the input line of the row
   * @throws TypeForbidden naming the action, branch, actor, type (and line)
   */
  public static void refuseOutOfScope(NameScope scope, Optional<String> actor, PolicyAction action,
      Optional<String> branch, String type, OptionalLong line) {
    if (!scope.covers(type)) {
      String denied = Policy.denied(actor.orElse(""), action, branch, Optional.empty());
      throw new TypeForbidden((line.isPresent() ? "line " + line.getAsLong() + ": " : "")
          + Policy.outOfScope(denied, type), action.wireName(), branch, type, line);
    }
  }

  private static String where(Optional<String> branch, Optional<String> target) {
    return branch.map(b -> " on branch '" + b + "'").orElse("") + target.map(b -> " targeting branch '" + b + "'")
        .orElse("");
  }
}
