package dev.omnigraph.api;

import java.util.Optional;

/**
 * The caller may not do this: the graph's authorization (a policy, or the default-deny state of a
 * server with tokens and no policy) refused {@code action} on {@code branch} / {@code targetBranch}.
 * Raised before anything is prepared, so nothing was written. The message names the action, the
 * branches and the actor, never the policy's contents. HTTP 403 {@code forbidden}; CLI exit 1.
 */
public class Forbidden extends OmnigraphException {

  private final String action;
  private final Optional<String> branch;
  private final Optional<String> targetBranch;

  public Forbidden(String message, String action, Optional<String> branch, Optional<String> targetBranch) {
    super(message);
    this.action = action;
    this.branch = branch;
    this.targetBranch = targetBranch;
  }

  /** The policy action refused, in the policy file's spelling ({@code change}, {@code branch_merge}). */
  public String action() {
    return action;
  }

  public Optional<String> branch() {
    return branch;
  }

  public Optional<String> targetBranch() {
    return targetBranch;
  }

  @Override
  public String code() {
    return "forbidden";
  }
}
