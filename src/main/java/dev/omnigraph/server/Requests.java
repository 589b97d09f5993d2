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

  private static final java.util.Set<String> EXPORT_FIELDS = java.util.Set.of("branch", "type_names");
  private static final com.fasterxml.jackson.databind.ObjectMapper BIND = new com.fasterxml.jackson.databind.ObjectMapper();

  /**
   * The export body, with unknown fields refused (400) as the reference's {@code deny_unknown_fields}
   * does: a misspelt {@code type_names} would otherwise export every type. The other bodies keep
   * Quarkus's lenient default. An absent body is an export of main.
   */
  static ExportRequest exportRequest(JsonNode body) {
    if (body == null || body.isNull() || body.isMissingNode()) {
      return new ExportRequest(null, null);
    }
    if (!body.isObject()) {
      throw new dev.omnigraph.api.InvalidRequest("the export body must be a JSON object");
    }
    body.fieldNames().forEachRemaining(f -> {
      if (!EXPORT_FIELDS.contains(f)) {
        throw new dev.omnigraph.api.InvalidRequest("unknown field `" + f + "` in the export body, expected `branch`"
            + " or `type_names`");
      }
    });
    try {
      return BIND.treeToValue(body, ExportRequest.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new dev.omnigraph.api.InvalidRequest("the export body is not an ExportRequest: " + e.getOriginalMessage());
    }
  }
}
