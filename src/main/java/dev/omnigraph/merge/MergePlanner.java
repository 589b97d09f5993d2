package dev.omnigraph.merge;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeOutcome;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Classifies a merge table by table against three immutable snapshots — base, source and target,
 * each a manifest state whose pins name exact Lance versions — outside every gate (seed, BranchMerge
 * step 2). Reads rows only; decides per table whether the source changed it, whether the target can
 * adopt the source's pin, must fork a ref, or receives a row delta (three-way by id when both sides
 * changed the table).
 *
 * <p>Rows are read whole per changed table side and compared in memory. The seed's ordered
 * base/source/target cursors (8,192 rows / 32 MiB per scanner batch) are not built yet: lance-java
 * 7.0.0's scan has no ordering option this layer uses, so a merge holds the changed tables' rows
 * (see {@code docs/merge.md}, "Limits").
 */
public final class MergePlanner {

  private final DataTables tables;

  public MergePlanner(DataTables tables) {
    this.tables = tables;
  }

  /**
   * Plans merging {@code source} into {@code target} over {@code base}.
   *
   * @param targetBranch the target graph branch (decides which refs the target owns)
   * @param fastForward the target head is the merge base
   * @throws Conflict when a table's identity differs between the snapshots (a type dropped and
   *     re-created on one side): not mergeable entity by entity
   */
  public MergePlan plan(ManifestState base, ManifestState source, ManifestState target, String targetBranch,
      boolean fastForward) {
    Optional<String> targetNative = targetBranch.equals(ManifestState.MAIN) ? Optional.empty()
        : Optional.of(targetBranch);
    TreeSet<String> keys = new TreeSet<>(target.tables().keySet());
    keys.addAll(source.tables().keySet());
    List<TablePlan> plans = new ArrayList<>();
    List<MergeConflict> conflicts = new ArrayList<>();
    for (String key : keys) {
      TablePin b = base.tables().get(key);
      TablePin s = source.tables().get(key);
      TablePin t = target.tables().get(key);
      if (s == null || t == null || b == null) {
        throw new Conflict("table " + key + " is not registered on every side of the merge (base, source, target);"
            + " a merge across schema changes is not supported");
      }
      if (!s.identity().equals(t.identity()) || !b.identity().equals(t.identity())) {
        throw new Conflict("table " + key + " has different identities on the two sides of the merge (base "
            + b.identity() + ", source " + s.identity() + ", target " + t.identity() + ")");
      }
      if (samePin(s, t) || samePin(s, b)) {
        continue; // the source changed nothing here that the target lacks
      }
      boolean adopt = samePin(t, b);
      Map<String, Map<String, Object>> baseRows = rows(b);
      Map<String, Map<String, Object>> targetRows = adopt ? baseRows : rows(t);
      ThreeWay.Result r = ThreeWay.classify(key, baseRows, rows(s), targetRows);
      conflicts.addAll(r.conflicts());
      boolean ownsRef = t.nativeBranch().equals(targetNative);
      TablePlan.Action action;
      if (adopt && s.nativeBranch().isEmpty() && targetNative.isPresent() && !ownsRef) {
        // Main's lineage, which every branch reads. A target that owns a ref keeps writing it, so
        // its pin must stay on that ref (else its next write would meet its own ref as drift).
        action = TablePlan.Action.POINTER;
      } else if (adopt && targetNative.isPresent() && !ownsRef && s.nativeBranch().isPresent()) {
        action = TablePlan.Action.FORK;
      } else {
        action = TablePlan.Action.APPLY;
      }
      if (action == TablePlan.Action.APPLY && r.delta().isEmpty()) {
        // Same rows at different versions: nothing to write. The target keeps its pin (its row
        // count already equals the source's).
        continue;
      }
      plans.add(new TablePlan(key, action, t, s, r.delta(), action == TablePlan.Action.APPLY && !ownsRef));
    }
    return new MergePlan(fastForward ? MergeOutcome.FAST_FORWARD : MergeOutcome.MERGED, plans, conflicts);
  }

  /** Same dataset version on the same ref: the same rows, without reading them. */
  static boolean samePin(TablePin a, TablePin b) {
    return a.location().equals(b.location()) && a.version() == b.version() && a.nativeBranch().equals(b.nativeBranch());
  }

  private Map<String, Map<String, Object>> rows(TablePin pin) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    tables.scan(pin.location(), pin.nativeBranch(), pin.version(), Filter.TRUE, List.of(),
        row -> out.put(String.valueOf(row.get("id")), row));
    return out;
  }
}
