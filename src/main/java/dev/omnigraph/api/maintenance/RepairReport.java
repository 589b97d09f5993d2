package dev.omnigraph.api.maintenance;

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
 * @param residue files and datasets under the root that no commit, sidecar or branch explains
 *     (a foreign writer's, or an uncommitted manifest transaction): reported, never repaired, never
 *     counted as drift; {@code cleanup} removes the ones it can prove safe
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RepairReport(
    @JsonProperty("applied") boolean applied,
    @JsonProperty("pins_checked") int pinsChecked,
    @JsonProperty("drift") List<TableDrift> drift,
    @JsonProperty("unreferenced_refs") List<UnreferencedRef> unreferencedRefs,
    @JsonProperty("invariant_violations") List<HeadBehindPin> invariantViolations,
    @JsonProperty("leftover_refs") List<LeftoverRef> leftoverRefs,
    @JsonProperty("commits") List<RepairCommit> commits,
    @JsonProperty("residue") List<Residue> residue) {

  public RepairReport {
    residue = List.copyOf(residue);
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

  /** Whether nothing at all was found, leftover refs and residue included. */
  public boolean empty() {
    return clean() && leftoverRefs.isEmpty() && residue.isEmpty();
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
  }

  /** Why a {@link Residue} is unexplained: what it is and where it lies in (or outside) the layout. */
  public enum ResidueKind {
    /**
     * A Lance dataset (it has {@code _versions/}) where the layout has none: e.g.
     * {@code nodes/__manifest}, which a LanceDB directory catalog creates.
     */
    @JsonProperty("foreign_dataset") FOREIGN_DATASET,
    /** A file or directory the layout does not use (a stray top-level entry, or one inside ours). */
    @JsonProperty("foreign_entry") FOREIGN_ENTRY,
    /** A {@code __manifest} (or audit table) transaction file that no version of it commits. */
    @JsonProperty("uncommitted_transaction") UNCOMMITTED_TRANSACTION,
    /** A dataset named like a table that no live branch, reachable commit or sidecar registers. */
    @JsonProperty("unregistered_table") UNREGISTERED_TABLE,
    /** What an interrupted {@code omnigraph doctor} left under {@code __doctor/}. */
    @JsonProperty("doctor_scratch") DOCTOR_SCRATCH
  }

  /**
   * One file or directory under the root that nothing explains. Only what is older than the
   * residue grace is reported: anything younger may be an in-flight write's.
   *
   * @param path the key under the graph root (a directory's without a trailing slash)
   * @param directory whether {@code path} is a directory (removing it removes everything under it)
   * @param kind what it is
   * @param why why nothing explains it
   * @param removable whether {@code cleanup} removes it: only what nothing of OmniGraph's can read
   *     and no one else can own (inside our own directories); anything else is left to an operator
   * @param removed whether this run removed it
   */
  public record Residue(
      @JsonProperty("path") String path,
      @JsonProperty("directory") boolean directory,
      @JsonProperty("kind") ResidueKind kind,
      @JsonProperty("why") String why,
      @JsonProperty("removable") boolean removable,
      @JsonProperty("removed") boolean removed) {

    public Residue asRemoved() {
      return new Residue(path, directory, kind, why, removable, true);
    }
  }

  /** A graph commit repair published: the restored heads of {@code tableKeys} on {@code branch}. */
  public record RepairCommit(
      @JsonProperty("branch") String branch,
      @JsonProperty("graph_commit_id") String commitId,
      @JsonProperty("graph_manifest_version") long manifestVersion,
      @JsonProperty("table_keys") List<String> tableKeys) {}
}
