package dev.omnigraph.api.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code cleanup} removed (or, in a dry run, would remove), per data-table branch.
 *
 * @param dryRun whether nothing was written
 * @param commitsScanned distinct graph commits whose pins were collected (every commit reachable
 *     from a live branch head)
 * @param tables one entry per (dataset, Lance branch) that some reachable commit pins
 * @param leftoverRefs data-table Lance branches of graph branches that no longer exist: removed
 *     unless {@code kept_because} says why one must stay (in a dry run: what would be removed)
 * @param residue files and datasets under the root that nothing explains ({@code repair} reports
 *     the same): the removable ones are removed ({@code removed}; in a dry run none), the others
 *     are left for an operator
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CleanupReport(
    @JsonProperty("dry_run") boolean dryRun,
    @JsonProperty("commits_scanned") int commitsScanned,
    @JsonProperty("tables") List<TableCleanup> tables,
    @JsonProperty("leftover_refs") List<RepairReport.LeftoverRef> leftoverRefs,
    @JsonProperty("residue") List<RepairReport.Residue> residue) {

  public CleanupReport {
    residue = List.copyOf(residue);
    tables = List.copyOf(tables);
    leftoverRefs = List.copyOf(leftoverRefs);
  }

  /** Versions removed over every table (planned ones in a dry run). */
  public long versionsRemoved() {
    return tables.stream().mapToLong(t -> t.removedVersions().size()).sum();
  }

  /**
   * One table branch.
   *
   * @param tableKey {@code node:T} or {@code edge:T}
   * @param location dataset key under the graph root
   * @param nativeBranch the table's Lance branch (null: its main)
   * @param head its latest version (never removed)
   * @param retainFrom every version from here up is kept: the oldest version a live branch head
   *     pins, so uncovered drift above it stays for {@code repair} to explain
   * @param pinnedVersions every version any reachable commit pins: all kept
   * @param removedVersions the versions removed (dry run: that would be removed)
   * @param bytesRemoved bytes Lance deleted; null in a dry run (Lance cannot estimate it)
   */
  public record TableCleanup(
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("head") long head,
      @JsonProperty("retain_from") long retainFrom,
      @JsonProperty("pinned_versions") List<Long> pinnedVersions,
      @JsonProperty("removed_versions") List<Long> removedVersions,
      @JsonProperty("bytes_removed") Long bytesRemoved) {}
}
