package dev.omnigraph.merge;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the merged result changes in one table relative to the target's snapshot: rows the target
 * lacks (strict inserts), rows the target holds with other content (upserts), and target rows the
 * result drops (exact-id deletes). Ordered by id, so chunk boundaries are deterministic.
 *
 * @param inserts full rows whose id the target snapshot does not hold
 * @param updates full rows whose id the target snapshot holds with different content
 * @param deletes ids the target snapshot holds and the result does not
 */
public record TableDelta(List<Map<String, Object>> inserts, List<Map<String, Object>> updates, Set<String> deletes) {

  public TableDelta {
    inserts = List.copyOf(inserts);
    updates = List.copyOf(updates);
    deletes = Set.copyOf(deletes);
  }

  /** Whether the result equals the target's snapshot for this table. */
  public boolean isEmpty() {
    return inserts.isEmpty() && updates.isEmpty() && deletes.isEmpty();
  }

  /** Rows the table holds after the delta, given the target's row count. */
  public long rowCountAfter(long targetRows) {
    return targetRows + inserts.size() - deletes.size();
  }
}
