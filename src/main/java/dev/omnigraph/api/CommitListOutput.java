package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Reference {@code CommitListOutput}: one page of commits, newest first by (graph-manifest version,
 * created-at, commit id).
 *
 * @param commits this page
 * @param nextCursor an addition to the reference shape: the opaque cursor of the next page, to pass
 *     back as {@code cursor}; absent (null) on the last page
 */
public record CommitListOutput(
    @JsonProperty("commits") List<CommitOutput> commits,
    @JsonProperty("next_cursor") @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {}
