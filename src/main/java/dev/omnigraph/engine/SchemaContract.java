package dev.omnigraph.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.storage.StorageAdapter;

/**
 * The accepted schema: {@code _schema.pg} (the source the user wrote), {@code _schema.ir.json} (its
 * canonical IR with table identities) and {@code __schema_state.json} (the accepted identity). Open
 * checks that the three agree, so a half-written schema change is never served.
 */
record SchemaContract(String source, SchemaIr ir) {

  static final String SOURCE_KEY = "_schema.pg";
  static final String IR_KEY = "_schema.ir.json";
  static final String STATE_KEY = "__schema_state.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The accepted-schema identity (SHA-256 of the canonical IR). */
  String identity() {
    return ir.identity();
  }

  /** Parses and typechecks a new graph's schema, assigning fresh table identities. */
  static SchemaContract fresh(String source) {
    return new SchemaContract(source, SchemaIr.initial(SchemaParser.parse(source)));
  }

  /** Writes the three files; the state file last, as it is what declares the others accepted. */
  void write(StorageAdapter storage, long acceptedAtMicros) {
    storage.putText(SOURCE_KEY, source);
    storage.putText(IR_KEY, ir.toPrettyJson());
    ObjectNode state = JSON.createObjectNode()
        .put("identity", ir.identity())
        .put("ir_version", SchemaIr.IR_VERSION)
        .put("accepted_at", acceptedAtMicros);
    storage.putText(STATE_KEY, state.toPrettyString());
  }

  /** The identity {@code __schema_state.json} accepts now (one GET), for write revalidation. */
  static String liveIdentity(StorageAdapter storage) {
    try {
      return JSON.readTree(storage.readText(STATE_KEY)).path("identity").asText();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(STATE_KEY + " is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Reads and cross-checks the accepted schema; performs no writes. */
  static SchemaContract read(StorageAdapter storage) {
    String stateText = storage.readTextIfExists(STATE_KEY).orElseThrow(() ->
        new InvalidRequest("graph at " + storage.rootUri() + " has no " + STATE_KEY + ": not an omnigraph graph, or an init that did not finish"));
    String identity;
    try {
      JsonNode state = JSON.readTree(stateText);
      identity = state.path("identity").asText(null);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(STATE_KEY + " is not JSON: " + e.getOriginalMessage(), e);
    }
    SchemaIr ir = SchemaIr.fromJson(storage.readText(IR_KEY));
    if (identity == null || !identity.equals(ir.identity())) {
      throw new IllegalStateException("schema contract mismatch: " + STATE_KEY + " accepts " + identity
          + " but " + IR_KEY + " has identity " + ir.identity());
    }
    String source = storage.readText(SOURCE_KEY);
    return new SchemaContract(source, ir);
  }
}
