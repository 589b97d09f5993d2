package dev.omnigraph.merge;

import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeOutcome;
import java.util.List;

/**
 * A classified merge: its outcome and, per table the source changed, what the target receives.
 * Tables the source did not change are absent. Conflicts make the plan unusable: the writer
 * reports them all and writes nothing.
 */
public record MergePlan(MergeOutcome outcome, List<TablePlan> tables, List<MergeConflict> conflicts) {

  public MergePlan {
    tables = List.copyOf(tables);
    conflicts = List.copyOf(conflicts);
  }
}
