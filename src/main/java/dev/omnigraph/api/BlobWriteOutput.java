package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of a Blob cell write ({@code PUT|DELETE /graphs/{id}/blob}, ours: docs/http-api.md,
 * "Blob writes"): the one graph commit it published and the cell's new state.
 *
 * @param etag the new cell version's strong entity tag (also the {@code ETag} header); null when
 *     the write cleared the cell
 * @param size the new payload's length; null when cleared
 */
public record BlobWriteOutput(
    @JsonProperty("branch") String branch,
    @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonProperty("manifest_version") long manifestVersion,
    @JsonProperty("etag") String etag,
    @JsonProperty("size") Long size) {}
