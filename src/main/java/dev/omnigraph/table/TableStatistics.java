package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.lance.Dataset;
import org.lance.FragmentMetadata;

/**
 * Fragment statistics of a table version, read from its manifest alone (no data or index file):
 * fragment and deletion-file counts, and which live fragments each index does not cover. What
 * write, read and maintenance decisions consult on every call. Reached through
 * {@link DataTables#statistics()}.
 */
public final class TableStatistics {

  private final StorageConfig config;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableStatistics(StorageConfig config, LanceRoot lance) {
    this.lance = lance;
    this.config = config;
  }

  /**
   * The fragment shape of exactly {@code version} of the branch (fragment count, deletion files,
   * and for each key index the live fragments it does not cover), read from the manifest of the
   * opened version only: no data file and no index file is read, so it is cheap enough to call on
   * every write or maintenance decision.
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public FragmentStats fragmentStats(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.of(version))) {
        return fragmentStats(h.table);
      }
    });
  }

  /**
   * The live rows of exactly {@code version} of the branch that the key index on {@code column}
   * ({@code id}, {@code src} or {@code dst}) does not cover: what a probe filtered on that column
   * scans besides the index. Read from the opened version's manifest only (fragment metadata and
   * index fragment bitmaps), like {@link #fragmentStats}. Every row when the column has no key index.
   */
  public long rowsOutsideKeyIndex(String location, Optional<String> nativeBranch, long version, String column) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.of(version))) {
        Set<Integer> covered = new HashSet<>();
        boolean indexed = false;
        for (org.lance.index.Index index : h.table.getIndexes()) {
          if (index.name().equals(KeyIndexes.indexName(column))) {
            indexed = true;
            covered.addAll(index.fragments().orElse(List.of()));
          }
        }
        long rows = 0;
        for (org.lance.Fragment fragment : h.table.getFragments()) {
          FragmentMetadata m = fragment.metadata();
          if (!indexed || !covered.contains(m.getId())) {
            rows += m.getNumRows();
          }
        }
        return rows;
      }
    });
  }

  /** The most fragments an index does not cover in {@code s} (a missing key index covers none). */
  static int unindexedFragments(FragmentStats s) {
    return s.missingKeyIndexes().isEmpty() ? s.maxUnindexedFragments() : Math.max(s.maxUnindexedFragments(), s.fragments());
  }

  /** The indexes {@code s} names that leave a live fragment uncovered, sorted by name. */
  static List<String> staleIndexes(FragmentStats s) {
    return s.unindexedFragments().entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
        .sorted().toList();
  }

  /** {@link #fragmentStats(String, Optional, long)} of a handle the caller holds ({@link TableCompaction}'s). */
  static FragmentStats fragmentStats(Dataset table) {
    Set<Integer> live = new TreeSet<>();
    int withDeletions = 0;
    long deletedRows = 0;
    for (org.lance.Fragment fragment : table.getFragments()) {
      FragmentMetadata metadata = fragment.metadata();
      live.add(metadata.getId());
      if (metadata.getDeletionFile() != null) {
        withDeletions++;
        deletedRows += metadata.getNumDeletions();
      }
    }
    // An index may have several segments (deltas); together they cover the union of their fragment
    // bitmaps. A segment without a bitmap is counted as covering nothing (conservative: it can
    // only make the index look staler than it is).
    Map<String, Set<Integer>> covered = new TreeMap<>();
    for (org.lance.index.Index index : table.getIndexes()) {
      covered.computeIfAbsent(index.name(), k -> new HashSet<>()).addAll(index.fragments().orElse(List.of()));
    }
    // Every index, key and property alike: a stale property index costs its reads the same
    // uncovered-fragment scans a stale key index costs a probe.
    Map<String, Integer> unindexed = new TreeMap<>();
    covered.forEach((name, byIndex) ->
        unindexed.put(name, (int) live.stream().filter(f -> !byIndex.contains(f)).count()));
    List<String> missing = new ArrayList<>();
    for (String column : KeyIndexes.keyColumns(table.getSchema())) {
      if (!covered.containsKey(KeyIndexes.indexName(column))) {
        missing.add(column);
      }
    }
    return new FragmentStats(table.version(), live.size(), withDeletions, deletedRows, unindexed, missing);
  }
}
