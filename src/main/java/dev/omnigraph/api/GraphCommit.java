package dev.omnigraph.api;

import java.util.Optional;

/**
 * One graph commit of the lineage (a {@code graph_commit} row).
 *
 * @param id ULID
 * @param parent the previous head of the branch it was published on (empty for genesis)
 * @param mergedParent the source head a merge brought in
 * @param actor who wrote it, resolved server-side
 * @param createdAtMicros Unix epoch microseconds
 * @param branch the graph branch it was published on ({@code main} for main)
 * @param manifestVersion the manifest version its publish produced (its snapshot)
 */
public record GraphCommit(
    String id,
    Optional<String> parent,
    Optional<String> mergedParent,
    Optional<String> actor,
    long createdAtMicros,
    String branch,
    long manifestVersion) {}
