package dev.omnigraph.table;

import java.util.List;
import java.util.Objects;

/**
 * What a compaction of one table branch did, established from Lance's history after the call: the
 * transactions recorded at every version after the expected one (operation, recorded read version,
 * Lance-minted uuid), never from the call's exception.
 *
 * @param kind the classification
 * @param expectedVersion the version the compaction was started on (the manifest pin)
 * @param version the live HEAD afterwards
 * @param steps one entry per version {@code expectedVersion + 1 … version}
 * @param before statistics of {@code expectedVersion}
 * @param after statistics of {@code version}
 * @param detail what was observed, for logs and reports
 */
public record CompactionOutcome(Kind kind, long expectedVersion, long version, List<Step> steps, TableStats before,
    TableStats after, String detail) {

  /** The classifications. */
  public enum Kind {
    /** Every new version is a compaction transaction ending in a {@code Rewrite}: same content, fewer fragments. */
    COMPACTED,
    /** Only a {@code ReserveFragments} landed: HEAD moved, content unchanged. */
    RESERVED_ONLY,
    /** HEAD did not move (nothing to compact, or the call failed before committing). */
    NOT_COMPACTED,
    /** A version after the expected one is not a compaction planned on this chain: not ours. */
    FOREIGN,
    /** HEAD is behind the expected version: an invariant violation. */
    BEHIND
  }

  /**
   * One version Lance recorded.
   *
   * @param version the version
   * @param operation Lance's operation name ({@code none} when the version has no transaction)
   * @param readVersion the recorded read version ({@code -1} when none)
   * @param uuid the recorded (Lance-minted) uuid, or null
   */
  public record Step(long version, String operation, long readVersion, String uuid) {}

  public CompactionOutcome {
    Objects.requireNonNull(kind, "kind");
    steps = List.copyOf(steps);
  }

  /** Whether {@link #version()} holds exactly the expected version's content (publishable). */
  public boolean contentPreserving() {
    return kind == Kind.COMPACTED || kind == Kind.RESERVED_ONLY || kind == Kind.NOT_COMPACTED;
  }

  /** Whether HEAD moved past the expected version. */
  public boolean moved() {
    return version > expectedVersion;
  }

  /**
   * The bounded maintenance classification of a table's history after {@code expectedVersion}
   * (recovery of an optimize sidecar uses it too: it has no caller-minted uuid to look for).
   */
  public static Kind classify(long expectedVersion, long head, List<Step> steps) {
    return TableCompaction.classify(expectedVersion, head, steps);
  }
}
