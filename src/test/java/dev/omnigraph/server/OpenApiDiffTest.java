package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@link OpenApiDiff} finds each kind of difference, with its JSON path (so the contract test can fail). */
class OpenApiDiffTest {

  private static final String LOAD = "POST /graphs/{graph_id}/load";

  @Test
  void identicalDocumentsHaveNoDifference() throws IOException {
    JsonNode ref = OpenApiContractTest.reference();
    for (String op : OpenApiDiff.operations(ref)) {
      assertThat(OpenApiDiff.operation(ref.deepCopy(), ref, op)).as(op).isEmpty();
    }
  }

  @Test
  void reportsRequiredEnumNullabilityComponentAndResponseDifferences() throws IOException {
    JsonNode ref = OpenApiContractTest.reference();
    ObjectNode ours = ref.deepCopy();
    ObjectNode schemas = (ObjectNode) ours.path("components").path("schemas");
    ((ArrayNode) schemas.path("IngestOutput").path("required")).remove(0);
    ((ArrayNode) schemas.path("LoadMode").path("enum")).add("upsert");
    ((ObjectNode) schemas.path("IngestRequest").path("properties").path("branch")).put("type", "string");
    ObjectNode op = (ObjectNode) ours.path("paths").path("/graphs/{graph_id}/load").path("post");
    ((ObjectNode) op.path("responses")).remove("409");
    ((ObjectNode) op.path("responses").path("200").path("content").path("application/json").path("schema"))
        .put("$ref", "#/components/schemas/GraphBatchLoadOutput");
    op.put("operationId", "load");
    ((ObjectNode) op.path("parameters").get(0)).put("required", false);

    assertThat(OpenApiDiff.operation(ours, ref, LOAD)).containsExactlyInAnyOrder(
        LOAD + " operationId: ours \"load\", reference \"cluster_load\"",
        LOAD + " parameters[path:graph_id].required: ours false, reference true",
        LOAD + " requestBody.content.application/json.schema.properties.branch.type: ours \"string\","
            + " reference [\"string\",\"null\"]",
        LOAD + " requestBody.content.application/json.schema.properties.mode.oneOf[1].enum: 4 items in ours,"
            + " 3 in the reference: ours [\"overwrite\",\"append\",\"merge\",\"upsert\"], reference"
            + " [\"overwrite\",\"append\",\"merge\"]",
        LOAD + " responses.200.content.application/json.schema: component #/components/schemas/GraphBatchLoadOutput"
            + " in ours, #/components/schemas/IngestOutput in the reference",
        LOAD + " responses.409: missing in ours");
    assertThat(OpenApiDiff.operation(ours, ref, "POST /graphs/{graph_id}/ingest"))
        .contains("POST /graphs/{graph_id}/ingest responses.200.content.application/json.schema.required: 6 items in"
            + " ours, 7 in the reference: ours [\"branch\",\"branch_created\",\"mode\",\"nodes\",\"edges\","
            + "\"total_entities\"], reference [\"uri\",\"branch\",\"branch_created\",\"mode\",\"nodes\",\"edges\","
            + "\"total_entities\"]");
  }

  @Test
  void anOperationMissingOnOneSideIsReported() throws IOException {
    JsonNode ref = OpenApiContractTest.reference();
    ObjectNode ours = ref.deepCopy();
    ((ObjectNode) ours.path("paths")).remove("/graphs/{graph_id}/load");
    assertThat(OpenApiDiff.operation(ours, ref, LOAD)).containsExactly(LOAD + ": missing in ours");
  }
}
