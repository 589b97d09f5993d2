package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code index ensure} answers ({@code POST /graphs/{id}/indexes/ensure}, {@code omnigraph index
 * ensure --json}, {@code Omnigraph.ensureIndices}): the indexes built, per table, in the one commit
 * the run published, and the declared indexes that cannot be built yet. A second run right after a
 * first builds nothing: {@code changed} is false, no commit, the same manifest version.
 *
 * @param uri the graph root
 * @param branch the graph branch
 * @param changed whether indexes were built (and a commit published)
 * @param graphCommitId the commit the run published; null when nothing changed
 * @param graphManifestVersion the branch's manifest version after the run
 * @param tables the tables that got indexes, in table-key order
 * @param pending declared indexes not built yet (a vector property with no non-null vector), with why
 */
public record EnsureIndicesOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("branch") String branch,
    @JsonProperty("changed") boolean changed,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("tables") List<Table> tables,
    @JsonProperty("pending") List<Pending> pending) {

  public EnsureIndicesOutput {
    tables = List.copyOf(tables);
    pending = List.copyOf(pending);
  }

  /**
   * One table's new indexes.
   *
   * @param tableKey {@code node:Type} or {@code edge:Type}
   * @param nativeBranch the Lance branch of the table the indexes are on (null: its main)
   * @param fromVersion the table version indexed (the pin before the run)
   * @param toVersion the version the run published (one past {@code fromVersion})
   * @param firstTouch true when the run forked the table onto the graph branch (it was inherited)
   * @param indexes the indexes built
   */
  public record Table(
      @JsonProperty("table_key") String tableKey,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("from_version") long fromVersion,
      @JsonProperty("to_version") long toVersion,
      @JsonProperty("first_touch") boolean firstTouch,
      @JsonProperty("indexes") List<Index> indexes) {

    public Table {
      indexes = List.copyOf(indexes);
    }
  }

  /**
   * One index built.
   *
   * @param property the indexed column (a property, or {@code id}/{@code src}/{@code dst})
   * @param kind {@code btree}, {@code inverted} or {@code vector}
   * @param name the Lance index name
   */
  public record Index(
      @JsonProperty("property") String property,
      @JsonProperty("kind") String kind,
      @JsonProperty("name") String name) {}

  /**
   * A declared index not built yet (the reference's {@code PendingIndex}).
   *
   * @param typeKey {@code node:Type}
   * @param property the property
   * @param reason why it cannot be built now
   */
  public record Pending(
      @JsonProperty("type_key") String typeKey,
      @JsonProperty("property") String property,
      @JsonProperty("reason") String reason) {}
}
