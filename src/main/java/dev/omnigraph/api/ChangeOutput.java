package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Reference {@code ChangeOutput}: the result of one mutation. {@code affected_nodes} and
 * {@code affected_edges} count the rows the commit wrote (inserted or updated) or deleted, summed
 * over node and over edge tables; a node delete's cascaded edges count as affected edges.
 *
 * @param commit the graph commit, null when the mutation changed nothing
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ChangeOutput(
    @JsonProperty("branch") String branch,
    @JsonProperty("query_name") String queryName,
    @JsonProperty("affected_nodes") long affectedNodes,
    @JsonProperty("affected_edges") long affectedEdges,
    @JsonProperty("actor_id") String actorId,
    @JsonProperty("commit") CommitOutput commit) {}
