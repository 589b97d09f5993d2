package dev.omnigraph.api;

import java.util.Map;
import java.util.Optional;

/**
 * A landed write: its graph commit and manifest version (absent for a write that changed nothing),
 * the rows each touched table holds afterwards, and how it got there.
 *
 * @param rowCounts rows each touched table holds after the commit, by table key
 * @param attempts prepare attempts: 1, plus one per effect-free reprepare
 * @param affectedRows rows each touched table had written (inserted, updated, replaced) or deleted
 *     by this commit, by table key; a cascaded edge delete counts on the edge table
 * @param publishAttempts manifest CAS attempts of the publish (1 when it landed first time; 0 for
 *     a write that changed nothing)
 */
public record WriteResult(
    Optional<String> commitId, long manifestVersion, Map<String, Long> rowCounts, int attempts,
    Map<String, Long> affectedRows, int publishAttempts, Optional<GraphCommit> commit) {}
