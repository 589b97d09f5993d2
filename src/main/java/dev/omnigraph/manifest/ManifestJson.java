package dev.omnigraph.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/** JSON of the manifest's {@code metadata} column: small flat objects, written and read here only. */
final class ManifestJson {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private ManifestJson() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode read(String objectId, String json) {
    if (json == null) {
      throw new ManifestCorrupt(objectId, "metadata is missing");
    }
    try {
      return MAPPER.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new ManifestCorrupt(objectId, "metadata is not JSON: " + e.getOriginalMessage());
    }
  }

  static long requiredLong(String objectId, JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || !v.canConvertToLong()) {
      throw new ManifestCorrupt(objectId, "metadata lacks integer '" + field + "'");
    }
    return v.asLong();
  }

  static Optional<String> optionalText(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
  }

  static String requiredText(String objectId, JsonNode node, String field) {
    return optionalText(node, field)
        .orElseThrow(() -> new ManifestCorrupt(objectId, "metadata lacks '" + field + "'"));
  }
}
