package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableAt;
import java.util.Optional;

/**
 * One table's planned effect in a write attempt.
 *
 * @param tableKey {@code node:Type}
 * @param identity stable id and incarnation
 * @param location dataset key
 * @param target the native branch the effect lands on (empty: the table's main)
 * @param pinnedBranch the native branch the manifest pin names (where the pinned version lives)
 * @param pinnedVersion the manifest pin (live HEAD must equal it before any effect)
 * @param firstTouch true when {@code target} does not exist yet and this write forks it
 * @param staged the staged transaction; absent for a first-touch table until its ref exists
 * @param stager stages a first-touch table once its ref exists, with the pre-minted uuid
 * @param uuid the transaction uuid (pre-minted for first-touch, else the staged one's)
 * @param rowCountAfter rows the table will hold after the commit
 * @param rowsAffected rows this effect writes (inserted, updated or replaced) or deletes
 */
record TableEffect(
    TableKey tableKey,
    TableIdentity identity,
    String location,
    Optional<String> target,
    Optional<String> pinnedBranch,
    long pinnedVersion,
    boolean firstTouch,
    Optional<StagedWrite> staged,
    Stager stager,
    String uuid,
    long rowCountAfter,
    long rowsAffected) {

  /** Stages a deferred first-touch effect on its newly created ref. */
  @FunctionalInterface
  interface Stager {
    StagedWrite stage(long readVersion, String uuid);
  }

  /**
   * Where the effect lands, from the pinned version: the target ref (for a first touch, the one it
   * creates there).
   */
  TableAt landsAt() {
    return TableAt.of(location, target, pinnedVersion);
  }

  /** The read version the commit uses: the pin (a first-touch fork starts at the pinned version). */
  long readVersion() {
    return staged.map(StagedWrite::readVersion).orElse(pinnedVersion);
  }
}
