package dev.omnigraph.api;

import java.util.Optional;

/**
 * A revert refused before anything was written (docs/write-path.md, "Revert"): the named commit is
 * not in the branch's history, the schema changed since it, or a table's content at it cannot be
 * made current on the branch's own Lance ref. Answered 409.
 */
public final class RevertRefused extends Conflict {

  /** Why the revert was refused. */
  public enum Reason {
    /** The commit is not in the branch's lineage (unknown, or another branch's). */
    NOT_IN_HISTORY,
    /** The accepted schema or the set of tables differs between the commit and the head. */
    SCHEMA_CHANGED,
    /**
     * A table's pin at the commit lives on a Lance ref the branch cannot restore from: the branch
     * still inherits the table, or forked it from another version than the commit pins.
     */
    UNSUPPORTED_TABLE,
    /** The table version the commit pins is no longer readable (cleaned up). */
    VERSION_REMOVED
  }

  private final Reason reason;
  private final String commitId;
  private final Optional<String> tableKey;

  public RevertRefused(Reason reason, String commitId, Optional<String> tableKey, String why) {
    super("revert to " + commitId + " refused (" + reason.name().toLowerCase(java.util.Locale.ROOT) + "): " + why);
    this.reason = reason;
    this.commitId = commitId;
    this.tableKey = tableKey;
  }

  public Reason reason() {
    return reason;
  }

  /** The commit the revert named. */
  public String commitId() {
    return commitId;
  }

  /** The table that refused, for {@link Reason#UNSUPPORTED_TABLE} and {@link Reason#VERSION_REMOVED}. */
  public Optional<String> tableKey() {
    return tableKey;
  }
}
