package dev.omnigraph.table;

import java.util.Optional;

/**
 * {@link DataTables#commit} could not establish whether its transaction landed: the commit call
 * failed and so did the re-read that would have settled it (storage unreachable, version
 * unreadable). The transaction may be durable. Callers must treat this as the unknown outcome
 * (RecoveryRequired): never clean up the staged files, settle it later by re-reading the table's
 * transactions for {@link #uuid()}. The cause is the failed re-read; the commit call's own failure,
 * if it threw, is attached as a suppressed exception.
 */
public final class TableCommitUnknownException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String location;
  private final Optional<String> nativeBranch;
  private final long readVersion;
  private final String uuid;

  TableCommitUnknownException(
      String location, Optional<String> nativeBranch, long readVersion, String uuid, Throwable cause) {
    super("commit of transaction " + uuid + " on " + location
        + nativeBranch.map(b -> " (branch " + b + ")").orElse("") + " from version " + readVersion
        + " has an unknown outcome: " + cause, cause);
    this.location = location;
    this.nativeBranch = nativeBranch;
    this.readVersion = readVersion;
    this.uuid = uuid;
  }

  /** The table's dataset key under the graph root. */
  public String location() {
    return location;
  }

  /** The Lance branch committed to (empty: the table's main). */
  public Optional<String> nativeBranch() {
    return nativeBranch;
  }

  /** The read version the transaction was planned against. */
  public long readVersion() {
    return readVersion;
  }

  /** The pre-minted uuid to look for when settling the outcome. */
  public String uuid() {
    return uuid;
  }
}
