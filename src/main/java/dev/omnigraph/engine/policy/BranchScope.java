package dev.omnigraph.engine.policy;

import java.util.Locale;
import java.util.Optional;

/** A rule's {@code branch_scope} / {@code target_branch_scope}: which branches it covers. */
public enum BranchScope {
  /** Every branch, and also a request with no branch. */
  ANY,
  /** Only a branch named in {@code protected_branches}. */
  PROTECTED,
  /** Only a branch not named there. */
  UNPROTECTED;

  /**
   * Whether a request on {@code branch} is covered. As the reference: {@code protected} and
   * {@code unprotected} need a branch; a request without one (a graph-wide read) is covered only by
   * {@code any}.
   */
  boolean covers(Optional<String> branch, java.util.Set<String> protectedBranches) {
    return switch (this) {
      case ANY -> true;
      case PROTECTED -> branch.isPresent() && protectedBranches.contains(branch.get());
      case UNPROTECTED -> branch.isPresent() && !protectedBranches.contains(branch.get());
    };
  }

  static Optional<BranchScope> parse(String name) {
    for (BranchScope s : values()) {
      if (s.name().toLowerCase(Locale.ROOT).equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
