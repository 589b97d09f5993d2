package dev.omnigraph.recovery;

import dev.omnigraph.api.QuarantinedSidecar;
import dev.omnigraph.api.UnreadableSidecar;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.util.Background;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The only reader and writer of {@code __recovery/<operation id>.json}. All I/O goes through the
 * {@link StorageAdapter}, so its typed failures reach the caller unchanged (docs/recovery.md,
 * "Sidecar I/O faults").
 */
public final class SidecarStore {

  public static final String PREFIX = "__recovery";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);

  private final StorageAdapter storage;

  private final dev.omnigraph.lease.WriterFence fence;

  /** Background sidecar deletes of the root in flight, shared by every store of the root here. */
  private final RetiringSidecars retiring;

  /**
   * A store for reading and for the operator's steps with no handle of the root open here (a tool,
   * a test): it shares no background deletes, so it is exact only when none is in flight.
   */
  public SidecarStore(StorageAdapter storage) {
    this(storage, dev.omnigraph.lease.WriterFence.NONE, new RetiringSidecars());
  }

  /**
   * A store whose {@link #arm} first checks {@code fence}: arming is every writer's first durable
   * step (Phase A), so a writer that lost the graph's writer lease stops here with no effect.
   * {@code retiring} is the root's part every store of the root shares.
   */
  public SidecarStore(StorageAdapter storage, dev.omnigraph.lease.WriterFence fence, RetiringSidecars retiring) {
    this.storage = storage;
    this.fence = java.util.Objects.requireNonNull(fence, "fence");
    this.retiring = java.util.Objects.requireNonNull(retiring, "retiring");
  }

  public static String keyOf(String operationId) {
    return PREFIX + "/" + operationId + ".json";
  }

  /**
   * Arms a sidecar: create-if-absent, so an operation id can never be armed twice. A failure here
   * means no effect may follow.
   *
   * @throws dev.omnigraph.api.LeaseLost when this process no longer holds the writer lease; nothing
   *     was written
   */
  public void arm(RecoverySidecar sidecar) {
    fence.check(); // LeaseLost before Phase A: nothing written
    Failpoints.hit(Failpoint.RECOVERY_SIDECAR_WRITE);
    String key = keyOf(sidecar.operationId());
    byte[] body = encode(sidecar);
    dev.omnigraph.util.BoundedRetry.run(ARM, dev.omnigraph.util.BoundedRetry.REAL, n -> claim(key, body, n),
        () -> new IllegalStateException("unreachable: the last claim attempt throws"));
    written.put(key, sidecar);
  }

  /**
   * Attempts to arm: a fresh operation's key, so three tries settle a lost exchange (a pooled
   * connection the server had closed, an answer cut off) instead of failing the write for nothing.
   */
  private static final dev.omnigraph.util.BoundedRetry.Policy ARM = new dev.omnigraph.util.BoundedRetry.Policy(
      "sidecar arm", 3, java.time.Duration.ofMillis(50), java.time.Duration.ofMillis(200),
      java.time.Duration.ofMillis(50));

  /**
   * One create-if-absent of this operation's sidecar. A failure whose outcome is unknown
   * (TRANSIENT, UNKNOWN; on a retry also PRECONDITION, which our own landed first try would answer)
   * is settled by one GET of the key: nobody else writes an operation's own key, so our exact bytes
   * there mean the claim landed and only its answer was lost, and no object means it did not land
   * and may be tried again (a retried create-if-absent can never land twice). Anything else, or the
   * last attempt, throws the failure as it came: Phase A failed, no effect follows.
   */
  private Optional<Boolean> claim(String key, byte[] body, int attempt) {
    try {
      storage.putIfAbsent(key, body);
      return Optional.of(true);
    } catch (dev.omnigraph.api.storage.StorageException e) {
      dev.omnigraph.api.storage.StorageException.Kind kind = e.kind();
      boolean unknownOutcome = kind == dev.omnigraph.api.storage.StorageException.Kind.TRANSIENT
          || kind == dev.omnigraph.api.storage.StorageException.Kind.UNKNOWN
          || (attempt > 1 && kind == dev.omnigraph.api.storage.StorageException.Kind.PRECONDITION);
      if (!unknownOutcome) {
        throw e;
      }
      Optional<String> stored;
      try {
        stored = storage.readTextIfExists(key);
      } catch (RuntimeException readFailure) {
        e.addSuppressed(readFailure);
        throw e;
      }
      if (stored.isPresent()) {
        if (stored.get().equals(new String(body, java.nio.charset.StandardCharsets.UTF_8))) {
          return Optional.of(true); // landed; only the answer was lost
        }
        throw e;
      }
      if (attempt == ARM.maxAttempts()) {
        throw e;
      }
      return Optional.empty(); // did not land: try again
    }
  }

  /** Overwrites the sidecar with its advanced state. */
  public void update(RecoverySidecar sidecar) {
    Failpoints.hit(Failpoint.RECOVERY_SIDECAR_CONFIRM);
    // The copy held so far stays meanwhile: what readIdentity answers is the same in both versions.
    storage.put(keyOf(sidecar.operationId()), encode(sidecar));
    written.put(keyOf(sidecar.operationId()), sidecar);
  }

  /**
   * Every sidecar key, sorted (oldest operation first). A listing failure is thrown: silently
   * skipping recovery would tolerate drift.
   */
  public List<String> list() {
    Failpoints.hit(Failpoint.RECOVERY_SIDECAR_LIST);
    // A sidecar whose delete is in flight belongs to a write that published: it is not pending,
    // so it is left out rather than waited for (a listing used to wait one delete round trip
    // behind every other branch's finished write). If its delete fails it is listed again later.
    // The keys retiring when the listing starts are taken first: a delete that completes while the
    // LIST is answered has already left the map, yet its key can still be in the answer.
    java.util.Set<String> retiringBefore = retiring.keysNow();
    return storage.list(PREFIX).stream().filter(k -> k.endsWith(".json"))
        .filter(k -> !retiringBefore.contains(k) && !retiring.contains(k)).sorted().toList();
  }

  /**
   * The parts of a listed sidecar that never change over its life (writer kind, operation id,
   * authority branch, the table intents' keys and refs): this store's own copy when it armed or
   * updated the sidecar itself, else one GET. For choosing gates and for the barrier's "does it
   * concern this write" only; recovery re-reads the stored body under the gates before it acts.
   *
   * @throws UnreadableSidecar when it is corrupt or not v9
   */
  public Optional<RecoverySidecar> readIdentity(String key) {
    RecoverySidecar own = written.get(key);
    return own != null ? Optional.of(own) : read(key);
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
    Failpoints.hit(Failpoint.RECOVERY_SIDECAR_DELETE);
    storage.delete(keyOf(operationId));
    written.remove(keyOf(operationId));
  }

  /**
   * {@link #delete}, for a writer finalizing an attempt that left no effect (or whose outcome is
   * already durable): a failure is logged, not thrown, and the sidecar stays for recovery to retire.
   */
  public void deleteQuietly(String operationId) {
    try {
      delete(operationId);
    } catch (RuntimeException e) {
      // The write already published (or had no effect): failing the caller would misreport it.
      // The next write's barrier or open sees the stale sidecar and settles it.
      LOG.warnf(e, "could not delete recovery sidecar %s; recovery will retire it", operationId);
    }
  }

  /**
   * Phase D off the acknowledgement path (a failed delete is swallowed: the next recovery finds
   * the sidecar, sees its commit published and retires it): the
   * delete of a published write's sidecar runs in the background. Every later listing of this
   * root in this process, and {@link #awaitRetirements()}, first waits for it, so no reader here
   * ever mistakes a finished write's sidecar for a pending one. A process that dies first leaves
   * the sidecar for the next recovery, which finds its publish landed and retires it.
   */
  public void retire(String operationId) {
    try {
      // On the caller's thread, so a test's failpoint is seen by exactly the write it wraps.
      Failpoints.hit(Failpoint.RECOVERY_SIDECAR_DELETE);
    } catch (RuntimeException e) {
      LOG.warnf(e, "could not delete recovery sidecar %s; recovery will retire it", operationId);
      return;
    }
    String key = keyOf(operationId);
    // Registered before the delete starts, so no listing can see the key unmarked mid-delete.
    CompletableFuture<Void> gate = retiring.begin(key);
    Background.run(() -> {
      try {
        storage.delete(key);
        written.remove(key);
      } catch (RuntimeException e) {
        LOG.warnf(e, "could not delete recovery sidecar %s; recovery will retire it", operationId);
      } finally {
        retiring.done(key, gate);
      }
    });
  }

  /** Waits until every background sidecar delete of this root in this process has finished. */
  public void awaitRetirements() {
    retiring.await();
  }

  /**
   * Sidecars this store armed or updated and has not deleted, by key: what this process wrote is
   * not read back to learn its identity (bounded by this handle's writes in flight or failed).
   */
  private final ConcurrentHashMap<String, RecoverySidecar> written = new ConcurrentHashMap<>();

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SidecarStore.class);

  static byte[] encode(RecoverySidecar sidecar) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(sidecar);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static RecoverySidecar decode(String key, String text) {
    if (text.isBlank()) {
      throw new UnreadableSidecar(key, text.isEmpty() ? "empty file" : "empty file (whitespace only)", null);
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UnreadableSidecar(key, "not JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw new UnreadableSidecar(key, "empty file", null);
    }
    if (!tree.isObject()) {
      throw new UnreadableSidecar(key, "not a JSON object (a JSON " + tree.getNodeType().name().toLowerCase(
          java.util.Locale.ROOT) + ")", null);
    }
    JsonNode version = tree.get("format_version");
    if (version == null || version.isNull()) {
      throw new UnreadableSidecar(key, "no format_version: a pre-v9 identity-less intent", null);
    }
    if (!version.isIntegralNumber()) {
      throw new UnreadableSidecar(key, "format_version " + version + " is not an integer", null);
    }
    java.math.BigInteger v = version.bigIntegerValue();
    int cmp = v.compareTo(java.math.BigInteger.valueOf(RecoverySidecar.FORMAT_VERSION));
    if (cmp > 0) {
      // Written by a newer build: this one must not guess at fields it does not know.
      throw new UnreadableSidecar(key, "format_version " + v + " is newer than this build supports ("
          + RecoverySidecar.FORMAT_VERSION + ")", null);
    }
    if (cmp < 0) {
      throw new UnreadableSidecar(key, "format_version " + v + " is older than this build supports ("
          + RecoverySidecar.FORMAT_VERSION + "): a pre-v9 intent", null);
    }
    if (!tree.has("protocol_v4") && !WriterKind.BranchMerge.WIRE.equals(tree.path("writer_kind").asText(null))) {
      // Only a branch merge carries the protocol_v4 payload, and only its absence there is malformed:
      // every other writer's v9 document is read exactly as before the payload existed.
      ((com.fasterxml.jackson.databind.node.ObjectNode) tree).putNull("protocol_v4");
    }
    if (!tree.has("protocol_v7") && !WriterKind.SchemaApply.WIRE.equals(tree.path("writer_kind").asText(null))) {
      // Likewise protocol_v7: present exactly on a schema apply's sidecar.
      ((com.fasterxml.jackson.databind.node.ObjectNode) tree).putNull("protocol_v7");
    }
    if (!tree.has("protocol_v8") && !WriterKind.EnsureIndices.WIRE.equals(tree.path("writer_kind").asText(null))) {
      // Likewise protocol_v8: present exactly on an index ensure's sidecar.
      ((com.fasterxml.jackson.databind.node.ObjectNode) tree).putNull("protocol_v8");
    }
    try {
      return JSON.treeToValue(tree, RecoverySidecar.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException | NullPointerException e) {
      throw new UnreadableSidecar(key, "malformed v9 document (" + e.getMessage() + ")", e);
    }
  }

  // --- Quarantine: the operator's exit for a sidecar recovery cannot read ---

  /**
   * Where {@link #quarantine} moves unreadable sidecars: a sibling of {@link #PREFIX}, never under
   * it, so no listing of pending sidecars sees them again.
   */
  public static final String QUARANTINE_PREFIX = "__recovery_quarantine";

  /**
   * The operation id of a sidecar named either by its id or by its key
   * ({@code __recovery/<id>.json}).
   *
   * @throws dev.omnigraph.api.InvalidRequest when it is not a single plain key segment
   */
  public static String operationIdOf(String idOrKey) {
    String id = idOrKey.strip();
    if (id.startsWith(PREFIX + "/")) {
      id = id.substring(PREFIX.length() + 1);
    }
    if (id.endsWith(".json")) {
      id = id.substring(0, id.length() - ".json".length());
    }
    if (!id.matches("[0-9A-Za-z_-]{1,128}")) {
      throw new dev.omnigraph.api.InvalidRequest("not a recovery operation id: '" + idOrKey
          + "' (expected the id of a sidecar under " + PREFIX + "/, e.g. 01J…)");
    }
    return id;
  }

  /**
   * Moves the sidecar of {@code operationId} out of {@code __recovery/} to
   * {@code __recovery_quarantine/<id>.json} — only when recovery cannot read it. A copy is created
   * first (create-if-absent; an identical copy from an interrupted earlier attempt is reused, a
   * different one is kept and this copy gets a fresh name) and the sidecar is deleted last, so a
   * failure at any step leaves the sidecar in place or both copies, never neither; a repeat
   * finishes the move.
   *
   * <p>The caller must hold the root exclusively (no writer of this process live): a writer's own
   * sidecar is always readable, so only this process's writers could race the delete.
   *
   * @throws dev.omnigraph.api.NotFound when no such sidecar exists
   * @throws dev.omnigraph.api.InvalidRequest when the sidecar is readable: recovery must settle it,
   *     and nothing is changed
   * @throws dev.omnigraph.api.storage.StorageException when a read, the copy or the delete fails
   */
  public QuarantinedSidecar quarantine(String operationId) {
    return quarantine(operationId, q -> { });
  }

  /**
   * As {@link #quarantine(String)}, handing {@code beforeMove} what the sidecar holds (with the
   * intended quarantine key) once it is known to be unreadable and before anything is written, so
   * an operator sees the content even if the move then fails.
   */
  public QuarantinedSidecar quarantine(String operationId, java.util.function.Consumer<QuarantinedSidecar> beforeMove) {
    return quarantine(operationId, Optional.empty(), beforeMove);
  }

  /**
   * As {@link #quarantine(String, java.util.function.Consumer)}, for a sidecar recovery can read
   * but refuses to settle (a foreign commit on a table it owns, a HEAD behind its pin): its intent
   * can never complete, so it is moved aside with the refusal as its reason. Only the caller knows
   * that recovery refused it (it just ran recovery and caught the refusal for this operation id).
   *
   * @param refusal why recovery refuses it (the refusal's message)
   */
  public QuarantinedSidecar quarantineRefused(String operationId, String refusal,
      java.util.function.Consumer<QuarantinedSidecar> beforeMove) {
    return quarantine(operationId, Optional.of(refusal), beforeMove);
  }

  private QuarantinedSidecar quarantine(String operationId, Optional<String> refusal,
      java.util.function.Consumer<QuarantinedSidecar> beforeMove) {
    String id = operationIdOf(operationId);
    String key = keyOf(id);
    awaitRetirements();
    byte[] content;
    try {
      content = storage.read(key);
    } catch (dev.omnigraph.api.storage.StorageException e) {
      if (e.kind() == dev.omnigraph.api.storage.StorageException.Kind.NOT_FOUND) {
        throw new dev.omnigraph.api.NotFound("recovery sidecar", key, "nothing pending under that operation id");
      }
      throw e;
    }
    String reason;
    try {
      RecoverySidecar readable = decode(key, new String(content, java.nio.charset.StandardCharsets.UTF_8));
      if (refusal.isPresent()) {
        reason = "recovery refuses it: " + refusal.get();
        return move(id, key, content, reason, beforeMove);
      }
      throw new dev.omnigraph.api.InvalidRequest("recovery sidecar " + key + " is readable (" + readable.writerKind()
          + " on branch " + (readable.authority() == null ? "?" : readable.authority().branch()) + ", state "
          + readable.state() + "): recovery settles it, quarantine refuses; run omnigraph recover");
    } catch (UnreadableSidecar e) {
      reason = e.reason();
    }
    return move(id, key, content, reason, beforeMove);
  }

  private QuarantinedSidecar move(String id, String key, byte[] content, String reason,
      java.util.function.Consumer<QuarantinedSidecar> beforeMove) {
    String target = QUARANTINE_PREFIX + "/" + id + ".json";
    beforeMove.accept(new QuarantinedSidecar(key, target, reason, content));
    try {
      storage.putIfAbsent(target, content);
    } catch (dev.omnigraph.api.storage.StorageException e) {
      if (e.kind() != dev.omnigraph.api.storage.StorageException.Kind.PRECONDITION) {
        throw e;
      }
      if (!java.util.Arrays.equals(storage.read(target), content)) {
        // An earlier quarantine of the same id with other bytes: keep both.
        target = QUARANTINE_PREFIX + "/" + id + "." + dev.omnigraph.util.Ulid.next() + ".json";
        storage.putIfAbsent(target, content);
      }
    }
    storage.delete(key);
    LOG.warnf("quarantined recovery sidecar %s to %s (%s)", key, target, reason);
    return new QuarantinedSidecar(key, target, reason, content);
  }
}
