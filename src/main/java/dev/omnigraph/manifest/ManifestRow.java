package dev.omnigraph.manifest;

import java.util.Objects;

/**
 * One row of {@code __manifest}, as stored. Which columns are set depends on {@link #objectType()}:
 *
 * <ul>
 *   <li>{@code table} ({@code table:<identity>}): a registered dataset: table key, location, identity.
 *   <li>{@code table_version} ({@code table_version:<identity>@<manifest version>}): a published
 *       dataset version: identity, table key, location, version, native branch, row count; metadata
 *       {@code {"manifest_version":N,"commit":"<id>"}}. Append-only: the latest by manifest version
 *       is the visible one.
 *   <li>{@code table_tombstone} ({@code table_tombstone:<identity>}): the identity is dropped.
 *   <li>{@code graph_commit} ({@code graph_commit:<ulid>}): lineage; metadata carries parent, merged
 *       parent, actor, created_at (µs), branch and the manifest version it published.
 *   <li>{@code graph_head} ({@code graph_head:<branch>}): the one mutable row per branch; metadata
 *       {@code {"commit_id":...,"manifest_version":N}}. Every publish on a branch rewrites it, which
 *       is what makes two publishers on one branch conflict row-for-row in Lance.
 *   <li>{@code graph_state} ({@code graph_state}): the first row of a state fragment (see
 *       {@link ManifestLayout}); metadata {@code {"format":1,"manifest_version":N}}.
 * </ul>
 */
record ManifestRow(
    String objectId,
    String objectType,
    String location,
    String metadata,
    String baseObjects,
    String tableKey,
    Long stableTableId,
    Long tableIncarnationId,
    Long tableVersion,
    String tableBranch,
    Long rowCount) {

  static final String TABLE = "table";
  static final String TABLE_VERSION = "table_version";
  static final String TABLE_TOMBSTONE = "table_tombstone";
  static final String GRAPH_COMMIT = "graph_commit";
  static final String GRAPH_HEAD = "graph_head";
  static final String GRAPH_STATE = "graph_state";

  ManifestRow {
    Objects.requireNonNull(objectId, "objectId");
    Objects.requireNonNull(objectType, "objectType");
  }
}
