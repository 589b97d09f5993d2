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

  /**
   * The export body, read with unknown fields refused (400 naming the field, with its position) as
   * the reference's {@code deny_unknown_fields} does: a misspelt {@code type_names} would otherwise
   * export every type. Only export: the other bodies keep Quarkus's lenient default, as the reference's
   * do. {@code mapper} is the service's (strict duplicates and trailing content); an empty body is main.
   *
   * @throws com.fasterxml.jackson.core.JsonProcessingException mapped to 400 by {@link ErrorMapper}
   */
  static ExportRequest exportRequest(com.fasterxml.jackson.databind.ObjectMapper mapper, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    if (body == null || body.isBlank()) {
      return new ExportRequest(null, null);
    }
    ExportRequest r = mapper.readerFor(ExportRequest.class)
        .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(body);
    return r == null ? new ExportRequest(null, null) : r;
  }
}
