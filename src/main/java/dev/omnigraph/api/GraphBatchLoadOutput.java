package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Reference {@code GraphBatchLoadOutput}: the result of one NDJSON load (one graph commit).
 *
 * @param branch the branch loaded into
 * @param branchCreated whether the load created {@code branch} from {@code baseBranch}
 * @param mode {@code append}, {@code merge} or {@code overwrite}
 * @param nodes node types the load wrote, sorted by name
 * @param edges edge types the load wrote, sorted by name
 * @param totalEntities the sum of {@code entities_loaded}
 * @param baseBranch the {@code from} branch the request named, else null
 * @param commit the graph commit, null when the input was empty
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record GraphBatchLoadOutput(
    @JsonProperty("branch") String branch,
    @JsonProperty("branch_created") boolean branchCreated,
    @JsonProperty("mode") String mode,
    @JsonProperty("nodes") List<Declaration> nodes,
    @JsonProperty("edges") List<Declaration> edges,
    @JsonProperty("total_entities") long totalEntities,
    @JsonProperty("actor_id") String actorId,
    @JsonProperty("base_branch") String baseBranch,
    @JsonProperty("commit") CommitOutput commit) {

  /**
   * Reference {@code GraphBatchDeclarationOutput}: rows of one type the load wrote (after folding
   * repeated ids in merge and overwrite mode, where the last line wins).
   */
  public record Declaration(
      @JsonProperty("name") String name,
      @JsonProperty("entities_loaded") long entitiesLoaded) {}
}
