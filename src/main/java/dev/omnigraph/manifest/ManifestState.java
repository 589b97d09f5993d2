package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code __manifest} at one (branch, version) says the graph is: the visible table pins,
 * registrations and graph heads, read from that version's state rows (see {@link ManifestLayout}).
 * The commits themselves are lineage, read on demand and paged ({@link Lineage}), so the cost of a
 * state does not grow with history.
 *
 * @param branch graph branch ({@code main} or a branch name)
 * @param manifestVersion the manifest version scanned
 * @param tables visible table pins by table key (latest pin per identity, tombstones removed)
 * @param registered every registered identity by table key, pinned or not, tombstoned excluded
 * @param heads every {@code graph_head} row visible here (own and inherited), branch → commit id
 * @param retired the last pin of every tombstoned (dropped) identity that has one: what a schema
 *     apply revives when a soft-dropped type is declared again
 */
public record ManifestState(
    String branch,
    long manifestVersion,
    Map<TableKey, TablePin> tables,
    Map<TableKey, TableIdentity> registered,
    Map<String, String> heads,
    Map<TableIdentity, TablePin> retired) {

  public static final String MAIN = "main";

  /** This branch's own head row, absent on a branch that has not published yet. */
  public Optional<String> ownHead() {
    return Optional.ofNullable(heads.get(branch));
  }

  /**
   * The commit this branch's next commit descends from: its own head, else the head of the nearest
   * ancestor branch in {@code parentChain} (nearest first, ending at main) whose head row this
   * manifest inherited at fork time.
   */
  public Optional<String> effectiveHead(List<String> parentChain) {
    if (heads.containsKey(branch)) {
      return Optional.of(heads.get(branch));
    }
    for (String parent : parentChain) {
      if (heads.containsKey(parent)) {
        return Optional.of(heads.get(parent));
      }
    }
    return Optional.empty();
  }

  /** Decodes state rows (commit rows, if any, are lineage and ignored here). */
  static ManifestState decode(String branch, long manifestVersion, List<ManifestRow> rows) {
    Map<TableIdentity, ManifestRow> registrations = new HashMap<>();
    Map<TableIdentity, ManifestRow> latest = new HashMap<>();
    Map<TableIdentity, Long> latestMv = new HashMap<>();
    Map<TableIdentity, Long> tombstones = new HashMap<>();
    Map<String, String> heads = new TreeMap<>();
    for (ManifestRow r : rows) {
      switch (r.objectType()) {
        case ManifestRow.TABLE -> registrations.put(identity(r), r);
        case ManifestRow.TABLE_VERSION -> {
          TableIdentity id = identity(r);
          long mv = ManifestJson.requiredLong(r.objectId(), ManifestJson.read(r.objectId(), r.metadata()), "manifest_version");
          if (mv > manifestVersion) {
            throw new ManifestCorrupt(r.objectId(), "claims manifest version " + mv + " above the scanned " + manifestVersion);
          }
          Long prev = latestMv.get(id);
          if (prev == null || mv > prev) {
            latestMv.put(id, mv);
            latest.put(id, r);
          } else if (mv == prev) {
            throw new ManifestCorrupt(r.objectId(), "two pins of " + id + " at manifest version " + mv);
          }
        }
        case ManifestRow.TABLE_TOMBSTONE -> tombstones.put(identity(r), createdAt(r));
        case ManifestRow.GRAPH_COMMIT, ManifestRow.GRAPH_STATE -> {
          // lineage, and the state fragment's marker: not state
        }
        case ManifestRow.GRAPH_HEAD -> {
          JsonNode m = ManifestJson.read(r.objectId(), r.metadata());
          heads.put(r.objectId().substring(ManifestRow.GRAPH_HEAD.length() + 1),
              ManifestJson.requiredText(r.objectId(), m, "commit_id"));
        }
        default -> throw new ManifestCorrupt(r.objectId(), "unknown object_type '" + r.objectType() + "'");
      }
    }
    Map<TableKey, TablePin> tables = new TreeMap<>();
    Map<TableKey, TableIdentity> registered = new TreeMap<>();
    Map<TableIdentity, TablePin> retired = new HashMap<>();
    for (Map.Entry<TableIdentity, ManifestRow> e : registrations.entrySet()) {
      TableIdentity id = e.getKey();
      ManifestRow reg = e.getValue();
      // A tombstone retires the registration it follows; registering the identity again after it
      // (schema apply reviving a soft-dropped type) makes it live again.
      Long tombstoned = tombstones.get(id);
      if (tombstoned != null && tombstoned >= createdAt(reg)) {
        ManifestRow v = latest.get(id);
        if (v != null) {
          retired.put(id, pin(key(reg), reg, id, v, latestMv.get(id)));
        }
        continue;
      }
      TableKey key = key(reg);
      TableIdentity clash = registered.put(key, id);
      if (clash != null) {
        throw new ManifestCorrupt(reg.objectId(), "table key " + reg.tableKey() + " has two live identities " + clash + " and " + id);
      }
      ManifestRow v = latest.get(id);
      if (v != null) {
        tables.put(key, pin(key, reg, id, v, latestMv.get(id)));
      }
    }
    return new ManifestState(branch, manifestVersion, Collections.unmodifiableMap(tables),
        Collections.unmodifiableMap(registered), Collections.unmodifiableMap(heads),
        Collections.unmodifiableMap(retired));
  }

  private static TableKey key(ManifestRow reg) {
    if (reg.tableKey() != null) {
      try {
        return TableKey.parse(reg.tableKey());
      } catch (IllegalArgumentException e) {
        // refused below, naming the row
      }
    }
    throw new ManifestCorrupt(reg.objectId(), "table key '" + reg.tableKey() + "' is not node:T or edge:T");
  }

  private static TablePin pin(TableKey key, ManifestRow reg, TableIdentity id, ManifestRow v, long manifestVersion) {
    return new TablePin(key, id, reg.location(), required(v, v.tableVersion(), "table_version"),
        Optional.ofNullable(v.tableBranch()), required(v, v.rowCount(), "row_count"), manifestVersion);
  }

  /** A registration's or tombstone's {@code created_at} (the publish's commit time). */
  private static long createdAt(ManifestRow r) {
    return ManifestJson.requiredLong(r.objectId(), ManifestJson.read(r.objectId(), r.metadata()), "created_at");
  }

  private static TableIdentity identity(ManifestRow r) {
    return new TableIdentity(required(r, r.stableTableId(), "stable_table_id"),
        required(r, r.tableIncarnationId(), "table_incarnation_id"));
  }

  private static long required(ManifestRow r, Long v, String column) {
    if (v == null) {
      throw new ManifestCorrupt(r.objectId(), "column " + column + " is null");
    }
    return v;
  }
}
