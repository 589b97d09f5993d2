package dev.omnigraph.manifest;

import java.util.Optional;

/**
 * A table pin a publish sets: the dataset {@code identity} at Lance {@code version} on
 * {@code nativeBranch} (empty: the data table's main), with {@code rowCount} rows.
 */
public record TableVersionUpdate(
    String tableKey,
    TableIdentity identity,
    String location,
    long version,
    Optional<String> nativeBranch,
    long rowCount) {}
