package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** Reference {@code GraphListResponse}: every served graph, sorted by id. */
public record GraphListResponse(@JsonProperty("graphs") List<GraphInfo> graphs) {

  /** Reference {@code GraphInfo}. */
  public record GraphInfo(@JsonProperty("graph_id") String graphId, @JsonProperty("uri") String uri) {}
}
