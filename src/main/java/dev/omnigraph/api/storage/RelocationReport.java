package dev.omnigraph.api.storage;

import java.util.List;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a relocation found and did.
 *
 * @param root this root
 * @param dryRun whether nothing was written
 * @param filesChecked the Lance files read (manifests and transactions under a {@code tree/})
 * @param outside every outside location found before the run
 * @param filesRewritten the files rewritten (in a dry run: that would be)
 * @param refsUpdated the branch and tag refs whose recorded manifest size was brought up to date
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RelocationReport(
    @JsonProperty("root") String root,
    @JsonProperty("dry_run") boolean dryRun,
    @JsonProperty("files_checked") int filesChecked,
    @JsonProperty("outside") List<LocationReference> outside,
    @JsonProperty("files_rewritten") List<String> filesRewritten,
    @JsonProperty("refs_updated") List<String> refsUpdated) {

  public RelocationReport {
    outside = List.copyOf(outside);
    filesRewritten = List.copyOf(filesRewritten);
    refsUpdated = List.copyOf(refsUpdated);
  }

  /** The distinct roots the outside locations lie under. */
  @JsonProperty("recorded_roots")
  public List<String> recordedRoots() {
    return outside.stream().map(LocationReference::recordedRoot).filter(r -> r != null).distinct().sorted().toList();
  }

  /** Outside locations that name no dataset of this root: relocation cannot fix them. */
  @JsonProperty("unrelocatable")
  public List<LocationReference> unrelocatable() {
    return outside.stream().filter(r -> r.relocatedTo() == null).toList();
  }

  /** Whether nothing under the root pointed outside it. */
  public boolean clean() {
    return outside.isEmpty();
  }
}
