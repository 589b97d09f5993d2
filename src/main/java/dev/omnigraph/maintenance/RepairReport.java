package dev.omnigraph.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What {@code repair} found, and with {@code apply} what it did. Drift is a data table whose live
 * Lance HEAD is ahead of the version its owning graph branch pins, with no recovery sidecar
 * covering it; an unreferenced ref is a table's Lance branch named after a live graph branch that
 * the branch's manifest does not reference (a first-touch write that never published). Both block
 * writes with {@code UncoveredDrift}.
 *
 * @param applied whether this run resolved what it found (false: a dry run)
 * @param pinsChecked table pins compared against live HEADs, over every graph branch
 * @param drift every drifted table pin, with the Lance transactions past the pin
 * @param unreferencedRefs Lance branches that block a graph branch's first write to a table
 * @param invariantViolations pins whose live HEAD is behind (never fixed; repair refuses to apply)
 * @param leftoverRefs Lance branches of data tables named after a graph branch that no longer
 *     exists (a delete interrupted before its table refs went): they block nothing, the next create
 *     of the name reclaims them, and {@code cleanup} (or {@code repair --apply}) removes them
 * @param commits the graph commits {@code apply} published, one per repaired graph branch
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RepairReport(
    @JsonProperty("applied") boolean applied,
    @JsonProperty("pins_checked") int pinsChecked,
    @JsonProperty("drift") List<TableDrift> drift,
    @JsonProperty("unreferenced_refs") List<UnreferencedRef> unreferencedRefs,
    @JsonProperty("invariant_violations") List<HeadBehindPin> invariantViolations,
    @JsonProperty("leftover_refs") List<LeftoverRef> leftoverRefs,
    @JsonProperty("commits") List<RepairCommit> commits) {

  public RepairReport {
    drift = List.copyOf(drift);
    unreferencedRefs = List.copyOf(unreferencedRefs);
    invariantViolations = List.copyOf(invariantViolations);
    leftoverRefs = List.copyOf(leftoverRefs);
    commits = List.copyOf(commits);
  }

  /**
   * Whether the graph has nothing to repair (and nothing broken). Leftover refs do not count: they
   * block no write and no read.
   */
  public boolean clean() {
    return drift.isEmpty() && unreferencedRefs.isEmpty() && invariantViolations.isEmpty();
  }

  /** Whether nothing at all was found, leftover refs included. */
  public boolean empty() {
    return clean() && leftoverRefs.isEmpty();
  }

  /**
   * One drifted pin.
   *
   * @param branch the graph branch that owns the pinned table branch
   * @param tableKey {@code node:T} or {@code edge:T}
   * @param location dataset key under the graph root
   * @param nativeBranch the table's Lance branch (null: its main)
   * @param pinnedVersion the version the manifest pins
   * @param liveHead the Lance HEAD found
   * @param transactions one per version {@code pinnedVersion + 1 … liveHead}, oldest first
   * @param restoredHead with apply: the table's new HEAD, a Lance Restore of {@code pinnedVersion}
   *     that the repair commit pins; null in a dry run
   */
  public record TableDrift(
      @JsonProperty("branch") String branch,
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("pinned_version") long pinnedVersion,
      @JsonProperty("live_head") long liveHead,
      @JsonProperty("transactions") List<Transaction> transactions,
      @JsonProperty("restored_head") Long restoredHead) {}

  /**
   * The Lance transaction recorded for one version.
   *
   * @param version the table version
   * @param uuid the transaction's uuid (null when none is recorded or it cannot be read)
   * @param readVersion the version it was planned against
   * @param operation Lance's operation name ({@code Update}, {@code Delete}, {@code Restore}, …)
   * @param properties its transaction properties
   * @param restoredVersion for a {@code Restore}: the version it restored
   * @param error why the transaction could not be read (e.g. the version was cleaned up)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Transaction(
      @JsonProperty("version") long version,
      @JsonProperty("uuid") String uuid,
      @JsonProperty("read_version") Long readVersion,
      @JsonProperty("operation") String operation,
      @JsonProperty("properties") Map<String, String> properties,
      @JsonProperty("restored_version") Long restoredVersion,
      @JsonProperty("error") String error) {}

  /**
   * A table's Lance branch named after live graph branch {@code branch} that the branch does not
   * pin: its first write to the table would refuse. With apply it is deleted (when nothing else
   * pins it and no other Lance branch was forked from it).
   *
   * @param forkVersion the parent version it was forked at
   * @param head its latest version
   * @param transactions one per version after the fork
   * @param removed whether apply deleted it
   * @param keptBecause why apply left it (null when removed or in a dry run)
   */
  public record UnreferencedRef(
      @JsonProperty("branch") String branch,
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("fork_version") long forkVersion,
      @JsonProperty("head") long head,
      @JsonProperty("transactions") List<Transaction> transactions,
      @JsonProperty("removed") boolean removed,
      @JsonProperty("kept_because") String keptBecause) {}

  /**
   * A pin whose live HEAD is behind it (or cannot be read): an invariant violation.
   *
   * @param liveHead the HEAD found; null when the table could not be read
   * @param detail what was found
   */
  public record HeadBehindPin(
      @JsonProperty("branch") String branch,
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("pinned_version") long pinnedVersion,
      @JsonProperty("live_head") Long liveHead,
      @JsonProperty("detail") String detail) {}

  /**
   * A data table's Lance branch named after a graph branch that no longer exists.
   *
   * @param nativeBranch the ref's name (the deleted graph branch's)
   * @param parentBranch the Lance branch it was forked from (null: the table's main)
   * @param forkVersion the parent version it was forked at
   * @param removed whether this run deleted it
   * @param keptBecause why it must stay (another ref was forked from it, a live state pins it, or
   *     a pending sidecar claims it); null when it may go
   */
  public record LeftoverRef(
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("parent_branch") String parentBranch,
      @JsonProperty("fork_version") long forkVersion,
      @JsonProperty("removed") boolean removed,
      @JsonProperty("kept_because") String keptBecause) {

    static LeftoverRef of(LeftoverRefs.Leftover l, boolean removed) {
      return new LeftoverRef(l.ref().name(), l.tableKey(), l.location(), l.ref().parent().orElse(null),
          l.ref().parentVersion(), removed, l.keptBecause());
    }
  }

  /** A graph commit repair published: the restored heads of {@code tableKeys} on {@code branch}. */
  public record RepairCommit(
      @JsonProperty("branch") String branch,
      @JsonProperty("graph_commit_id") String commitId,
      @JsonProperty("graph_manifest_version") long manifestVersion,
      @JsonProperty("table_keys") List<String> tableKeys) {}
}
