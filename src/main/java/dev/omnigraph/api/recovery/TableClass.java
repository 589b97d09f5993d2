package dev.omnigraph.api.recovery;

/** Per-table classification (the write path's names). */
public enum TableClass {
  /** HEAD is exactly our pre-minted transaction at the planned version. */
  ROLLED_PAST_EXPECTED,
  /** HEAD is still at the pin (or a first-touch ref was never created). */
  NO_MOVEMENT,
  /** HEAD is one past the pin but the transaction there is not ours. */
  UNEXPECTED_AT_P1,
  /** HEAD moved more than one version (other than our effect plus our own compensation). */
  UNEXPECTED_MULTISTEP,
  /** HEAD is behind the manifest pin: should be impossible. */
  INVARIANT_VIOLATION,
  /** Our effect followed by a Restore to the pin: a rollback that stopped before its publish. */
  COMPENSATED,
  /**
   * Our exact transaction at the planned version and again at each version after it, nothing
   * else: our own effect committed more than once. A lost response to the commit's manifest PUT
   * does this: the object store client under Lance retries the PUT, meets its own object (412),
   * and Lance rebases the same transaction one version up (docs/recovery.md). Ours, so never foreign;
   * recovery compensates it back to the pin like any unpublished effect.
   */
  DUPLICATED,
  /**
   * A branch merge's chain landed only as a contiguous prefix of its pre-minted transactions
   * (docs/merge.md, "Recovery of a merge"): ours, incomplete, so rollback-only.
   */
  PARTIAL_CHAIN
}
