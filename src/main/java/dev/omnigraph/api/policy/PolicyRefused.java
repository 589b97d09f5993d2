package dev.omnigraph.api.policy;

import dev.omnigraph.api.InvalidRequest;
import java.util.Optional;

/**
 * A policy (or policy test) file that cannot be used as written: it does not parse, or a rule breaks
 * the format (an unknown action, a scope the action does not take, an unknown group). Names the file,
 * the line and, where there is one, the rule id. A server refuses to start with it; the CLI exits 1.
 */
public final class PolicyRefused extends InvalidRequest {

  private final String origin;
  private final int line;
  private final Optional<String> ruleId;

  public PolicyRefused(String origin, int line, Optional<String> ruleId, String reason) {
    super("policy " + origin + (line > 0 ? ":" + line : "") + ": "
        + ruleId.map(id -> "rule '" + id + "': ").orElse("") + reason);
    this.origin = origin;
    this.line = line;
    this.ruleId = ruleId;
  }

  /** A policy file that cannot be read at all. */
  public static PolicyRefused unreadable(String origin, java.io.IOException e) {
    return new PolicyRefused(origin, 0, Optional.empty(), "cannot be read: " + e);
  }

  /** The file (or other source) refused. */
  public String origin() {
    return origin;
  }

  /** The 1-based line of the offending rule or key; 0 when the file as a whole is refused. */
  public int line() {
    return line;
  }

  /** The id of the refused rule, when one is to blame. */
  public Optional<String> ruleId() {
    return ruleId;
  }
}
