package dev.omnigraph.engine;

import dev.omnigraph.api.lease.BrokenLease;
import dev.omnigraph.api.lease.LeaseClaim;
import dev.omnigraph.api.lease.LeaseSettings;
import dev.omnigraph.api.lease.LeaseView;
import dev.omnigraph.api.storage.LanceProbeReport;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.lease.LeaseManager;
import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.table.LanceProbe;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * What a front end may ask of a root without opening its graph (the service's readiness and lease
 * status, the CLI's doctor and lease commands): cheap existence checks, the pending sidecars, the
 * stored writer lease shown or broken; no recovery. It is the front ends' door to a root's object
 * store, which stays below the engine: one adapter per open instance, closed with it.
 */
public final class RootContents implements AutoCloseable {

  /** The key prefix of the recovery sidecars under a root. */
  public static final String SIDECAR_PREFIX = SidecarStore.PREFIX;

  private final StorageAdapter storage;

  private RootContents(StorageAdapter storage) {
    this.storage = storage;
  }

  /**
   * Opens {@code config}'s store: this checks what can be checked without a request (credentials
   * found, endpoint usable).
   *
   * @throws dev.omnigraph.api.storage.StorageException of kind CONFIGURATION when the store is set up wrong
   */
  public static RootContents open(StorageConfig config) {
    return new RootContents(StorageAdapters.open(config));
  }

  /**
   * Points every location that Lance files under {@code config}'s root record for a dataset of the
   * root it was copied or moved from at the same dataset under this root (a copy, a restored backup,
   * a sync to another bucket or prefix: Lance names a branch's parent by absolute path or URI). With
   * {@code dryRun} only reports them, and works beside a live writer. Otherwise takes the writer
   * lease and the root's schema gate; idempotent, and a run stopped part way is finished by the next
   * one (or by the next read-write open, which relocates a moved root itself).
   *
   * @throws NotFound when the root holds no graph
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the writer lease; nothing written
   */
  public static dev.omnigraph.api.storage.RelocationReport relocate(StorageConfig config, boolean dryRun) {
    return RootLifecycle.relocate(config, dryRun);
  }

  /**
   * The operator's exit for a recovery sidecar that recovery cannot read (corrupt, empty, of
   * another format version) or reads and refuses (a foreign commit on a table it owns, a HEAD
   * behind its pin: {@code Recovery.refusal}): moves {@code __recovery/<id>.json} aside to
   * {@code __recovery_quarantine/<id>.json}, where no listing of pending sidecars sees it, and
   * returns what it held. A refused intent's unpublished effect is then uncovered drift, which
   * {@code repair --apply} restores to the published version. Works without opening the graph
   * read-write (that open is what the sidecar blocks); takes the root's schema gate exclusively,
   * so no writer of this process is live. Refuses, changing nothing, when recovery would settle the
   * sidecar: {@code recover} does that.
   *
   * @param operationId the operation id, or the sidecar's key {@code __recovery/<id>.json}
   * @param beforeMove sees what the sidecar holds before anything is written
   * @throws NotFound when the root holds no graph or no such sidecar
   * @throws dev.omnigraph.api.InvalidRequest when the id is malformed or recovery would settle it
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the writer lease; nothing moved
   */
  public static dev.omnigraph.api.QuarantinedSidecar quarantineSidecar(StorageConfig config, String operationId,
      java.util.function.Consumer<dev.omnigraph.api.QuarantinedSidecar> beforeMove) {
    return RootLifecycle.quarantineSidecar(config, operationId, beforeMove);
  }

  /**
   * Joins this process's writer lease on {@code config}'s root (the service's own share, held from
   * start to close independently of its handle).
   *
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the lease; nothing was written
   */
  public static LeaseClaim joinLease(StorageConfig config, LeaseSettings settings) {
    return GraphRoots.shared().joinLease(config, settings);
  }

  /**
   * The doctor's Lance probe: every check against a fresh dataset at {@code scratchKey} under
   * {@code config}'s root, each failure a failed check (never thrown); the dataset is left in place.
   */
  public static LanceProbeReport probeLance(StorageConfig config, String scratchKey) {
    return LanceProbe.run(config, scratchKey);
  }

  /**
   * Whether the root holds a graph (its manifest exists): one existence check.
   *
   * @throws dev.omnigraph.api.storage.StorageException when the store cannot answer
   */
  public boolean holdsGraph() {
    return storage.exists(ManifestBootstrap.MANIFEST_KEY);
  }

  /**
   * The keys of the root's pending recovery sidecars, listed now without opening the graph.
   *
   * @throws dev.omnigraph.api.storage.StorageException when {@code __recovery/} cannot be listed
   */
  public List<String> pendingSidecars() {
    return GraphRoots.shared().pendingSidecars(storage);
  }

  /**
   * The pending sidecars recovery cannot read, each as the refusal recovery would raise for it
   * (the operator's view before a quarantine); reads only, so it works beside a live writer.
   */
  public List<dev.omnigraph.api.UnreadableSidecar> unreadableSidecars() {
    SidecarStore sidecars = new SidecarStore(storage);
    List<dev.omnigraph.api.UnreadableSidecar> out = new java.util.ArrayList<>();
    for (String key : sidecars.list()) {
      try {
        sidecars.read(key);
      } catch (dev.omnigraph.api.UnreadableSidecar e) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * The stored writer lease as read now (one GET), judged live or expired; empty when none is stored.
   *
   * @throws dev.omnigraph.api.lease.LeaseUnreadable when the stored lease cannot be parsed
   */
  public Optional<LeaseView> lease() {
    return new LeaseManager(storage, Clock.systemUTC()).show();
  }

  /** Deletes the stored writer lease, whoever holds it (docs/lease.md); empty when none was stored. */
  public Optional<BrokenLease> breakLease() {
    return new LeaseManager(storage, Clock.systemUTC()).breakLease();
  }

  /** Deletes every object under {@code prefix} (the doctor's scratch dataset). */
  public void deletePrefix(String prefix) {
    storage.deletePrefix(prefix);
  }

  @Override
  public void close() {
    storage.close();
  }
}
