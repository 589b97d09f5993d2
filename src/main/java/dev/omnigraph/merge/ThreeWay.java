package dev.omnigraph.merge;

import dev.omnigraph.api.MergeConflict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The entity-level three-way rule for one table, by id (reference {@code docs/dev/merge.md}): a side
 * that left an entity as the base had it yields to the other side; two sides that agree agree;
 * otherwise the entity conflicts — inserted on both with different content
 * ({@link MergeConflict.Kind#DIVERGENT_INSERT}), updated differently on both
 * ({@link MergeConflict.Kind#DIVERGENT_UPDATE}), or deleted on one side and updated on the other
 * ({@link MergeConflict.Kind#DELETE_VS_UPDATE}). Pure: it judges three immutable snapshots' rows.
 */
final class ThreeWay {

  private ThreeWay() {}

  /** The delta to apply to the target, and the conflicts (the delta is meaningless if any). */
  record Result(TableDelta delta, List<MergeConflict> conflicts) {}

  static Result classify(String tableKey, Map<String, Map<String, Object>> base,
      Map<String, Map<String, Object>> source, Map<String, Map<String, Object>> target) {
    Set<String> ids = new TreeSet<>();
    ids.addAll(base.keySet());
    ids.addAll(source.keySet());
    ids.addAll(target.keySet());
    List<Map<String, Object>> inserts = new ArrayList<>();
    List<Map<String, Object>> updates = new ArrayList<>();
    Set<String> deletes = new LinkedHashSet<>();
    List<MergeConflict> conflicts = new ArrayList<>();
    for (String id : ids) {
      Map<String, Object> b = base.get(id);
      Map<String, Object> s = source.get(id);
      Map<String, Object> t = target.get(id);
      Map<String, Object> result;
      if (Rows.same(s, b) || Rows.same(s, t)) {
        continue; // the source brought nothing new for this entity: the target's stays
      } else if (Rows.same(t, b)) {
        result = s; // only the source changed it
      } else {
        conflicts.add(conflict(tableKey, id, b, s, t));
        continue;
      }
      if (result == null) {
        deletes.add(id);
      } else if (t == null) {
        inserts.add(result);
      } else {
        updates.add(result);
      }
    }
    return new Result(new TableDelta(inserts, updates, deletes), conflicts);
  }

  private static MergeConflict conflict(String tableKey, String id, Map<String, Object> b, Map<String, Object> s,
      Map<String, Object> t) {
    if (b == null) {
      return MergeConflict.of(MergeConflict.Kind.DIVERGENT_INSERT, tableKey, id,
          "inserted on both branches with different content");
    }
    if (s == null || t == null) {
      return MergeConflict.of(MergeConflict.Kind.DELETE_VS_UPDATE, tableKey, id,
          (s == null ? "deleted on the source, updated on the target" : "updated on the source, deleted on the target"));
    }
    List<String> changed = new ArrayList<>();
    for (String column : new TreeSet<>(b.keySet())) {
      if (!Objects.deepEquals(s.get(column), b.get(column)) && !Objects.deepEquals(t.get(column), b.get(column))) {
        changed.add(column);
      }
    }
    return MergeConflict.of(MergeConflict.Kind.DIVERGENT_UPDATE, tableKey, id,
        "updated differently on both branches" + (changed.isEmpty() ? "" : " (both changed " + changed + ")"));
  }
}
