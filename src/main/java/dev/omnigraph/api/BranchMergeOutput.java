package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Reference {@code BranchMergeOutput}.
 *
 * @param actorId who merged; {@code null} (written as {@code "actor_id": null}) when nobody authenticated
 * @param branchDeleted absent unless {@code delete_branch} was asked; then whether it happened
 * @param branchDeleteError why the requested deletion did not happen (present iff
 *     {@code branch_deleted} is false); a landed merge never fails because of it
 * @param commitId the commit the merge published (absent for {@code already_up_to_date}); not in
 *     the reference schema, which lets clients ignore unknown fields
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BranchMergeOutput(
    @JsonProperty("source") String source,
    @JsonProperty("target") String target,
    @JsonProperty("outcome") MergeOutcome outcome,
    // Always present, null for an unauthenticated merge: the reference's schema types it string-or-null
    // and docs/merge.md lists it (a loopback server without tokens left it out).
    @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("actor_id") String actorId,
    @JsonProperty("branch_deleted") Boolean branchDeleted,
    @JsonProperty("branch_delete_error") String branchDeleteError,
    @JsonProperty("graph_commit_id") String commitId) {}
