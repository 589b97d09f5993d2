package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** Reference {@code BranchListOutput}: {@code main} first, then the others sorted. */
public record BranchListOutput(@JsonProperty("branches") List<String> branches) {}
