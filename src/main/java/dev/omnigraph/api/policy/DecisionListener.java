package dev.omnigraph.api.policy;



/**
 * Told of every decision a {@code PolicyGate} makes, allowed or denied, after it is made. The server
 * counts them by action and outcome (docs/authorization.md, "Decision metrics"); this package knows
 * nothing of metrics, so the hook takes only what a bounded label may be built from: the action and
 * the decision (never the actor or the branch, which are unbounded).
 *
 * <p>Runs on the caller's thread, before a denial is thrown; it must be cheap and must not throw.
 */
@FunctionalInterface
public interface DecisionListener {

  /** Hears nothing: a gate without a listener, and a preview that is no request's decision. */
  DecisionListener NONE = (action, decision) -> {};

  void decided(PolicyAction action, PolicyDecision decision);
}
