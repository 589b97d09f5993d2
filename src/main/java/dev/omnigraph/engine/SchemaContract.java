package dev.omnigraph.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.storage.StorageAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accepted schema: {@code __schema_state.json} names the accepted identity and the history of
 * every schema this graph accepted; each accepted schema is kept, content-addressed by its identity,
 * as {@code _schema_history/<identity>.pg} and {@code .ir.json}. {@code _schema.pg} and
 * {@code _schema.ir.json} are copies of the current one for people and tools.
 *
 * <p>Why content-addressed files: schema apply stages the new schema's files before it arms its
 * sidecar, so accepting it after its publish is one write of the state file, and recovery can
 * complete an acceptance from what is durable. Why a history: time travel reads a commit with the
 * schema that was accepted when it was published (its table versions have that schema's columns).
 *
 * @param source the accepted {@code .pg} source, as the user wrote it
 * @param ir its canonical IR with table identities
 * @param history the accepted schemas, oldest first, each with the main manifest version from
 *     which it holds
 */
record SchemaContract(String source, SchemaIr ir, List<Accepted> history) {

  static final String SOURCE_KEY = "_schema.pg";
  static final String IR_KEY = "_schema.ir.json";
  static final String STATE_KEY = "__schema_state.json";
  static final String HISTORY_PREFIX = "_schema_history/";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * IRs by identity, the SHA-256 of the canonical IR (checked on the read that fills an entry): an
   * identity names one IR whatever root holds it, so one parse per identity serves every handle.
   */
  private static final Map<String, SchemaIr> IR_CACHE = new ConcurrentHashMap<>();

  /**
   * One accepted schema of the history.
   *
   * @param identity the schema identity
   * @param sinceManifestVersion the main manifest version of the commit that made it accepted (0:
   *     from the beginning)
   */
  record Accepted(String identity, long sinceManifestVersion) {}

  SchemaContract {
    history = List.copyOf(history);
  }

  /** The accepted-schema identity (SHA-256 of the canonical IR). */
  String identity() {
    return ir.identity();
  }

  /** Parses and typechecks a new graph's schema, assigning fresh table identities. */
  static SchemaContract fresh(String source) {
    SchemaIr ir = SchemaIr.initial(SchemaParser.parse(source));
    return new SchemaContract(source, ir, List.of(new Accepted(ir.identity(), 0)));
  }

  static String historySourceKey(String identity) {
    return HISTORY_PREFIX + identity + ".pg";
  }

  static String historyIrKey(String identity) {
    return HISTORY_PREFIX + identity + ".ir.json";
  }

  /**
   * Makes {@code source}/{@code ir} durable under their identity without accepting them (schema
   * apply, before it arms; init). Idempotent: the files are named by their content.
   */
  static void stage(StorageAdapter storage, String source, SchemaIr ir) {
    storage.putText(historySourceKey(ir.identity()), source);
    storage.putText(historyIrKey(ir.identity()), ir.toPrettyJson());
  }

  /** Whether the schema {@code identity} was staged (its history files exist). */
  static boolean staged(StorageAdapter storage, String identity) {
    return storage.exists(historyIrKey(identity)) && storage.exists(historySourceKey(identity));
  }

  /** Writes a new graph's contract: history files, the copies, and the state file last. */
  void write(StorageAdapter storage, long acceptedAtMicros) {
    stage(storage, source, ir);
    storage.putText(SOURCE_KEY, source);
    storage.putText(IR_KEY, ir.toPrettyJson());
    storage.putText(STATE_KEY, stateJson(ir.identity(), history, acceptedAtMicros));
  }

  private static String stateJson(String identity, List<Accepted> history, long acceptedAtMicros) {
    ObjectNode state = JSON.createObjectNode()
        .put("identity", identity)
        .put("ir_version", SchemaIr.IR_VERSION)
        .put("accepted_at", acceptedAtMicros);
    ArrayNode h = state.putArray("history");
    for (Accepted a : history) {
      h.addObject().put("identity", a.identity()).put("since_manifest_version", a.sinceManifestVersion());
    }
    return state.toPrettyString();
  }

  /**
   * Accepts the staged schema {@code identity}, published by the main commit at
   * {@code manifestVersion}: one write of the state file is the acceptance; the copies follow.
   * Idempotent: a contract that already accepts it only has its copies brought up to date.
   *
   * @return the contract now accepted
   * @throws IllegalStateException when {@code identity} was not staged
   */
  static SchemaContract promote(StorageAdapter storage, String identity, long manifestVersion, long nowMicros) {
    SchemaContract current = read(storage);
    if (!current.identity().equals(identity)) {
      if (!staged(storage, identity)) {
        throw new IllegalStateException("schema " + identity + " cannot be accepted: it was never staged under "
            + HISTORY_PREFIX);
      }
      List<Accepted> history = new ArrayList<>(current.history());
      history.add(new Accepted(identity, manifestVersion));
      dev.omnigraph.util.Failpoints.hit(dev.omnigraph.util.Failpoint.SCHEMA_APPLY_BEFORE_PROMOTE);
      storage.putText(STATE_KEY, stateJson(identity, history, nowMicros));
      dev.omnigraph.util.Failpoints.hit(dev.omnigraph.util.Failpoint.SCHEMA_APPLY_AFTER_PROMOTE_STATE);
      current = read(storage);
    }
    current.writeCopies(storage);
    return current;
  }

  /** Brings {@code _schema.pg} and {@code _schema.ir.json} up to this contract (no-op when they are). */
  void writeCopies(StorageAdapter storage) {
    Optional<String> copy = storage.readTextIfExists(IR_KEY);
    boolean current = copy.isPresent() && irIdentityOf(copy.get()).map(identity()::equals).orElse(false);
    if (!current || !storage.readTextIfExists(SOURCE_KEY).map(source::equals).orElse(false)) {
      storage.putText(SOURCE_KEY, source);
      storage.putText(IR_KEY, ir.toPrettyJson());
    }
  }

  private static Optional<String> irIdentityOf(String json) {
    try {
      return Optional.of(SchemaIr.fromJson(json).identity());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
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
    List<Accepted> history = new ArrayList<>();
    try {
      JsonNode state = JSON.readTree(stateText);
      identity = state.path("identity").asText(null);
      for (JsonNode a : state.path("history")) {
        history.add(new Accepted(a.path("identity").asText(), a.path("since_manifest_version").asLong()));
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(STATE_KEY + " is not JSON: " + e.getOriginalMessage(), e);
    }
    if (identity == null) {
      throw new IllegalStateException(STATE_KEY + " names no identity");
    }
    if (history.isEmpty()) {
      history.add(new Accepted(identity, 0)); // a graph from before schema apply: one schema, always
    }
    boolean archived = storage.exists(historyIrKey(identity));
    SchemaIr ir = archived ? irOf(storage, identity) : SchemaIr.fromJson(storage.readText(IR_KEY));
    if (!identity.equals(ir.identity())) {
      throw new IllegalStateException("schema contract mismatch: " + STATE_KEY + " accepts " + identity
          + " but " + (archived ? historyIrKey(identity) : IR_KEY) + " has identity " + ir.identity());
    }
    String source = archived ? storage.readText(historySourceKey(identity)) : storage.readText(SOURCE_KEY);
    return new SchemaContract(source, ir, history);
  }

  /**
   * The schema accepted when the commit at main manifest version {@code manifestVersion} was
   * published (time travel). Branches exist only after the last apply (schema apply refuses while
   * any does), and their versions continue main's numbering, so the same rule serves their commits.
   */
  SchemaIr irAt(StorageAdapter storage, long manifestVersion) {
    String at = history.get(0).identity();
    for (Accepted a : history) {
      if (a.sinceManifestVersion() <= manifestVersion) {
        at = a.identity();
      }
    }
    return at.equals(identity()) ? ir : irOf(storage, at);
  }

  private static SchemaIr irOf(StorageAdapter storage, String identity) {
    return IR_CACHE.computeIfAbsent(identity, k -> {
      SchemaIr ir = SchemaIr.fromJson(storage.readText(historyIrKey(identity)));
      if (!ir.identity().equals(identity)) {
        throw new IllegalStateException(historyIrKey(identity) + " holds schema " + ir.identity());
      }
      return ir;
    });
  }
}
