package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/** Builds the rows the publisher and init write; the one place object ids are spelled. */
final class ManifestRows {

  private ManifestRows() {}

  static String headId(String branch) {
    return ManifestRow.GRAPH_HEAD + ":" + branch;
  }

  static String commitObjectId(String commitId) {
    return ManifestRow.GRAPH_COMMIT + ":" + commitId;
  }

  static ManifestRow table(TableKey tableKey, TableIdentity id, String location, long createdAtMicros) {
    ObjectNode m = ManifestJson.object().put("created_at", createdAtMicros);
    return new ManifestRow(ManifestRow.TABLE + ":" + id.hex(), ManifestRow.TABLE, location,
        ManifestJson.write(m), null, tableKey.toString(), id.stableTableId(), id.incarnationId(), null, null, null);
  }

  /** Retires {@code id}: its registration and pins stay in the state, invisible (time travel still reads them). */
  static ManifestRow tombstone(TableKey tableKey, TableIdentity id, String location, long createdAtMicros) {
    ObjectNode m = ManifestJson.object().put("created_at", createdAtMicros);
    return new ManifestRow(ManifestRow.TABLE_TOMBSTONE + ":" + id.hex(), ManifestRow.TABLE_TOMBSTONE, location,
        ManifestJson.write(m), null, tableKey.toString(), id.stableTableId(), id.incarnationId(), null, null, null);
  }

  static ManifestRow tableVersion(TableVersionUpdate u, long manifestVersion, String commitId) {
    ObjectNode m = ManifestJson.object().put("manifest_version", manifestVersion).put("commit", commitId);
    return new ManifestRow(
        ManifestRow.TABLE_VERSION + ":" + u.identity().hex() + "@" + manifestVersion,
        ManifestRow.TABLE_VERSION, u.location(), ManifestJson.write(m), null, u.tableKey().toString(),
        u.identity().stableTableId(), u.identity().incarnationId(), u.version(),
        u.nativeBranch().orElse(null), u.rowCount());
  }

  static ManifestRow commit(String commitId, Optional<String> parent, Optional<String> mergedParent,
      Optional<String> actor, long createdAtMicros, String branch, long manifestVersion) {
    ObjectNode m = ManifestJson.object();
    m.put("parent", parent.orElse(null));
    m.put("merged_parent", mergedParent.orElse(null));
    m.put("actor", actor.orElse(null));
    m.put("created_at", createdAtMicros);
    m.put("branch", branch);
    m.put("manifest_version", manifestVersion);
    var parents = ManifestJson.MAPPER.createArrayNode();
    parent.ifPresent(parents::add);
    mergedParent.ifPresent(parents::add);
    return new ManifestRow(commitObjectId(commitId), ManifestRow.GRAPH_COMMIT, null,
        ManifestJson.write(m), ManifestJson.write(parents), null, null, null, null, null, null);
  }

  static ManifestRow head(String branch, String commitId, long manifestVersion) {
    ObjectNode m = ManifestJson.object().put("commit_id", commitId).put("manifest_version", manifestVersion);
    return new ManifestRow(headId(branch), ManifestRow.GRAPH_HEAD, null, ManifestJson.write(m),
        null, null, null, null, null, null, null);
  }

  /** The marker that opens a state fragment written at {@code manifestVersion}. */
  static ManifestRow stateMarker(long manifestVersion) {
    ObjectNode m = ManifestJson.object().put("format", ManifestLayout.FORMAT).put("manifest_version", manifestVersion);
    return new ManifestRow(ManifestRow.GRAPH_STATE, ManifestRow.GRAPH_STATE, null, ManifestJson.write(m),
        null, null, null, null, null, null, null);
  }
}
