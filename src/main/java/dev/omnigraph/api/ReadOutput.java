package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The result of a read query (reference {@code ReadOutput}).
 *
 * @param queryName the query run
 * @param target what it read: a branch head or an explicit commit
 * @param rowCount rows returned
 * @param columns column names in return order ({@code p.name} for {@code $p.name}, or the alias)
 * @param rows one object per row, keys in column order; a null cell has no key (the reference's spelling)
 * @param graphCommitId the effective head commit of the exact snapshot the rows came from
 */
public record ReadOutput(
    @JsonProperty("query_name") String queryName,
    @JsonProperty("target") Target target,
    @JsonProperty("row_count") long rowCount,
    @JsonProperty("columns") List<String> columns,
    @JsonProperty("rows") List<Map<String, Object>> rows,
    @JsonProperty("graph_commit_id") String graphCommitId) {

  /** {@code ReadTargetOutput}: exactly one of branch and snapshot is set. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Target(@JsonProperty("branch") String branch, @JsonProperty("snapshot") String snapshot) {}
}
