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
 */
public record TableStats(long version, int fragments, int fragmentsWithDeletions, long physicalRows,
    long deletedRows) {}
