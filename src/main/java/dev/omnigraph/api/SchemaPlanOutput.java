package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@code schema plan} answers, in the reference CLI's {@code SchemaPlanOutput} shape: the
 * ordered steps that would take the accepted schema to the desired one, and whether schema apply
 * supports them all.
 *
 * @param uri the graph root
 * @param supported false when any step is an {@link SchemaStep.UnsupportedChange}
 * @param stepCount the number of steps
 * @param steps the steps in apply order
 */
public record SchemaPlanOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("supported") boolean supported,
    @JsonProperty("step_count") int stepCount,
    @JsonProperty("steps") List<SchemaStep> steps) {

  public SchemaPlanOutput {
    steps = List.copyOf(steps);
  }

  /** The plan of {@code steps} for the graph at {@code uri}. */
  public static SchemaPlanOutput of(String uri, List<SchemaStep> steps) {
    boolean supported = steps.stream().noneMatch(s -> s instanceof SchemaStep.UnsupportedChange);
    return new SchemaPlanOutput(uri, supported, steps.size(), steps);
  }
}
