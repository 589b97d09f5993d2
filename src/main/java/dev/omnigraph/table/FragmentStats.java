package dev.omnigraph.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The fragment shape of one version of a data table, read from its manifest alone (no data file
 * and no index file is read): what an Optimize writer needs to decide whether to compact the table
 * or fold unindexed fragments into its indexes.
 *
 * @param version the version described
 * @param fragments live fragments
 * @param fragmentsWithDeletions fragments that carry a deletion file
 * @param deletedRows rows masked by deletion files, over all fragments
 * @param unindexedFragments index name → live fragments that index does not cover (Lance scans
 *     those in full for a read the index serves); every index the table has, key and property
 * @param missingKeyIndexes key columns the table has but no index for (e.g. after an
 *     {@code Overwrite}, which drops indexes): a probe on them reads every fragment
 */
public record FragmentStats(long version, int fragments, int fragmentsWithDeletions, long deletedRows,
    Map<String, Integer> unindexedFragments, List<String> missingKeyIndexes) {

  public FragmentStats {
    unindexedFragments = Map.copyOf(Objects.requireNonNull(unindexedFragments, "unindexedFragments"));
    missingKeyIndexes = List.copyOf(Objects.requireNonNull(missingKeyIndexes, "missingKeyIndexes"));
  }

  /** The largest unindexed fragment count over the indexes (0 when every index is current). */
  public int maxUnindexedFragments() {
    return unindexedFragments.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** Whether every key column has an index and every index covers every live fragment. */
  public boolean indexesCurrent() {
    return missingKeyIndexes.isEmpty() && maxUnindexedFragments() == 0;
  }
}
