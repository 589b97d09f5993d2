package dev.omnigraph.table;

import java.util.Objects;

/**
 * What {@link DataTables#commit} established, from evidence re-read after the commit call (the
 * table's head and the transactions recorded after the staged read version), never from the type
 * or message of a Lance exception.
 *
 * @param kind the classification
 * @param version {@link Kind#LANDED}: the new version ({@code readVersion + 1});
 *     {@link Kind#REBASED}: the later version our transaction landed at;
 *     {@link Kind#NOT_LANDED}: the live head observed (equal to the read version when nothing
 *     moved, greater when foreign commits moved it)
 * @param detail what was observed, for logs and recovery sidecars
 */
public record CommitOutcome(Kind kind, long version, String detail) {

  /** The three classifications. */
  public enum Kind {
    /** Our exact transaction (uuid and read version) is the version right after the read version. */
    LANDED,
    /**
     * Our transaction is durable but not where we planned it: Lance rebased it over one or more
     * foreign commits and it landed at a later version. It is a physical effect the caller did not
     * fence, so the write path maps it to RecoveryRequired.
     */
    REBASED,
    /**
     * Our transaction is in no version after the read version: the commit had no effect (the
     * staged files are unreferenced garbage). {@link #headMoved(long)} tells a foreign commit apart
     * from an unchanged head.
     */
    NOT_LANDED
  }

  public CommitOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }

  /** Our transaction is exactly {@code version}. */
  public static CommitOutcome landed(long version) {
    return new CommitOutcome(Kind.LANDED, version, "landed at version " + version);
  }

  /** Our transaction landed at {@code version}, later than planned, over foreign commits. */
  public static CommitOutcome rebased(long version, String detail) {
    return new CommitOutcome(Kind.REBASED, version, detail);
  }

  /** Our transaction did not land; {@code head} is the live head observed. */
  public static CommitOutcome notLanded(long head, String detail) {
    return new CommitOutcome(Kind.NOT_LANDED, head, detail);
  }

  /** Whether the outcome is {@link Kind#LANDED}. */
  public boolean isLanded() {
    return kind == Kind.LANDED;
  }

  /**
   * For {@link Kind#NOT_LANDED}: whether a foreign commit moved the head past {@code readVersion}
   * (the staged write's read version). False for the other kinds.
   */
  public boolean headMoved(long readVersion) {
    return kind == Kind.NOT_LANDED && version != readVersion;
  }
}
