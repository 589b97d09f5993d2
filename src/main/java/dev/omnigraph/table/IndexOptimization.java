package dev.omnigraph.table;

import java.util.List;
import java.util.Objects;

/**
 * What {@link TableIndexes#optimizeIndices} established, from evidence re-read after the Lance call
 * (the live head and the transaction of every version after the expected one), never from the
 * type or message of a Lance exception.
 *
 * <p>lance-java 7.0.0 mints the uuid of an index transaction itself (neither
 * {@code optimizeIndices} nor {@code createIndex} takes one), so "ours" cannot be proven by uuid
 * the way {@link DataTables#commit} proves a staged write. The evidence is the shape instead: every
 * version after {@code readVersion} is a {@code CreateIndex} planned on the version before it. The
 * caller must hold the table's write gate, so that no other writer can produce that shape.
 *
 * @param kind the classification
 * @param readVersion the version the caller expected to be the live head
 * @param version {@link Kind#OPTIMIZED}: the new head; otherwise the live head observed
 * @param transactions the transactions recorded after {@code readVersion}, oldest first (their
 *     uuids are what a sidecar or manifest should record after the fact)
 * @param detail what was observed, for logs
 * @param stale the indexes that still leave a live fragment of {@code version} uncovered (an index
 *     Lance could not fold: reported pending by the Optimize writer, never a failure); empty when
 *     every index is current
 */
public record IndexOptimization(Kind kind, long readVersion, long version, List<TxInfo> transactions,
    String detail, List<String> stale) {

  /** The classifications. */
  public enum Kind {
    /** Nothing to fold (every index covers every fragment) and no key index missing: no commit was attempted; {@code version = readVersion}. */
    UP_TO_DATE,
    /** The live head was not {@code readVersion} before any effect: nothing was done. */
    HEAD_MOVED,
    /**
     * Every version after {@code readVersion} up to the head is a {@code CreateIndex} chained on its
     * predecessor, the first on {@code readVersion}: the index work landed; pin {@code version}.
     */
    OPTIMIZED,
    /** The head is still {@code readVersion} after the call (it failed): effect-free. */
    NOT_LANDED,
    /**
     * Anything else (a foreign commit among the new versions, an unexpected operation): the table
     * moved and not only by index work, so the caller must treat its pin as stale.
     */
    UNCLASSIFIED
  }

  public IndexOptimization {
    Objects.requireNonNull(kind, "kind");
    transactions = List.copyOf(Objects.requireNonNull(transactions, "transactions"));
    Objects.requireNonNull(detail, "detail");
    stale = List.copyOf(Objects.requireNonNull(stale, "stale"));
  }
}
