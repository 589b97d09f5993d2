package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code schema apply} answers, in the reference {@code SchemaApplyOutput} shape, plus two
 * fields of ours that a client may ignore: the commit the apply published, and the datasets a hard
 * drop made irreversible.
 *
 * @param uri the graph root
 * @param supported always true in a returned output: an unsupported plan is refused with
 *     {@link UnsupportedSchemaChange} and applies nothing
 * @param applied false when the desired schema equals the accepted one (no steps, no commit)
 * @param stepCount the number of steps
 * @param graphManifestVersion main's manifest version after the apply (unchanged when not applied)
 * @param steps the steps applied, in order (drops in the mode they ran: {@code hard} under
 *     {@code allow_data_loss})
 * @param graphCommitId the commit the apply published, null when nothing was applied
 * @param hardDropped datasets whose earlier versions a hard drop removed (irreversible), sorted
 */
public record SchemaApplyOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("supported") boolean supported,
    @JsonProperty("applied") boolean applied,
    @JsonProperty("step_count") int stepCount,
    @JsonProperty("graph_manifest_version") long graphManifestVersion,
    @JsonProperty("steps") List<SchemaStep> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("graph_commit_id") String graphCommitId,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonProperty("hard_dropped") List<String> hardDropped) {

  public SchemaApplyOutput {
    steps = List.copyOf(steps);
    hardDropped = hardDropped == null ? List.of() : List.copyOf(hardDropped);
  }
}
