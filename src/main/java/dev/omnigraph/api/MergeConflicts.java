package dev.omnigraph.api;

import java.util.List;

/**
 * A branch merge found conflicts: nothing was written (all-or-nothing, decided before any sidecar
 * or effect). Every conflict found is listed, each typed; callers branch on {@link #conflicts()},
 * never on the message.
 */
public final class MergeConflicts extends Conflict {

  private final List<MergeConflict> conflicts;

  public MergeConflicts(List<MergeConflict> conflicts) {
    super(describe(conflicts));
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("a merge conflict names at least one conflict");
    }
    this.conflicts = List.copyOf(conflicts);
  }

  /** The conflicts, in table order then entity order. */
  public List<MergeConflict> conflicts() {
    return conflicts;
  }

  private static String describe(List<MergeConflict> conflicts) {
    StringBuilder b = new StringBuilder("merge has ").append(conflicts.size())
        .append(conflicts.size() == 1 ? " conflict" : " conflicts");
    int shown = Math.min(3, conflicts.size());
    for (int i = 0; i < shown; i++) {
      MergeConflict c = conflicts.get(i);
      b.append(i == 0 ? ": " : "; ").append(c.kind().wire()).append(' ').append(c.entityKind()).append(':')
          .append(c.typeName()).append(c.entityId() == null ? "" : " " + c.entityId());
    }
    if (conflicts.size() > shown) {
      b.append("; +").append(conflicts.size() - shown).append(" more");
    }
    return b.toString();
  }
}
