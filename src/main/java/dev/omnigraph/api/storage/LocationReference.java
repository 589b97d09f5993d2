package dev.omnigraph.api.storage;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A location recorded in a file under the root that is not this root's own.
 *
 * @param file the file, relative to the root
 * @param recorded the location it records
 * @param relocatedTo the same dataset under this root (null: it names no dataset of this root,
 *     and relocation leaves it)
 * @param recordedRoot the root {@code recorded} lies under (null when it names no dataset)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record LocationReference(
    @JsonProperty("file") String file,
    @JsonProperty("recorded") String recorded,
    @JsonProperty("relocated_to") String relocatedTo,
    @JsonProperty("recorded_root") String recordedRoot) {}
