/**
 * The authorization policy, part of the engine: the YAML rules, their evaluation into a decision per
 * action, branch and type scopes, and the policy tests. The engine's gate consults it, and the front
 * ends load it, hand it to the engine and preview its decisions. Its action, decision, scope and
 * refusal values are in {@code api.policy}. It uses only the api (an ArchUnit rule,
 * POLICY_DEPENDS_ONLY_ON_THE_API, holds it to that), so it can be reasoned about alone.
 */
package dev.omnigraph.engine.policy;
