package dev.omnigraph.api.recovery;

import java.util.List;

/** The settlement of one sidecar. */
public record Outcome(String operationId, String writerKind, String branch, Verdict verdict, Action action,
    String auditKind, List<TableOutcome> tables) {}
