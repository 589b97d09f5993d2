package dev.omnigraph.manifest;

import dev.omnigraph.table.ManifestDataset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decoded latest state of each graph branch's manifest, shared by every handle of one graph
 * root in this process. An entry is keyed by the exact manifest version stamp it was read at
 * (version number and commit time), and a manifest version is immutable, so a hit is always
 * exact: the only object-store cost of reading an unchanged branch is learning its latest version.
 * The publisher feeds the state it produced (previous rows with its upserted rows applied) so the
 * next write on the branch does not rescan what this process just wrote (issue 11).
 *
 * <p>Foreign writers (another process) are seen as a new stamp and cost one full scan, as before.
 */
final class ManifestStates {

  private static final ConcurrentHashMap<String, ManifestStates> ROOTS = new ConcurrentHashMap<>();

  /** The latest entry per branch: bounded by the number of branches. */
  private final ConcurrentHashMap<String, Entry> latest = new ConcurrentHashMap<>();

  private record Entry(String stamp, List<ManifestRow> rows, ManifestState state) {}

  static ManifestStates forRoot(String rootUri) {
    return ROOTS.computeIfAbsent(rootUri, r -> new ManifestStates());
  }

  /** The state of the handle's checked-out version of {@code branch}: cached, or one full scan. */
  ManifestState read(ManifestDataset manifest, String branch) {
    String stamp = manifest.stamp();
    Entry e = latest.get(branch);
    if (e != null && e.stamp.equals(stamp)) {
      return e.state;
    }
    List<ManifestRow> rows = new ArrayList<>();
    manifest.scan(batch -> rows.addAll(ManifestColumns.decode(batch)));
    ManifestState state = ManifestState.decode(branch, manifest.version(), rows);
    latest.put(branch, new Entry(stamp, List.copyOf(rows), state));
    return state;
  }

  /**
   * Records the state a publish produced: the rows of {@code previousStamp} with {@code upserted}
   * applied by object id, at {@code version}/{@code stamp}. Does nothing when the previous rows
   * are not cached (the next read scans instead).
   */
  void published(String branch, String previousStamp, List<ManifestRow> upserted, long version, String stamp) {
    Entry e = latest.get(branch);
    if (e == null || !e.stamp.equals(previousStamp)) {
      latest.remove(branch);
      return;
    }
    Map<String, ManifestRow> byId = new LinkedHashMap<>();
    for (ManifestRow r : e.rows) {
      byId.put(r.objectId(), r);
    }
    for (ManifestRow r : upserted) {
      byId.put(r.objectId(), r);
    }
    List<ManifestRow> rows = List.copyOf(byId.values());
    latest.put(branch, new Entry(stamp, rows, ManifestState.decode(branch, version, rows)));
  }

  /**
   * Records that {@code stamp} holds exactly the rows of {@code previousStamp} (a physical-only
   * compaction).
   */
  void sameRows(String branch, String previousStamp, long version, String stamp) {
    Entry e = latest.get(branch);
    if (e == null || !e.stamp.equals(previousStamp)) {
      latest.remove(branch);
      return;
    }
    latest.put(branch, new Entry(stamp, e.rows, ManifestState.decode(branch, version, e.rows)));
  }

  /** Forgets {@code branch} (deleted, or its state is no longer known). */
  void forget(String branch) {
    latest.remove(branch);
  }
}
