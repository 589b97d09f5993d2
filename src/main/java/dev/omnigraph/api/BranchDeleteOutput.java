package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Reference {@code BranchDeleteOutput}. */
public record BranchDeleteOutput(
    @JsonProperty("uri") String uri,
    @JsonProperty("name") String name,
    @JsonProperty("actor_id") String actorId) {}
