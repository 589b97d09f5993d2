package dev.omnigraph.manifest;

import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.ManifestDataset.FragmentRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The physical layout of {@code __manifest} that keeps reading a branch's state independent of its
 * history ({@code docs/write-path.md}, "The history-flat manifest").
 *
 * <p>Every version this binary commits ends with one <em>state fragment</em>: a marker row
 * ({@code graph_state}) followed by the branch's whole current state: table registrations, the one
 * current {@code table_version} row per identity, tombstones and every visible {@code graph_head}.
 * Every other fragment is a <em>lineage fragment</em> holding {@code graph_commit} rows, appended in
 * publish order. A publish removes the state fragment it read and appends one lineage fragment (its
 * commit row) and the replacement state fragment in one Lance {@code Update}; two publishes from the
 * same version both remove that fragment, so exactly one can land (the write path's compare-and-swap).
 * Reading the state is one open of the Lance manifest plus one read of the last fragment, whose size
 * is bounded by the tables and branches, never by the commits.
 *
 * <p>A manifest written before this layout (no state fragment at the end) is read by the full fold
 * it was designed for; its first publish here converts it once: it removes every fragment (which is
 * its compare-and-swap) and writes the lineage, the commit and the first state fragment.
 */
final class ManifestLayout {

  /** The layout format recorded in the state marker. */
  static final int FORMAT = 1;

  /**
   * The most lineage fragments a version keeps: past it, the newest are merged down to
   * {@link #MERGE_DOWN_TO} (see {@link #mergePlan}). A bounded count keeps the Lance manifest, which
   * every open reads and which grows by ~150 bytes per fragment, about the same size at 100 commits
   * as at 100,000; merging down to well below the bound makes a merge commit follow only about one
   * publish in eleven.
   */
  static final int MAX_LINEAGE_FRAGMENTS = 18;

  /** How many lineage fragments a merge leaves at most. */
  static final int MERGE_DOWN_TO = 10;

  /** Columns a lineage read needs. */
  static final List<String> LINEAGE_COLUMNS =
      List.of(ManifestColumns.OBJECT_ID, ManifestColumns.OBJECT_TYPE, ManifestColumns.METADATA, ManifestColumns.BASE_OBJECTS);

  /** A constant predicate (no user input): lineage rows of legacy fragments that also hold state rows. */
  static final String COMMITS_ONLY = ManifestColumns.OBJECT_TYPE + " = '" + ManifestRow.GRAPH_COMMIT + "'";

  private ManifestLayout() {}

  /**
   * What one read of a version found.
   *
   * @param rows the state rows (marker excluded): what the next publish rewrites
   * @param stateFragment the state fragment's id; empty for a legacy layout (or an empty manifest)
   */
  record Read(List<ManifestRow> rows, Optional<Integer> stateFragment) {}

  /** Reads the state rows of the handle's checked-out version: its last fragment, or the legacy fold. */
  static Read read(ManifestDataset manifest) {
    List<FragmentRef> fragments = manifest.fragments();
    if (fragments.isEmpty()) {
      return new Read(List.of(), Optional.empty());
    }
    FragmentRef last = fragments.get(fragments.size() - 1);
    List<ManifestRow> rows = new ArrayList<>();
    manifest.scanFragment(last.id(), List.of(), Optional.empty(), batch -> rows.addAll(ManifestColumns.decode(batch)));
    if (!rows.isEmpty() && rows.get(0).objectType().equals(ManifestRow.GRAPH_STATE)) {
      return new Read(List.copyOf(rows.subList(1, rows.size())), Optional.of(last.id()));
    }
    return legacy(manifest);
  }

  private static Read legacy(ManifestDataset manifest) {
    List<ManifestRow> state = new ArrayList<>();
    manifest.scan(batch -> {
      for (ManifestRow r : ManifestColumns.decode(batch)) {
        if (!r.objectType().equals(ManifestRow.GRAPH_COMMIT)) {
          state.add(r);
        }
      }
    });
    return new Read(apply(List.of(), state), Optional.empty());
  }

  /**
   * The state rows after {@code changes} (registrations, pins, tombstones, heads; never commits):
   * a row replaces the one with its object id, and a {@code table_version} row replaces every
   * earlier pin of its identity, so the state holds one pin per identity.
   */
  static List<ManifestRow> apply(List<ManifestRow> state, List<ManifestRow> changes) {
    Map<String, ManifestRow> byId = new LinkedHashMap<>();
    Map<TableIdentity, String> pinOf = new HashMap<>();
    Map<TableIdentity, Long> pinVersion = new HashMap<>();
    List<ManifestRow> all = new ArrayList<>(state);
    all.addAll(changes);
    for (ManifestRow r : all) {
      if (r.objectType().equals(ManifestRow.GRAPH_COMMIT) || r.objectType().equals(ManifestRow.GRAPH_STATE)) {
        throw new IllegalArgumentException("not a state row: " + r.objectId());
      }
      if (r.objectType().equals(ManifestRow.TABLE_VERSION)) {
        TableIdentity id = new TableIdentity(r.stableTableId(), r.tableIncarnationId());
        long mv = ManifestJson.requiredLong(r.objectId(), ManifestJson.read(r.objectId(), r.metadata()), "manifest_version");
        Long prev = pinVersion.get(id);
        if (prev != null && prev > mv) {
          continue; // a legacy fold may list pins out of order: the latest wins
        }
        String previous = pinOf.put(id, r.objectId());
        pinVersion.put(id, mv);
        if (previous != null && !previous.equals(r.objectId())) {
          byId.remove(previous);
        }
      }
      byId.put(r.objectId(), r);
    }
    return List.copyOf(byId.values());
  }

  /** The lineage fragments of a version whose state fragment is {@code stateFragment}, oldest first. */
  static List<FragmentRef> lineageFragments(ManifestDataset manifest, Optional<Integer> stateFragment) {
    List<FragmentRef> all = manifest.fragments();
    if (stateFragment.isPresent() && !all.isEmpty() && all.get(all.size() - 1).id() == stateFragment.get()) {
      return all.subList(0, all.size() - 1);
    }
    return all;
  }

  /**
   * The suffix of {@code lineage} (oldest first) a merge should rewrite into one fragment, or empty
   * when none is due: once the lineage has more than {@link #MAX_LINEAGE_FRAGMENTS} fragments, the
   * shortest suffix that leaves at most {@link #MERGE_DOWN_TO} and whose merged size does not exceed
   * the fragment before it, or all of them. Sizes so stay non-increasing from oldest to newest, and
   * (simulated over one-row publishes) a merge follows about one publish in eleven and rewrites on
   * average about 4 commit rows per publish at 10,000 commits and 6 at 100,000; the whole lineage is
   * rewritten only rarely. Only a suffix is ever merged, so the fragment order stays the publish
   * order that {@link Lineage} reads newest first.
   */
  static List<FragmentRef> mergePlan(List<FragmentRef> lineage) {
    List<Long> sizes = lineage.stream().map(FragmentRef::physicalRows).toList();
    int j = mergeLength(sizes);
    return j == 0 ? List.of() : List.copyOf(lineage.subList(lineage.size() - j, lineage.size()));
  }

  /** How many of the newest fragments {@link #mergePlan} merges (0: none). */
  private static int mergeLength(List<Long> sizes) {
    int n = sizes.size();
    if (n <= MAX_LINEAGE_FRAGMENTS) {
      return 0;
    }
    long merged = 0;
    for (int j = 1; j <= n; j++) {
      merged += sizes.get(n - j);
      if (j >= n - MERGE_DOWN_TO + 1 && (j == n || merged <= sizes.get(n - j - 1))) {
        return j;
      }
    }
    return n;
  }

  /** The fragment sizes, oldest first, that {@code n} one-row publishes leave under {@link #mergePlan}. */
  static List<Long> sizesAfter(long n) {
    List<Long> sizes = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      sizes.add(1L);
      int j = mergeLength(sizes);
      if (j > 0) {
        long merged = 0;
        for (int k = 0; k < j; k++) {
          merged += sizes.remove(sizes.size() - 1);
        }
        sizes.add(merged);
      }
    }
    return sizes;
  }
}
