package dev.omnigraph.api.recovery;

/** One table's classification and what recovery did about it. */
public record TableOutcome(String tableKey, TableClass tableClass, String action, long fromVersion,
    long toVersion) {}
