package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Reference {@code ErrorOutput}: {@code {"error": message, "code": ErrorCode, <detail>}}, at most one
 * detail set, absent details omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ErrorOutput(
    @JsonProperty("error") String error,
    @JsonProperty("code") String code,
    @JsonProperty("key_conflict") KeyConflictOutput keyConflict,
    @JsonProperty("read_set_conflict") ReadSetConflictOutput readSetConflict,
    @JsonProperty("precondition_failure") PreconditionFailureOutput preconditionFailure,
    @JsonProperty("resource_limit") ResourceLimitOutput resourceLimit,
    @JsonProperty("recovery_required") RecoveryRequiredOutput recoveryRequired,
    @JsonProperty("merge_conflicts") java.util.List<dev.omnigraph.api.MergeConflict> mergeConflicts,
    @JsonProperty("change_diff_refusal") ChangeDiffRefusalOutput changeDiffRefusal,
    @JsonProperty("change_feed_gap") ChangeFeedGapOutput changeFeedGap,
    @JsonProperty("external_blob_source") ExternalBlobSourceOutput externalBlobSource) {

  ErrorOutput(String error, String code, KeyConflictOutput keyConflict, ReadSetConflictOutput readSetConflict,
      PreconditionFailureOutput preconditionFailure, ResourceLimitOutput resourceLimit,
      RecoveryRequiredOutput recoveryRequired, java.util.List<dev.omnigraph.api.MergeConflict> mergeConflicts,
      ChangeDiffRefusalOutput changeDiffRefusal, ChangeFeedGapOutput changeFeedGap) {
    this(error, code, keyConflict, readSetConflict, preconditionFailure, resourceLimit, recoveryRequired,
        mergeConflicts, changeDiffRefusal, changeFeedGap, null);
  }

  ErrorOutput(String error, String code, KeyConflictOutput keyConflict, ReadSetConflictOutput readSetConflict,
      PreconditionFailureOutput preconditionFailure, ResourceLimitOutput resourceLimit,
      RecoveryRequiredOutput recoveryRequired, java.util.List<dev.omnigraph.api.MergeConflict> mergeConflicts) {
    this(error, code, keyConflict, readSetConflict, preconditionFailure, resourceLimit, recoveryRequired,
        mergeConflicts, null, null);
  }

  ErrorOutput(String error, String code, KeyConflictOutput keyConflict, ReadSetConflictOutput readSetConflict,
      PreconditionFailureOutput preconditionFailure, ResourceLimitOutput resourceLimit,
      RecoveryRequiredOutput recoveryRequired) {
    this(error, code, keyConflict, readSetConflict, preconditionFailure, resourceLimit, recoveryRequired, null);
  }

  static ErrorOutput plain(String error, String code) {
    return new ErrorOutput(error, code, null, null, null, null, null);
  }

  /** Reference {@code KeyConflictOutput}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record KeyConflictOutput(
      @JsonProperty("entity_kind") String entityKind,
      @JsonProperty("type_name") String typeName,
      @JsonProperty("entity_id") String entityId) {}

  /** Reference {@code ReadSetConflictOutput}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record ReadSetConflictOutput(
      @JsonProperty("member") String member,
      @JsonProperty("expected") String expected,
      @JsonProperty("actual") String actual) {}

  /** Reference {@code PreconditionFailureOutput}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record PreconditionFailureOutput(
      @JsonProperty("expected") String expected,
      @JsonProperty("actual") String actual) {}

  /** Reference {@code ResourceLimitOutput}. */
  record ResourceLimitOutput(
      @JsonProperty("resource") String resource,
      @JsonProperty("limit") long limit,
      @JsonProperty("actual") long actual) {}

  /** Reference {@code ChangeDiffRefusalOutput}. */
  record ChangeDiffRefusalOutput(
      @JsonProperty("reason") String reason,
      @JsonProperty("graph_commit_id") String graphCommitId,
      @JsonProperty("type_name") String typeName) {}

  /** Reference {@code ChangeFeedGapOutput}. */
  record ChangeFeedGapOutput(
      @JsonProperty("cursor") String cursor,
      @JsonProperty("first_unreadable_commit_id") String firstUnreadableCommitId) {}

  /** Reference {@code ExternalBlobSourceOutput} (HTTP 424). */
  record ExternalBlobSourceOutput(@JsonProperty("uri") String uri, @JsonProperty("reason") String reason) {}

  /** Reference {@code RecoveryRequiredOutput}. */
  record RecoveryRequiredOutput(@JsonProperty("operation_id") String operationId) {}
}
