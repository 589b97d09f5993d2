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

  /** Reference {@code IngestRequest}: the body of {@code POST /load} (and its alias {@code /ingest}). */
  record IngestRequest(@JsonProperty("data") String data, @JsonProperty("branch") String branch,
      @JsonProperty("from") String from, @JsonProperty("mode") String mode) {}

  /** Reference {@code IngestOutput}: {@code GraphBatchLoadOutput} plus the graph's {@code uri}. */
  @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS)
  record IngestOutput(
      @JsonProperty("uri") String uri,
      @JsonProperty("branch") String branch,
      @JsonProperty("branch_created") boolean branchCreated,
      @JsonProperty("mode") String mode,
      @JsonProperty("nodes") List<dev.omnigraph.api.GraphBatchLoadOutput.Declaration> nodes,
      @JsonProperty("edges") List<dev.omnigraph.api.GraphBatchLoadOutput.Declaration> edges,
      @JsonProperty("total_entities") long totalEntities,
      @JsonProperty("actor_id") String actorId,
      @JsonProperty("base_branch") String baseBranch,
      @JsonProperty("commit") dev.omnigraph.api.CommitOutput commit) {

    static IngestOutput of(String uri, dev.omnigraph.api.GraphBatchLoadOutput o) {
      return new IngestOutput(uri, o.branch(), o.branchCreated(), o.mode(), o.nodes(), o.edges(), o.totalEntities(),
          o.actorId(), o.baseBranch(), o.commit());
    }
  }

  /**
   * Reference {@code InvokeStoredQueryRequest}: only the runtime inputs; the source and name come from
   * the catalog.
   */
  record InvokeStoredQueryRequest(
      @JsonProperty("params") JsonNode params,
      @JsonProperty("branch") String branch,
      @JsonProperty("snapshot") String snapshot,
      @JsonProperty("expect_mutation") Boolean expectMutation) {}

  /** Reference {@code ChangeBaselineRequest}: the branch and the feed scope the resume cursor binds. */
  record ChangeBaselineRequest(@JsonProperty("branch") String branch, @JsonProperty("kind") List<String> kind,
      @JsonProperty("type") List<String> type, @JsonProperty("op") List<String> op) {}

  /** Reference {@code BranchCreateRequest}. */
  record BranchCreateRequest(@JsonProperty("name") String name, @JsonProperty("from") String from) {}

  /** Reference {@code BranchMergeRequest}. */
  record BranchMergeRequest(@JsonProperty("source") String source, @JsonProperty("target") String target,
      @JsonProperty("delete_branch") Boolean deleteBranch) {}

  /** Ours: the body of {@code POST /graphs/{id}/branches/{branch}/revert}. */
  record RevertRequest(@JsonProperty("to") String to) {}

  /** Reference {@code ExportRequest}. */
  record ExportRequest(@JsonProperty("branch") String branch, @JsonProperty("type_names") List<String> typeNames) {}

  /**
   * Reference {@code SchemaApplyRequest}: the desired {@code .pg} source, and whether drops are hard.
   * {@code allow_data_loss} absent is false, as the reference's {@code #[serde(default)]}.
   */
  record SchemaApplyRequest(@JsonProperty("schema_source") String schemaSource,
      @JsonProperty("allow_data_loss") Boolean allowDataLoss) {

    boolean dataLossAllowed() {
      return Boolean.TRUE.equals(allowDataLoss);
    }
  }

  /**
   * The export body, read strictly ({@link #strict}): a misspelt {@code type_names} would otherwise
   * export every type. An empty body is main.
   *
   * @throws com.fasterxml.jackson.core.JsonProcessingException mapped to 400 by {@link ErrorMapper}
   */
  static ExportRequest exportRequest(com.fasterxml.jackson.databind.ObjectMapper mapper, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    ExportRequest r = body == null || body.isBlank() ? null : strict(mapper, body, ExportRequest.class);
    return r == null ? new ExportRequest(null, null) : r;
  }

  /** The index ensure body (ours; the reference has no such route): the branch, default main. */
  record EnsureIndicesRequest(@JsonProperty("branch") String branch) {}

  /**
   * The index ensure body, read strictly ({@link #strict}): a misspelt {@code branch} would otherwise
   * index main. An empty body is main.
   *
   * @throws com.fasterxml.jackson.core.JsonProcessingException mapped to 400 by {@link ErrorMapper}
   */
  static EnsureIndicesRequest ensureIndicesRequest(com.fasterxml.jackson.databind.ObjectMapper mapper, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    EnsureIndicesRequest r = body == null || body.isBlank() ? null : strict(mapper, body, EnsureIndicesRequest.class);
    return r == null ? new EnsureIndicesRequest(null) : r;
  }

  /**
   * The schema apply body, read strictly ({@link #strict}): a misspelt {@code allow_data_loss} must
   * not apply with drops left soft, and a misspelt {@code schema_source} is refused rather than read
   * as an empty schema that would drop every type.
   *
   * @throws InvalidRequest without a body or without {@code schema_source}
   * @throws com.fasterxml.jackson.core.JsonProcessingException mapped to 400 by {@link ErrorMapper}
   */
  static SchemaApplyRequest schemaApplyRequest(com.fasterxml.jackson.databind.ObjectMapper mapper, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    SchemaApplyRequest r = body == null || body.isBlank() ? null : strict(mapper, body, SchemaApplyRequest.class);
    if (r == null) {
      throw new dev.omnigraph.api.InvalidRequest("a JSON request body is required: {\"schema_source\": \"<.pg source>\"}");
    }
    if (r.schemaSource() == null) {
      throw new dev.omnigraph.api.InvalidRequest("'schema_source' (the desired .pg schema) is required");
    }
    return r;
  }

  /**
   * {@code body} read with unknown fields refused (400 naming the field, with its position), as the
   * reference's {@code deny_unknown_fields} does. Only the bodies where a misspelt field would silently
   * widen or weaken the request are read this way (export, schema apply); the others keep Quarkus's
   * lenient default, as the reference's do. {@code mapper} is the service's (strict duplicates and
   * trailing content).
   */
  private static <T> T strict(com.fasterxml.jackson.databind.ObjectMapper mapper, String body, Class<T> type)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    return mapper.readerFor(type)
        .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(body);
  }
}
