package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Reference {@code BranchCreateOutput}. */
public record BranchCreateOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("from") String from,
    @JsonProperty("name") String name,
    @JsonProperty("actor_id") String actorId) {}
