package dev.omnigraph.api;

import java.util.Objects;
import java.util.Optional;

/**
 * The authority a write was prepared against changed before any effect (update, delete and
 * overwrite are not silently re-planned). Effect-free; the caller re-reads and decides again.
 *
 * <p>The one outcome for a moved read set, wherever it is found: the token's revalidation under
 * the gates, a plan's own check, or the publisher's exact-head check. What each finder means by it
 * differs only in whether the writer may still re-plan ({@link #replannable()}); once a writer
 * answers it, it is final.
 */
public final class ReadSetChanged extends OmnigraphException {

  private final ReadSetMember moved;
  private final Optional<String> expected;
  private final Optional<String> actual;
  private final boolean replannable;

  /** A final answer: the caller re-reads and decides again. */
  public ReadSetChanged(ReadSetMember moved, Optional<String> expected, Optional<String> actual) {
    this(moved, expected, actual, false);
  }

  private ReadSetChanged(ReadSetMember moved, Optional<String> expected, Optional<String> actual,
      boolean replannable) {
    super("read set changed: " + moved.wire() + " was " + expected.orElse("<absent>") + " when prepared, now "
        + actual.orElse("<absent>"));
    this.moved = Objects.requireNonNull(moved);
    this.expected = expected;
    this.actual = actual;
    this.replannable = replannable;
  }

  /**
   * Found by the token's revalidation before any effect: a writer that may re-plan starts over
   * instead of answering it (its bounded reprepare decides), any other answers {@link #asFinal()}.
   */
  public static ReadSetChanged replannable(ReadSetMember moved, Optional<String> expected,
      Optional<String> actual) {
    return new ReadSetChanged(moved, expected, actual, true);
  }

  /** What moved. */
  public ReadSetMember moved() {
    return moved;
  }

  /** What moved as the wire names it, e.g. {@code graph_head:main} or {@code table:node:Person}. */
  public String member() {
    return moved.wire();
  }

  public Optional<String> expected() {
    return expected;
  }

  public Optional<String> actual() {
    return actual;
  }

  /** Whether a writer may still re-plan on it; see {@link #replannable(ReadSetMember, Optional, Optional)}. */
  public boolean replannable() {
    return replannable;
  }

  /** This outcome as a writer's answer: the same fields, no longer open to a re-plan. */
  public ReadSetChanged asFinal() {
    return replannable ? new ReadSetChanged(moved, expected, actual) : this;
  }

  @Override
  public String code() {
    return "conflict";
  }
}
