package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Reference {@code CommitOutput}: one graph commit ({@code created_at} in Unix epoch µs).
 * {@code graph_branch} is null for a commit on main, as in the reference, and the branch name otherwise.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CommitOutput(
    @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonProperty("graph_branch") String graphBranch,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("parent_commit_id") String parentCommitId,
    @JsonProperty("merged_parent_commit_id") String mergedParentCommitId,
    @JsonProperty("actor_id") String actorId,
    @JsonProperty("created_at") long createdAt) {

  /** The branch the commit landed on, {@code main} for a null {@code graph_branch}. */
  public String branchName() {
    return graphBranch == null ? "main" : graphBranch;
  }
}
