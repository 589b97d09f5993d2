package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** Reference {@code CommitListOutput}, most recent first. */
public record CommitListOutput(@JsonProperty("commits") List<CommitOutput> commits) {}
