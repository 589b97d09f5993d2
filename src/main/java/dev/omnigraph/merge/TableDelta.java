package dev.omnigraph.merge;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the merged result changes in one table relative to the target's snapshot, as the planner's
 * ordered join measured it: counts, the chain of chunk boundaries, and the validation view — the
 * written rows projected to the columns validation reads (id, {@code @unique} columns, an edge's
 * endpoints), the updated ids and the deleted ids, all charged to one 32 MiB budget. Full rows are
 * not kept: the effect joins again to produce them.
 *
 * @param inserts rows whose id the target snapshot does not hold
 * @param updates rows the target holds with different content
 * @param deletes ids the target snapshot holds and the result does not
 * @param written the inserted and updated rows, projected
 * @param updatedIds ids of the updated rows
 * @param chain strict-insert chunks, then upsert chunks, then delete chunks
 * @param provenFragments when not empty, the delta is certificate-proven all-new: exactly the rows
 *     of these fragments of the source version are inserts ({@link MergePlanner}, "certificate
 *     fast path"), and the effect reads them instead of joining
 */
public record TableDelta(long inserts, long updates, Set<String> deletes, List<Map<String, Object>> written,
    Set<String> updatedIds, List<ChunkSpec> chain, List<Integer> provenFragments) {

  public static final TableDelta NONE = new TableDelta(0, 0, Set.of(), List.of(), Set.of(), List.of(), List.of());

  public TableDelta {
    deletes = Set.copyOf(deletes);
    written = List.copyOf(written);
    updatedIds = Set.copyOf(updatedIds);
    chain = List.copyOf(chain);
    provenFragments = List.copyOf(provenFragments);
  }

  /** Whether the certificate proof, not the ordered join, produced this delta. */
  public boolean proven() {
    return !provenFragments.isEmpty();
  }

  /** Whether the result equals the target's snapshot for this table. */
  public boolean isEmpty() {
    return inserts == 0 && updates == 0 && deletes.isEmpty();
  }

  /** Rows the table holds after the delta, given the target's row count. */
  public long rowCountAfter(long targetRows) {
    return targetRows + inserts - deletes.size();
  }
}
