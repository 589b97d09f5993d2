package dev.omnigraph.table;

import java.util.Optional;

/**
 * A maintenance effect on a table was refused before it started: the table's live Lance HEAD is not
 * the version the caller expected (its manifest pin). Nothing was written. The caller treats it as
 * uncovered drift or a lost race, never as something to compact over.
 */
public final class TableHeadMoved extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String location;
  private final Optional<String> nativeBranch;
  private final long expectedVersion;
  private final long liveHead;

  TableHeadMoved(String location, Optional<String> nativeBranch, long expectedVersion, long liveHead) {
    super("live HEAD of " + location + nativeBranch.map(b -> " (branch " + b + ")").orElse("") + " is version "
        + liveHead + ", not the expected version " + expectedVersion + "; nothing was compacted");
    this.location = location;
    this.nativeBranch = nativeBranch;
    this.expectedVersion = expectedVersion;
    this.liveHead = liveHead;
  }

  public String location() {
    return location;
  }

  public Optional<String> nativeBranch() {
    return nativeBranch;
  }

  public long expectedVersion() {
    return expectedVersion;
  }

  public long liveHead() {
    return liveHead;
  }
}
