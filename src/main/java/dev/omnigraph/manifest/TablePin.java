package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import java.util.Optional;

/**
 * A dataset's published state on one graph branch: which Lance version (on which native data
 * branch) the graph manifest pins, and its row count at that version.
 *
 * @param tableKey {@code node:Type} or {@code edge:Type}
 * @param identity stable table id and incarnation
 * @param location dataset key under the graph root ({@code nodes/<hex>})
 * @param version the pinned Lance version
 * @param nativeBranch the data table's Lance branch holding that version (empty: its main)
 * @param rowCount rows at that version
 * @param manifestVersion the manifest version that published this pin
 */
public record TablePin(
    TableKey tableKey,
    TableIdentity identity,
    String location,
    long version,
    Optional<String> nativeBranch,
    long rowCount,
    long manifestVersion) {

  /** The pinned dataset branch. */
  public TableRef ref() {
    return new TableRef(location, nativeBranch);
  }

  /** The pinned version of the dataset branch. */
  public TableAt at() {
    return new TableAt(ref(), version);
  }

  /** {@code node} or {@code edge}. */
  public String entityKind() {
    return tableKey.kind().prefix();
  }

  /** The type name without its kind prefix. */
  public String typeName() {
    return tableKey.typeName();
  }
}
