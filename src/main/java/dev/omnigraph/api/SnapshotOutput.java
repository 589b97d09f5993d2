package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Reference {@code SnapshotOutput}: the published state of one graph branch.
 *
 * @param graphBranch the branch
 * @param graphManifestVersion the {@code __manifest} version the state was read at
 * @param internalSchemaVersion the branch's storage stamp
 * @param datasets every visible dataset, sorted by entity kind then type name
 */
public record SnapshotOutput(
    @JsonProperty("graph_branch") String graphBranch,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("internal_schema_version") int internalSchemaVersion,
    @JsonProperty("datasets") List<Dataset> datasets) {

  /** Reference {@code SnapshotDatasetOutput}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Dataset(
      @JsonProperty("entity_kind") String entityKind,
      @JsonProperty("type_name") String typeName,
      @JsonProperty("dataset_path") String datasetPath,
      @JsonProperty("published_dataset_version") long publishedDatasetVersion,
      @JsonProperty("entity_count") long entityCount,
      @JsonProperty("native_dataset_branch") String nativeDatasetBranch) {}
}
