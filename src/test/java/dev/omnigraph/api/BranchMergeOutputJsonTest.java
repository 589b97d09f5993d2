package dev.omnigraph.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The merge answer's wire form against the reference's {@code BranchMergeOutput}. */
class BranchMergeOutputJsonTest {

  @Test
  void actorIdIsPresentAndNullForAnUnauthenticatedMergeAndOptionalFieldsStayAbsent() {
    JsonNode json = new ObjectMapper().valueToTree(
        new BranchMergeOutput("f", "main", MergeOutcome.MERGED, null, null, null, "c1"));
    assertThat(json.has("actor_id")).isTrue();
    assertThat(json.get("actor_id").isNull()).isTrue();
    assertThat(json.has("branch_deleted")).isFalse();
    assertThat(json.has("branch_delete_error")).isFalse();
    assertThat(json.get("outcome").asText()).isEqualTo("merged");
  }
}
