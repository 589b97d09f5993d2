package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Reference {@code CommitOutput}: one graph commit ({@code created_at} in Unix epoch µs). */
public record CommitOutput(
    @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonProperty("graph_branch") String graphBranch,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("parent_commit_id") String parentCommitId,
    @JsonProperty("merged_parent_commit_id") String mergedParentCommitId,
    @JsonProperty("actor_id") String actorId,
    @JsonProperty("created_at") long createdAt) {}
