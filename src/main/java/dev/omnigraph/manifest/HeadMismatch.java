package dev.omnigraph.manifest;

import java.util.Optional;

/**
 * The publisher found a different graph head (or native branch identity) than the intent was
 * prepared against. The caller decides what that means: before effects a reprepare or
 * {@code ReadSetChanged}; after effects {@code RecoveryRequired}.
 */
public final class HeadMismatch extends RuntimeException {

  private final String member;
  private final Optional<String> expected;
  private final Optional<String> actual;

  public HeadMismatch(String member, Optional<String> expected, Optional<String> actual) {
    super(member + " changed: expected " + expected.orElse("<absent>") + ", found " + actual.orElse("<absent>"));
    this.member = member;
    this.expected = expected;
    this.actual = actual;
  }

  /** What moved: {@code graph_head:<branch>} or {@code branch_identity:<branch>}. */
  public String member() {
    return member;
  }

  public Optional<String> expected() {
    return expected;
  }

  public Optional<String> actual() {
    return actual;
  }
}
