package dev.omnigraph.merge;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.MergeConflict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The entity-level three-way rule, one entity (one id) at a time (reference {@code docs/dev/merge.md}):
 * a side that left an entity as the base had it yields to the other side; two sides that agree
 * agree; otherwise the entity conflicts — inserted on both with different content
 * ({@link MergeConflict.Kind#DIVERGENT_INSERT}), updated differently on both
 * ({@link MergeConflict.Kind#DIVERGENT_UPDATE}), or deleted on one side and updated on the other
 * ({@link MergeConflict.Kind#DELETE_VS_UPDATE}). Pure, and per entity, so {@link TableJoin} applies
 * it while streaming the three ordered snapshots.
 */
final class ThreeWay {

  private ThreeWay() {}

  /** What the merge does to one entity of the target. */
  enum Op { KEEP, INSERT, UPDATE, DELETE, CONFLICT }

  /**
   * @param row the merged row for {@link Op#INSERT} / {@link Op#UPDATE}
   * @param conflict for {@link Op#CONFLICT}
   */
  record Decision(Op op, Map<String, Object> row, MergeConflict conflict) {
    static final Decision KEEP = new Decision(Op.KEEP, null, null);
  }

  /** Row equality for one entity ({@link Rows#same(Map, Map)}, or one that matches Blob cells). */
  interface Sameness {
    boolean same(Map<String, Object> x, Map<String, Object> y);
  }

  /** The rule for entity {@code id}, given its row in base, source and target (null: absent). */
  static Decision decide(TableKey tableKey, String id, Map<String, Object> b, Map<String, Object> s,
      Map<String, Object> t) {
    return decide(tableKey, id, b, s, t, Rows::same);
  }

  /** As above, rows compared by {@code same}. */
  static Decision decide(TableKey tableKey, String id, Map<String, Object> b, Map<String, Object> s,
      Map<String, Object> t, Sameness same) {
    if (same.same(s, b) || same.same(s, t)) {
      return Decision.KEEP; // the source brought nothing new for this entity: the target's stays
    }
    if (!same.same(t, b)) {
      return new Decision(Op.CONFLICT, null, conflict(tableKey, id, b, s, t));
    }
    // Only the source changed it.
    if (s == null) {
      return new Decision(Op.DELETE, null, null);
    }
    return new Decision(t == null ? Op.INSERT : Op.UPDATE, s, null);
  }

  private static MergeConflict conflict(TableKey tableKey, String id, Map<String, Object> b, Map<String, Object> s,
      Map<String, Object> t) {
    if (b == null) {
      return MergeConflict.of(MergeConflict.Kind.DIVERGENT_INSERT, tableKey.toString(), id,
          "inserted on both branches with different content");
    }
    if (s == null || t == null) {
      return MergeConflict.of(MergeConflict.Kind.DELETE_VS_UPDATE, tableKey.toString(), id,
          (s == null ? "deleted on the source, updated on the target" : "updated on the source, deleted on the target"));
    }
    List<String> changed = new ArrayList<>();
    for (String column : new TreeSet<>(b.keySet())) {
      if (!Objects.deepEquals(s.get(column), b.get(column)) && !Objects.deepEquals(t.get(column), b.get(column))) {
        changed.add(column);
      }
    }
    return MergeConflict.of(MergeConflict.Kind.DIVERGENT_UPDATE, tableKey.toString(), id,
        "updated differently on both branches" + (changed.isEmpty() ? "" : " (both changed " + changed + ")"));
  }
}
