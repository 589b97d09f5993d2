package dev.omnigraph.recovery;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.util.Background;
import dev.omnigraph.util.Failpoints;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The only reader and writer of {@code __recovery/<operation id>.json}. All I/O goes through the
 * {@link StorageAdapter}, so its typed failures reach the caller unchanged (seed, "Sidecar I/O
 * failure semantics").
 */
public final class SidecarStore {

  public static final String PREFIX = "__recovery";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);

  private final StorageAdapter storage;

  public SidecarStore(StorageAdapter storage) {
    this.storage = storage;
  }

  public static String keyOf(String operationId) {
    return PREFIX + "/" + operationId + ".json";
  }

  /**
   * Arms a sidecar: create-if-absent, so an operation id can never be armed twice. A failure here
   * means no effect may follow.
   */
  public void arm(RecoverySidecar sidecar) {
    Failpoints.hit("recovery.sidecar_write");
    storage.putIfAbsent(keyOf(sidecar.operationId()), encode(sidecar));
  }

  /** Overwrites the sidecar with its advanced state. */
  public void update(RecoverySidecar sidecar) {
    Failpoints.hit("recovery.sidecar_confirm");
    storage.put(keyOf(sidecar.operationId()), encode(sidecar));
  }

  /**
   * Every sidecar key, sorted (oldest operation first). A listing failure is thrown: silently
   * skipping recovery would tolerate drift.
   */
  public List<String> list() {
    awaitRetirements();
    Failpoints.hit("recovery.sidecar_list");
    return storage.list(PREFIX).stream().filter(k -> k.endsWith(".json")).sorted().toList();
  }

  /**
   * Reads one listed sidecar with a single GET; empty when it was deleted since the listing (a
   * writer finished concurrently).
   *
   * @throws UnreadableSidecar when it is corrupt or not v9
   */
  public Optional<RecoverySidecar> read(String key) {
    return storage.readTextIfExists(key).map(text -> decode(key, text));
  }

  /** Deletes the sidecar; the last step of a write or a recovery. */
  public void delete(String operationId) {
    Failpoints.hit("recovery.sidecar_delete");
    storage.delete(keyOf(operationId));
  }

  /**
   * Phase D off the acknowledgement path (seed: a failed delete is swallowed and healed): the
   * delete of a published write's sidecar runs in the background. Every later listing of this
   * root in this process, and {@link #awaitRetirements()}, first waits for it, so no reader here
   * ever mistakes a finished write's sidecar for a pending one. A process that dies first leaves
   * the sidecar for the next recovery, which finds its publish landed and retires it.
   */
  public void retire(String operationId) {
    try {
      // On the caller's thread, so a test's failpoint is seen by exactly the write it wraps.
      Failpoints.hit("recovery.sidecar_delete");
    } catch (RuntimeException e) {
      LOG.warnf(e, "could not delete recovery sidecar %s; recovery will retire it", operationId);
      return;
    }
    CompletableFuture<Void> done = Background.run(() -> {
      try {
        storage.delete(keyOf(operationId));
      } catch (RuntimeException e) {
        LOG.warnf(e, "could not delete recovery sidecar %s; recovery will retire it", operationId);
      }
    });
    Set<CompletableFuture<Void>> pending = RETIRING.computeIfAbsent(storage.rootUri(),
        k -> ConcurrentHashMap.newKeySet());
    pending.add(done);
    done.whenComplete((v, e) -> pending.remove(done));
  }

  /** Waits until every background sidecar delete of this root in this process has finished. */
  public void awaitRetirements() {
    Set<CompletableFuture<Void>> pending = RETIRING.get(storage.rootUri());
    if (pending == null) {
      return;
    }
    for (CompletableFuture<Void> f : List.copyOf(pending)) {
      f.join(); // never fails: retire() logs its own failure
    }
  }

  /** Background sidecar deletes in flight, per graph root. */
  private static final ConcurrentHashMap<String, Set<CompletableFuture<Void>>> RETIRING = new ConcurrentHashMap<>();

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SidecarStore.class);

  static byte[] encode(RecoverySidecar sidecar) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(sidecar);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static RecoverySidecar decode(String key, String text) {
    JsonNode tree;
    try {
      tree = JSON.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UnreadableSidecar(key, "not JSON (" + e.getOriginalMessage() + ")", e);
    }
    JsonNode version = tree == null ? null : tree.get("format_version");
    if (version == null || !version.canConvertToInt()) {
      throw new UnreadableSidecar(key, "no format_version: a pre-v9 identity-less intent", null);
    }
    if (version.asInt() != RecoverySidecar.FORMAT_VERSION) {
      throw new UnreadableSidecar(key, "format_version " + version.asInt() + " is not "
          + RecoverySidecar.FORMAT_VERSION, null);
    }
    try {
      return JSON.treeToValue(tree, RecoverySidecar.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException | NullPointerException e) {
      throw new UnreadableSidecar(key, "malformed v9 document (" + e.getMessage() + ")", e);
    }
  }
}
