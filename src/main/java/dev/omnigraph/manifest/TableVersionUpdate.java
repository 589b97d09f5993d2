package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.table.TableAt;
import java.util.Optional;

/**
 * A table pin a publish sets: the dataset {@code identity} at Lance {@code version} on
 * {@code nativeBranch} (empty: the data table's main), with {@code rowCount} rows.
 */
public record TableVersionUpdate(
    TableKey tableKey,
    TableIdentity identity,
    String location,
    long version,
    Optional<String> nativeBranch,
    long rowCount) {

  /** The version this update pins, on its dataset branch. */
  public TableAt at() {
    return TableAt.of(location, nativeBranch, version);
  }
}
