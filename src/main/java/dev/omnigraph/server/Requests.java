package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The request bodies of the {@code /graphs} routes, with the reference field names. */
final class Requests {

  private Requests() {}

  /** Reference {@code QueryRequest}: one read over a branch head or a commit ({@code snapshot}). */
  record QueryRequest(
      @JsonProperty("query") String query,
      @JsonProperty("name") String name,
      @JsonProperty("params") JsonNode params,
      @JsonProperty("branch") String branch,
      @JsonProperty("snapshot") String snapshot) {}

  /** Reference {@code ChangeRequest}, with its legacy aliases. */
  record ChangeRequest(
      @JsonProperty("query") @JsonAlias("query_source") String query,
      @JsonProperty("name") @JsonAlias("query_name") String name,
      @JsonProperty("params") JsonNode params,
      @JsonProperty("branch") String branch) {}

  /** Reference {@code BranchCreateRequest}. */
  record BranchCreateRequest(@JsonProperty("name") String name, @JsonProperty("from") String from) {}

  /** Reference {@code BranchMergeRequest}. */
  record BranchMergeRequest(@JsonProperty("source") String source, @JsonProperty("target") String target,
      @JsonProperty("delete_branch") Boolean deleteBranch) {}

  /** Reference {@code ExportRequest}. */
  record ExportRequest(@JsonProperty("branch") String branch, @JsonProperty("type_names") List<String> typeNames) {}
}
