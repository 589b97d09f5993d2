package dev.omnigraph.table;

import java.util.Optional;

/**
 * A maintenance effect on a table was refused before it started: the table's live Lance HEAD is not
 * the version the caller expected (its manifest pin). Nothing was written. The caller treats it as
 * uncovered drift or a lost race, never as something to compact over.
 */
public final class TableHeadMoved extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final TableAt expected;
  private final long liveHead;

  TableHeadMoved(TableAt expected, long liveHead) {
    super("live HEAD of " + expected.location() + expected.nativeBranch().map(b -> " (branch " + b + ")").orElse("")
        + " is version " + liveHead + ", not the expected version " + expected.version() + "; nothing was compacted");
    this.expected = expected;
    this.liveHead = liveHead;
  }

  /** The dataset branch at the version the caller expected to be its HEAD. */
  public TableAt expected() {
    return expected;
  }

  public String location() {
    return expected.location();
  }

  public Optional<String> nativeBranch() {
    return expected.nativeBranch();
  }

  public long expectedVersion() {
    return expected.version();
  }

  public long liveHead() {
    return liveHead;
  }
}
