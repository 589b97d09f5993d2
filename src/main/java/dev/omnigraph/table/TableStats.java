package dev.omnigraph.table;

/**
 * Fragment statistics of one version of a data table's Lance branch, read from that version's
 * manifest alone (no data file is opened): what decides whether a compaction is due.
 *
 * @param version the version they describe
 * @param fragments fragments in the version
 * @param fragmentsWithDeletions fragments carrying a deletion file (deleted or replaced rows that
 *     every scan must still skip)
 * @param physicalRows rows stored, deleted ones included
 * @param deletedRows rows marked deleted by the deletion files
 * @param unindexedFragments the most fragments any index (key or property) does not cover yet, a
 *     missing key index counting every fragment: each one is read in full by every key probe or
 *     indexed read
 * @param staleIndexes the indexes the table has that leave a live fragment uncovered
 */
public record TableStats(long version, int fragments, int fragmentsWithDeletions, long physicalRows,
    long deletedRows, int unindexedFragments, java.util.List<String> staleIndexes) {

  public TableStats {
    staleIndexes = java.util.List.copyOf(staleIndexes);
  }

  /** Statistics of a table whose indexes cover every fragment. */
  public TableStats(long version, int fragments, int fragmentsWithDeletions, long physicalRows, long deletedRows) {
    this(version, fragments, fragmentsWithDeletions, physicalRows, deletedRows, 0, java.util.List.of());
  }
}
