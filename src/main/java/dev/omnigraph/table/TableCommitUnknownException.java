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

  private final TableAt readAt;
  private final String uuid;

  TableCommitUnknownException(TableAt readAt, String uuid, Throwable cause) {
    super("commit of transaction " + uuid + " on " + readAt.location()
        + readAt.nativeBranch().map(b -> " (branch " + b + ")").orElse("") + " from version " + readAt.version()
        + " has an unknown outcome: " + cause, cause);
    this.readAt = readAt;
    this.uuid = uuid;
  }

  /** The dataset branch and the read version the transaction was planned against. */
  public TableAt readAt() {
    return readAt;
  }

  /** The table's dataset key under the graph root. */
  public String location() {
    return readAt.location();
  }

  /** The Lance branch committed to (empty: the table's main). */
  public Optional<String> nativeBranch() {
    return readAt.nativeBranch();
  }

  /** The read version the transaction was planned against. */
  public long readVersion() {
    return readAt.version();
  }

  /** The pre-minted uuid to look for when settling the outcome. */
  public String uuid() {
    return uuid;
  }
}
