package dev.omnigraph.manifest;

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
 * What one coherent scan of {@code __manifest} at one (branch, version) says: the visible table
 * pins and the lineage, decoded together so table state and commit history can never come from
 * two different manifest versions.
 *
 * @param branch graph branch ({@code main} or a branch name)
 * @param manifestVersion the manifest version scanned
 * @param tables visible table pins by table key (latest pin per identity, tombstones removed)
 * @param registered every registered identity by table key, pinned or not, tombstoned excluded
 * @param commits every graph commit visible at this version, by id
 * @param heads every {@code graph_head} row visible here (own and inherited), branch → commit id
 */
public record ManifestState(
    String branch,
    long manifestVersion,
    Map<String, TablePin> tables,
    Map<String, TableIdentity> registered,
    Map<String, GraphCommit> commits,
    Map<String, String> heads) {

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

  /** Commits reachable from {@code head} through parent and merged-parent links, newest first. */
  public List<GraphCommit> history(Optional<String> head) {
    List<GraphCommit> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<String> frontier = new ArrayList<>();
    head.ifPresent(frontier::add);
    while (!frontier.isEmpty()) {
      String id = frontier.remove(frontier.size() - 1);
      if (!seen.add(id)) {
        continue;
      }
      GraphCommit c = commits.get(id);
      if (c == null) {
        throw new ManifestCorrupt("graph_commit:" + id, "referenced as a parent but absent");
      }
      out.add(c);
      c.parent().ifPresent(frontier::add);
      c.mergedParent().ifPresent(frontier::add);
    }
    // ULIDs minted by one process sort by creation; created_at orders across processes.
    out.sort((a, b) -> {
      int t = Long.compare(b.createdAtMicros(), a.createdAtMicros());
      return t != 0 ? t : b.id().compareTo(a.id());
    });
    return out;
  }

  /** Decodes the rows of one scan. */
  static ManifestState decode(String branch, long manifestVersion, List<ManifestRow> rows) {
    Map<TableIdentity, ManifestRow> registrations = new HashMap<>();
    Map<TableIdentity, ManifestRow> latest = new HashMap<>();
    Map<TableIdentity, Long> latestMv = new HashMap<>();
    Set<TableIdentity> tombstones = new HashSet<>();
    Map<String, GraphCommit> commits = new HashMap<>();
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
        case ManifestRow.TABLE_TOMBSTONE -> tombstones.add(identity(r));
        case ManifestRow.GRAPH_COMMIT -> {
          GraphCommit c = commit(r);
          commits.put(c.id(), c);
        }
        case ManifestRow.GRAPH_HEAD -> {
          JsonNode m = ManifestJson.read(r.objectId(), r.metadata());
          heads.put(r.objectId().substring(ManifestRow.GRAPH_HEAD.length() + 1),
              ManifestJson.requiredText(r.objectId(), m, "commit_id"));
        }
        default -> throw new ManifestCorrupt(r.objectId(), "unknown object_type '" + r.objectType() + "'");
      }
    }
    Map<String, TablePin> tables = new TreeMap<>();
    Map<String, TableIdentity> registered = new TreeMap<>();
    for (Map.Entry<TableIdentity, ManifestRow> e : registrations.entrySet()) {
      TableIdentity id = e.getKey();
      if (tombstones.contains(id)) {
        continue;
      }
      ManifestRow reg = e.getValue();
      TableIdentity clash = registered.put(reg.tableKey(), id);
      if (clash != null) {
        throw new ManifestCorrupt(reg.objectId(), "table key " + reg.tableKey() + " has two live identities " + clash + " and " + id);
      }
      ManifestRow v = latest.get(id);
      if (v != null) {
        tables.put(reg.tableKey(), new TablePin(
            reg.tableKey(),
            id,
            reg.location(),
            required(v, v.tableVersion(), "table_version"),
            Optional.ofNullable(v.tableBranch()),
            required(v, v.rowCount(), "row_count"),
            latestMv.get(id)));
      }
    }
    return new ManifestState(branch, manifestVersion, Collections.unmodifiableMap(tables),
        Collections.unmodifiableMap(registered), Collections.unmodifiableMap(commits),
        Collections.unmodifiableMap(heads));
  }

  private static TableIdentity identity(ManifestRow r) {
    return new TableIdentity(required(r, r.stableTableId(), "stable_table_id"),
        required(r, r.tableIncarnationId(), "table_incarnation_id"));
  }

  private static GraphCommit commit(ManifestRow r) {
    JsonNode m = ManifestJson.read(r.objectId(), r.metadata());
    return new GraphCommit(
        r.objectId().substring(ManifestRow.GRAPH_COMMIT.length() + 1),
        ManifestJson.optionalText(m, "parent"),
        ManifestJson.optionalText(m, "merged_parent"),
        ManifestJson.optionalText(m, "actor"),
        ManifestJson.requiredLong(r.objectId(), m, "created_at"),
        ManifestJson.requiredText(r.objectId(), m, "branch"),
        ManifestJson.requiredLong(r.objectId(), m, "manifest_version"));
  }

  private static long required(ManifestRow r, Long v, String column) {
    if (v == null) {
      throw new ManifestCorrupt(r.objectId(), "column " + column + " is null");
    }
    return v;
  }
}
