package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import java.util.Optional;

/**
 * What a writer prepares against: the captured token and manifest state, the accepted schema, and
 * the data-table layer.
 */
record PrepareContext(AuthorityToken token, ManifestState state, SchemaIr schema, DataTables tables) {

  /** The table's pin on the target branch. */
  TablePin pin(TableKey tableKey) {
    TablePin pin = state.tables().get(tableKey);
    if (pin == null) {
      throw new IllegalStateException("table " + tableKey + " has no published pin on " + token.branch());
    }
    return pin;
  }

  /** The native branch a write to the graph branch lands on: none for main, else the same name. */
  Optional<String> targetBranch() {
    return token.branch().equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(token.branch());
  }

  /**
   * The pinned table's dataset on the write's native branch at {@code readVersion}: where a staged
   * effect reads and commits (for a first touch, on the ref the effect forks from the pin).
   */
  TableAt targetAt(TablePin pin, long readVersion) {
    return TableAt.of(pin.location(), targetBranch(), readVersion);
  }

  /** True when the pin already lives on the write's native branch (no fork needed). */
  boolean ownsTarget(TablePin pin) {
    return pin.nativeBranch().equals(targetBranch());
  }
}
