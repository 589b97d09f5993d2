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
 * history (issue 20; {@code docs/write-path.md}, "The history-flat manifest").
 *
 * <p>Every version this binary commits ends with one <em>state fragment</em>: a marker row
 * ({@code graph_state}) followed by the branch's whole current state: table registrations, the one
 * current {@code table_version} row per identity, tombstones and every visible {@code graph_head}.
 * Every other fragment is a <em>lineage fragment</em> holding {@code graph_commit} rows, appended in
 * publish order. A publish removes the state fragment it read and appends one lineage fragment (its
 * commit row) and the replacement state fragment in one Lance {@code Update}; two publishes from the
 * same version both remove that fragment, so exactly one can land (the seed's compare-and-swap).
 * Reading the state is one open of the Lance manifest plus one read of the last fragment, whose size
 * is bounded by the tables and branches, never by the commits.
 *
 * <p>A manifest written before this layout (no state fragment at the end) is read by the full fold
 * it was designed for; its first publish here writes the first state fragment, deleting the head
 * row it resolved through as the compare-and-swap, as before.
 */
final class ManifestLayout {

  /** The layout format recorded in the state marker. */
  static final int FORMAT = 1;

  /**
   * Lineage fragments of one size tier merged at once: with one-row publishes the lineage stays at
   * most {@code MERGE_FAN_IN - 1} fragments per power of {@code MERGE_FAN_IN} rows (about 40 at
   * 100,000 commits) and each commit row is rewritten once per tier.
   */
  static final int MERGE_FAN_IN = 8;

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
   * @param legacyHeads legacy layout only: the physical address of every {@code graph_head} row
   */
  record Read(List<ManifestRow> rows, Optional<Integer> stateFragment, Map<String, Long> legacyHeads) {}

  /** Reads the state rows of the handle's checked-out version: its last fragment, or the legacy fold. */
  static Read read(ManifestDataset manifest) {
    List<FragmentRef> fragments = manifest.fragments();
    if (fragments.isEmpty()) {
      return new Read(List.of(), Optional.empty(), Map.of());
    }
    FragmentRef last = fragments.get(fragments.size() - 1);
    List<ManifestRow> rows = new ArrayList<>();
    manifest.scanFragment(last.id(), List.of(), Optional.empty(), batch -> rows.addAll(ManifestColumns.decode(batch)));
    if (!rows.isEmpty() && rows.get(0).objectType().equals(ManifestRow.GRAPH_STATE)) {
      return new Read(List.copyOf(rows.subList(1, rows.size())), Optional.of(last.id()), Map.of());
    }
    return legacy(manifest);
  }

  private static Read legacy(ManifestDataset manifest) {
    List<ManifestRow> all = new ArrayList<>();
    Map<String, Long> heads = new HashMap<>();
    manifest.scanWithAddresses(batch -> {
      List<ManifestRow> decoded = ManifestColumns.decode(batch);
      org.apache.arrow.vector.UInt8Vector address =
          (org.apache.arrow.vector.UInt8Vector) batch.getVector(ManifestDataset.ROW_ADDRESS);
      for (int i = 0; i < decoded.size(); i++) {
        ManifestRow r = decoded.get(i);
        if (r.objectType().equals(ManifestRow.GRAPH_HEAD)) {
          heads.put(r.objectId(), address.getObjectNoOverflow(i).longValueExact());
        }
        if (!r.objectType().equals(ManifestRow.GRAPH_COMMIT)) {
          all.add(r);
        }
      }
    });
    return new Read(apply(List.of(), all), Optional.empty(), Map.copyOf(heads));
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
   * when none is due. Fragments are sized in tiers of powers of {@link #MERGE_FAN_IN}; whenever the
   * newest {@code MERGE_FAN_IN} fragments share a tier they merge into one of the next tier, and the
   * cascade is planned at once. Only a suffix is ever merged, so the fragment order stays the publish
   * order that {@link Lineage} reads newest first.
   */
  static List<FragmentRef> mergePlan(List<FragmentRef> lineage) {
    List<Integer> tiers = new ArrayList<>();
    List<Integer> firstIndex = new ArrayList<>();
    int start = -1;
    for (int i = 0; i < lineage.size(); i++) {
      tiers.add(tier(lineage.get(i).physicalRows()));
      firstIndex.add(i);
    }
    // Simulate the counter: merging the newest MERGE_FAN_IN of one tier yields one of the next.
    while (tiers.size() >= MERGE_FAN_IN) {
      int n = tiers.size();
      int t = tiers.get(n - 1);
      boolean same = true;
      for (int k = n - MERGE_FAN_IN; k < n; k++) {
        same &= tiers.get(k) == t;
      }
      if (!same) {
        break;
      }
      int from = firstIndex.get(n - MERGE_FAN_IN);
      tiers.subList(n - MERGE_FAN_IN, n).clear();
      firstIndex.subList(n - MERGE_FAN_IN, n).clear();
      tiers.add(t + 1);
      firstIndex.add(from);
      start = from;
    }
    return start < 0 ? List.of() : List.copyOf(lineage.subList(start, lineage.size()));
  }

  private static int tier(long rows) {
    int t = 0;
    for (long r = rows; r >= MERGE_FAN_IN; r /= MERGE_FAN_IN) {
      t++;
    }
    return t;
  }
}
