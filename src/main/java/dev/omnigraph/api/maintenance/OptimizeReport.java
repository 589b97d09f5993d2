package dev.omnigraph.api.maintenance;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Optional;

/**
 * What one Optimize run did on one graph branch.
 *
 * @param branch the graph branch
 * @param commitId the maintenance commit published (actor {@code omnigraph:optimize}); empty when no
 *     table needed compacting
 * @param tables the tables compacted
 * @param skipped why each other candidate was left alone (below the thresholds, or a pin the
 *     branch still inherits from its parent)
 */
public record OptimizeReport(
    @JsonProperty("branch") String branch,
    @com.fasterxml.jackson.annotation.JsonIgnore Optional<String> commitId,
    @JsonProperty("tables") List<Table> tables,
    @JsonProperty("skipped") List<String> skipped) {

  public OptimizeReport {
    tables = List.copyOf(tables);
    skipped = List.copyOf(skipped);
  }

  /** The maintenance commit id for JSON (null when none was published). */
  @JsonProperty("commit_id")
  public String commitIdOrNull() {
    return commitId.orElse(null);
  }

  /** Fragments the compactions removed (before minus after, summed). */
  @JsonProperty("compacted_fragments")
  public long compactedFragments() {
    return tables.stream().mapToLong(t -> Math.max(0, t.fragmentsBefore() - t.fragmentsAfter())).sum();
  }

  /**
   * One compacted table.
   *
   * @param fromVersion the pin before
   * @param toVersion the pin published (the last version of the pass: index folds, then the
   *     compaction's {@code Rewrite})
   * @param indexesPending indexes that still leave a fragment of {@code toVersion} uncovered after
   *     the pass (an index Lance could not fold; reads stay exact and scan those fragments, and the
   *     next optimize tries again): reported, never a failure
   */
  public record Table(
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("from_version") long fromVersion,
      @JsonProperty("to_version") long toVersion,
      @JsonProperty("fragments_before") int fragmentsBefore,
      @JsonProperty("fragments_after") int fragmentsAfter,
      @JsonProperty("deletion_fragments_before") int deletionFragmentsBefore,
      @JsonProperty("deletion_fragments_after") int deletionFragmentsAfter,
      @JsonProperty("indexes_pending") List<String> indexesPending) {

    public Table {
      indexesPending = List.copyOf(indexesPending);
    }
  }
}
