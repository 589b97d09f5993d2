package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Reference {@code CommitChangesOutput}: one bounded page of the entity changes one commit made
 * relative to its first parent, in frozen (kind, type, id, op) order — nodes before edges, then the
 * opaque type id, then the entity id — with the cause stated once.
 *
 * @param nextPageToken continues this response; absent on the final page (never a feed cursor)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CommitChangesOutput(
    @JsonProperty("cause") Cause cause,
    @JsonProperty("changes") List<EntityChange> changes,
    @JsonProperty("next_page_token") String nextPageToken) {

  public CommitChangesOutput {
    changes = List.copyOf(changes);
  }

  /**
   * Reference {@code ChangeCauseOutput}.
   *
   * @param authoredAt Unix epoch microseconds, minted before the commit's effects
   * @param authoredBranch the branch the commit landed on
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Cause(
      @JsonProperty("graph_commit_id") String graphCommitId,
      @JsonProperty("parent_commit_id") String parentCommitId,
      @JsonProperty("merged_parent_commit_id") String mergedParentCommitId,
      @JsonProperty("authored_branch") String authoredBranch,
      @JsonProperty("actor_id") String actorId,
      @JsonProperty("authored_at") long authoredAt) {}

  /** Reference {@code ChangeTypeOutput}: an opaque type id (the stable table id) and the type name. */
  public record TypeRef(@JsonProperty("id") String id, @JsonProperty("name") String name) {}

  /** Reference {@code ChangeEndpointsOutput}: an edge image's endpoint ids. */
  public record Endpoints(@JsonProperty("from") String from, @JsonProperty("to") String to) {}

  /**
   * Reference {@code ChangeImageOutput}: exact property values, user-schema keys verbatim (a null
   * property is JSON null); the entity id and an edge's endpoints are hoisted out of them.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Image(@JsonProperty("properties") ObjectNode properties,
      @JsonProperty("endpoints") Endpoints endpoints) {}

  /**
   * Reference {@code EntityChangeOutput}: an insert carries only {@code after}, an update both, a
   * delete only {@code before}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record EntityChange(
      @JsonProperty("kind") String kind,
      @JsonProperty("type") TypeRef type,
      @JsonProperty("id") String id,
      @JsonProperty("op") ChangeOp op,
      @JsonProperty("before") Image before,
      @JsonProperty("after") Image after) {}
}
