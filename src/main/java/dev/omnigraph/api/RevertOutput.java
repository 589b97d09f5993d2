package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a revert answers ({@code POST /graphs/{id}/branches/{branch}/revert}, {@code omnigraph
 * revert --json}, {@code Omnigraph.revert}): the one commit that made the branch's state equal to
 * the named commit's, and the tables it restored. Reverting to the state the branch already has
 * (its head, say) publishes nothing: {@code reverted} is false, no commit.
 *
 * @param uri the graph root
 * @param branch the graph branch
 * @param to the commit whose state the branch now has
 * @param reverted whether a commit was published
 * @param graphCommitId the revert's commit; null when nothing changed
 * @param graphManifestVersion the branch's manifest version after the revert
 * @param tables the restored tables, in table-key order
 */
public record RevertOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("branch") String branch,
    @JsonProperty("to") String to,
    @JsonProperty("reverted") boolean reverted,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("tables") List<Table> tables) {

  public RevertOutput {
    tables = List.copyOf(tables);
  }

  /**
   * One restored table.
   *
   * @param tableKey {@code node:Type} or {@code edge:Type}
   * @param fromVersion its pin before the revert
   * @param restoredVersion the version whose content it has again
   * @param toVersion its new version (a Lance {@code Restore} of {@code restoredVersion})
   * @param rowCount its rows now
   */
  public record Table(
      @JsonProperty("table_key") String tableKey,
      @JsonProperty("from_version") long fromVersion,
      @JsonProperty("restored_version") long restoredVersion,
      @JsonProperty("to_version") long toVersion,
      @JsonProperty("row_count") long rowCount) {}
}
