package dev.omnigraph.manifest;

import dev.omnigraph.api.GraphCommit;
import com.fasterxml.jackson.databind.JsonNode;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.ManifestDataset.FragmentRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads the graph commits of one manifest version newest first, one lineage fragment at a time, and
 * stops as soon as the caller has what it needs: a page of the commit list, or the commits since a
 * known one. What it reads is bounded by what the caller asks for, not by the history.
 *
 * <p>The lineage visible on a branch is the commits its ancestors published up to the fork, then
 * its own: every one is reachable from its head. A merge commit names the merged source head as its
 * merged parent but does not copy the source's own commits (as in the reference: a deleted branch's
 * commits are not kept), so a merge base is computed over both branches' lineages together. Newest
 * first is the contract's order: manifest version, then created-at, then commit id, all descending.
 */
final class Lineage {

  private Lineage() {}

  /**
   * Offers the commits of {@code manifest}'s checked-out version to {@code visitor} newest first,
   * until it returns false or the lineage ends.
   *
   * @param stateFragment the version's state fragment, excluded (empty for a legacy layout)
   */
  static void newestFirst(ManifestDataset manifest, Optional<Integer> stateFragment, Predicate<GraphCommit> visitor) {
    List<FragmentRef> fragments = ManifestLayout.lineageFragments(manifest, stateFragment);
    boolean[] going = {true};
    for (int i = fragments.size() - 1; i >= 0 && going[0]; i--) {
      if (stateFragment.isEmpty()) {
        // Legacy layout: commit rows among state rows, oldest first within a fragment.
        List<GraphCommit> commits = new ArrayList<>();
        manifest.scanFragment(fragments.get(i).id(), ManifestLayout.LINEAGE_COLUMNS,
            Optional.of(ManifestLayout.COMMITS_ONLY), batch -> {
              for (ManifestRow r : ManifestColumns.decode(batch)) {
                commits.add(decode(r));
              }
            });
        commits.sort(CommitCursor.NEWEST_FIRST);
        for (GraphCommit c : commits) {
          if (!visitor.test(c)) {
            return;
          }
        }
        continue;
      }
      // A lineage fragment holds commit rows only, newest first: read only as far as needed.
      manifest.scanFragment(fragments.get(i).id(), ManifestLayout.LINEAGE_COLUMNS, Optional.empty(), BATCH_ROWS,
          batch -> {
            for (ManifestRow r : ManifestColumns.decode(batch)) {
              if (!visitor.test(decode(r))) {
                going[0] = false;
                return false;
              }
            }
            return true;
          });
    }
  }

  /**
   * The commit {@code commitId} in {@code manifest}'s checked-out version, if its lineage holds it.
   * The id is matched by Lance (the {@code object_id} column only, through the audited literal
   * helper), fragment by fragment from the newest, so the rows read are the ids, not the commits.
   */
  static Optional<GraphCommit> find(ManifestDataset manifest, Optional<Integer> stateFragment, String commitId) {
    String filter = ManifestColumns.OBJECT_ID + " = "
        + dev.omnigraph.table.SqlLiteral.quote(ManifestRows.commitObjectId(commitId));
    List<FragmentRef> fragments = ManifestLayout.lineageFragments(manifest, stateFragment);
    for (int i = fragments.size() - 1; i >= 0; i--) {
      List<GraphCommit> hit = new ArrayList<>();
      manifest.scanFragment(fragments.get(i).id(), ManifestLayout.LINEAGE_COLUMNS, Optional.of(filter), batch -> {
        for (ManifestRow r : ManifestColumns.decode(batch)) {
          hit.add(decode(r));
        }
      });
      if (!hit.isEmpty()) {
        return Optional.of(hit.get(0));
      }
    }
    return Optional.empty();
  }

  /** Lineage rows read per batch: a page of the commit list rarely needs more than one batch. */
  static final int BATCH_ROWS = 256;

  static GraphCommit decode(ManifestRow r) {
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
}
