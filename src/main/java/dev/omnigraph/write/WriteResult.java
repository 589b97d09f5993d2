package dev.omnigraph.write;

import java.util.Map;
import java.util.Optional;

/**
 * A landed write: its graph commit and manifest version (absent for a write that changed nothing),
 * and the rows each table holds afterwards.
 */
public record WriteResult(
    Optional<String> commitId, long manifestVersion, Map<String, Long> rowCounts, int attempts) {}
