package dev.omnigraph.merge;

/**
 * The bounds a merge plan must stay within (docs/merge.md, "Bounded memory"). Production always plans
 * with {@link #PRODUCTION}; a smaller record exists so tests can reach each
 * {@link dev.omnigraph.api.ResourceLimitExceeded} with a small graph. Nothing reads limits from the
 * environment, and no value may exceed production's: a limit can only be tightened.
 *
 * @param chunkRows rows per chunk transaction
 * @param chunkBytes Arrow bytes per chunk transaction, and the most one row may hold
 * @param chain data transactions per table chain
 * @param validationBudget bytes the validation view of the whole merge may retain
 */
public record MergeLimits(int chunkRows, long chunkBytes, int chain, long validationBudget) {

  /** A merge's bounds (docs/merge.md, "Bounded memory"): 8,192 rows / 32 MiB per chunk, 1,024 transactions, one 32 MiB budget. */
  public static final MergeLimits PRODUCTION = new MergeLimits(MergePlanner.MAX_CHUNK_ROWS,
      MergePlanner.MAX_CHUNK_BYTES, MergePlanner.MAX_CHAIN, MergePlanner.VALIDATION_BUDGET);

  /**
   * @throws IllegalArgumentException for a non-positive value or one above production's
   */
  public MergeLimits {
    if (chunkRows < 1 || chunkBytes < 1 || chain < 1 || validationBudget < 1) {
      throw new IllegalArgumentException("merge limits must be positive: " + chunkRows + ", " + chunkBytes + ", "
          + chain + ", " + validationBudget);
    }
    if (chunkRows > MergePlanner.MAX_CHUNK_ROWS || chunkBytes > MergePlanner.MAX_CHUNK_BYTES
        || chain > MergePlanner.MAX_CHAIN || validationBudget > MergePlanner.VALIDATION_BUDGET) {
      throw new IllegalArgumentException("merge limits can only be tightened below the write path's bounds");
    }
  }
}
