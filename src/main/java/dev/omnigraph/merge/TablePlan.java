package dev.omnigraph.merge;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TablePin;
import java.util.Optional;

/**
 * What a merge does to one table of the target (docs/merge.md, "Per table: what reaches the
 * target"). Its physical effect can be smaller than its manifest delta: a table whose pin the target
 * adopts writes nothing.
 *
 * @param tableKey {@code node:Type} / {@code edge:Type}
 * @param action how the result reaches the target
 * @param target the target's pin (what the effect is planned on)
 * @param source the source's pin (what a pointer adopts or a fork branches from)
 * @param base the merge base's pin (what the effect's ordered join classifies against again)
 * @param delta the merged result relative to the target snapshot: applied by {@link Action#APPLY},
 *     validated for every action
 * @param firstTouch for {@link Action#APPLY}: the target has no ref of its own on this table yet, so
 *     the effect first forks one from the target's pin (the ordinary first-touch path)
 */
public record TablePlan(TableKey tableKey, Action action, TablePin target, TablePin source, TablePin base,
    TableDelta delta,
    boolean firstTouch) {

  /** How a table's merged state reaches the target. */
  public enum Action {
    /** The target pin moves to a version it can already read: no data written, no physical effect. */
    POINTER,
    /**
     * The target branch has no ref on this table and adopts the source's table state: one
     * ref-only fork of the target ref from the source's version, no data transaction.
     */
    FORK,
    /** The delta is committed on the target's own ref as a chain of exact-id transactions. */
    APPLY
  }

  /** Rows the table holds in the merged result. */
  public long rowCountAfter() {
    return action == Action.APPLY ? delta.rowCountAfter(target.rowCount()) : source.rowCount();
  }

  /** Whether this plan needs a physical effect (a ref or a commit) and so a sidecar. */
  public boolean physical() {
    return action != Action.POINTER;
  }

  /** The native branch of the pin the target publishes. */
  public Optional<String> publishedBranch(Optional<String> targetNative) {
    return switch (action) {
      case POINTER -> source.nativeBranch();
      case FORK -> targetNative;
      case APPLY -> firstTouch ? targetNative : target.nativeBranch();
    };
  }
}
