package dev.omnigraph.api.policy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The actions a policy rule grants, with the reference's spelling and its scope table: which branch
 * a rule's scope is checked against. {@code read}, {@code export} and {@code change} act on one
 * branch ({@code branch_scope}); {@code schema_apply} and the branch operations act on a target
 * ({@code target_branch_scope}); {@code invoke_query} and {@code admin} are graph-wide and
 * {@code graph_list} is server-wide: those take neither scope.
 */
public enum PolicyAction {
  READ(Scope.BRANCH, false),
  EXPORT(Scope.BRANCH, false),
  CHANGE(Scope.BRANCH, false),
  SCHEMA_APPLY(Scope.TARGET_BRANCH, false),
  BRANCH_CREATE(Scope.TARGET_BRANCH, false),
  BRANCH_DELETE(Scope.TARGET_BRANCH, false),
  BRANCH_MERGE(Scope.TARGET_BRANCH, false),
  INVOKE_QUERY(Scope.NONE, false),
  ADMIN(Scope.NONE, false),
  GRAPH_LIST(Scope.NONE, true);

  /** Which of a rule's scope keys an action may carry. */
  public enum Scope {
    /** {@code branch_scope}: checked against the branch acted on (a merge's source). */
    BRANCH,
    /** {@code target_branch_scope}: checked against the branch changed, created or deleted. */
    TARGET_BRANCH,
    /** Neither: the action has no branch dimension. */
    NONE
  }

  private final Scope scope;
  private final boolean serverScoped;

  PolicyAction(Scope scope, boolean serverScoped) {
    this.scope = scope;
    this.serverScoped = serverScoped;
  }

  /** The scope key this action takes. */
  public Scope scope() {
    return scope;
  }

  /** Whether it acts on the server's graph registry rather than on one graph. */
  public boolean serverScoped() {
    return serverScoped;
  }

  /** The policy file's spelling, e.g. {@code branch_merge}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The action spelled {@code name} in a policy file, if any. */
  public static Optional<PolicyAction> parse(String name) {
    return Arrays.stream(values()).filter(a -> a.wireName().equals(name == null ? null : name.strip())).findFirst();
  }

  /** Every spelling, for messages. */
  public static String spellings() {
    return Arrays.stream(values()).map(PolicyAction::wireName).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return wireName();
  }
}
