package dev.omnigraph.engine;

import dev.omnigraph.api.QuarantinedSidecar;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.List;
import java.util.Optional;

/**
 * Opening a graph root and the operator's steps on a root no handle serves yet: init, open (the
 * writer lease, relocation of a copied root, the full recovery sweep), relocate and quarantine.
 * Each takes the root's parts from a {@link GraphRoots} registry.
 */
final class RootLifecycle {

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(RootLifecycle.class);

  private RootLifecycle() {}

  /** See the {@link Omnigraph} method of this name. */
  static Omnigraph init(GraphRoots roots, StorageConfig config, String schemaSource, Optional<String> actor) {
    GraphRoot root = roots.acquire(config);
    try {
      try (StorageAdapter storage = StorageAdapters.open(config);
          GateManager.Held held = root.gates().acquireExclusive(List.of(), List.of())) {
        GraphInit.run(config, storage, schemaSource, actor, root.manifests());
      }
      // Still holding the root: the open reuses the manifest state the init's publish left.
      return open(roots, config, OpenMode.READ_WRITE, OptimizeSettings.fromSystemProperties(),
          dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties());
    } finally {
      roots.release(root);
    }
  }

  /** See the {@link Omnigraph} method of this name. */
  static Omnigraph open(GraphRoots roots, StorageConfig config, OpenMode mode,
      OptimizeSettings optimizeSettings, dev.omnigraph.api.lease.LeaseSettings leaseSettings) {
    StorageAdapter storage = StorageAdapters.open(config);
    GraphRoot root = roots.acquire(config);
    dev.omnigraph.lease.ProcessLeases.Claim lease = null;
    try {
      if (storage.exists(GraphInit.CLAIM_KEY)) {
        throw new Conflict("graph root " + config.rootUri() + " holds an init claim (" + GraphInit.CLAIM_KEY
            + "): its init is running or was interrupted; it cannot be opened");
      }
      if (!storage.exists(ManifestBootstrap.MANIFEST_KEY)) {
        throw new NotFound("graph", config.rootUri(), "no __manifest; create one with omnigraph init");
      }
      new GraphManifest(config, storage, root.manifests()).checkStamp();
      if (mode == OpenMode.READ_WRITE) {
        // Before anything that writes (recovery first): one writer process per root.
        lease = roots.joinLease(config, leaseSettings);
        // Before recovery or anything else reads a branch: a copied root reads only itself.
        relocateIfMoved(root, config, storage);
      } else {
        // A read must never reach the root this one was copied from (docs/maintenance.md, "Copying, backing up and moving a graph root").
        dev.omnigraph.table.RootLocations.probe(config, storage);
      }
      SchemaContract schema = SchemaContract.read(storage);
      Omnigraph graph = new Omnigraph(roots, root, config, storage, mode, schema, optimizeSettings, lease);
      if (mode == OpenMode.READ_WRITE) {
        // Full recovery: every pending sidecar is rolled forward, rolled back or refused loudly
        // before this handle serves anything. A read-only open repairs nothing.
        graph.lastRecovery = graph.recovery.sweep(Recovery.Mode.FULL);
        // Recovery may have accepted an interrupted schema apply: serve what is accepted now, and
        // bring the human-facing copies of the contract up to it.
        graph.schemas.reload(storage).writeCopies(storage);
      } else {
        StoredSchemaContracts.refuseUnpromoted(storage, graph.sidecars, graph.manifest, graph.contract());
      }
      return graph;
    } catch (RuntimeException e) {
      RuntimeException settled = new StoreEvidence(storage).settle(e);
      storage.close();
      if (lease != null) {
        lease.close();
      }
      roots.release(root);
      throw settled;
    }
  }

  /** See the {@link Omnigraph} method of this name. */
  static dev.omnigraph.api.storage.RelocationReport relocate(StorageConfig config, boolean dryRun) {
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      if (!storage.exists(ManifestBootstrap.MANIFEST_KEY)) {
        throw new NotFound("graph", config.rootUri(), "no __manifest; create one with omnigraph init");
      }
      if (dryRun) {
        return dev.omnigraph.table.RootLocations.scan(config, storage);
      }
      GraphRoots roots = GraphRoots.shared();
      try (dev.omnigraph.lease.ProcessLeases.Claim lease = roots.joinLease(config,
          dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties())) {
        // The claim keeps the root open in the registry: peek sees it.
        GraphRoot root = roots.peek(config.rootUri()).orElseThrow();
        try (GateManager.Held held = root.gates().acquireExclusive(List.of(), List.of())) {
          dev.omnigraph.api.storage.RelocationReport report =
              dev.omnigraph.table.RootLocations.relocate(config, storage, false, root.lance());
          root.manifests().forgetAll();
          return report;
        }
      }
    }
  }

  /** See the {@link Omnigraph} method of this name. */
  static QuarantinedSidecar quarantineSidecar(StorageConfig config, String operationId,
      java.util.function.Consumer<QuarantinedSidecar> beforeMove) {
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      if (!storage.exists(ManifestBootstrap.MANIFEST_KEY)) {
        throw new NotFound("graph", config.rootUri(), "no __manifest; create one with omnigraph init");
      }
      // The writer lease too: moving a sidecar aside is a writer's step, never beside a live writer.
      GraphRoots roots = GraphRoots.shared();
      try (dev.omnigraph.lease.ProcessLeases.Claim lease = roots.joinLease(config,
          dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties());
          GateManager.Held held = roots.peek(config.rootUri()).orElseThrow().gates()
              .acquireExclusive(List.of(), List.of())) {
        SidecarStore store = new SidecarStore(storage);
        String id = SidecarStore.operationIdOf(operationId);
        Optional<String> refused;
        try (Omnigraph reader = Omnigraph.open(config, OpenMode.READ_ONLY)) {
          // Recovery's own verdict, without acting on it: a sidecar it refuses can never complete.
          refused = reader.evidence.call(() -> reader.recovery.refusal(id));
        } catch (dev.omnigraph.api.UnreadableSidecar unreadable) {
          refused = Optional.empty(); // the unreadable path below
        }
        return refused.isPresent() ? store.quarantineRefused(id, refused.get(), beforeMove)
            : store.quarantine(id, beforeMove);
      }
    }
  }

  /**
   * A read-write open of a copied or moved root points its files at it first. Safe there: the
   * writer lease is held (no other process writes the root), nothing of this handle has read a
   * branch yet, and every rewrite only replaces a location naming a dataset of the old root with the
   * same dataset under this one. A location that names no dataset of either is left and refused.
   */
  private static void relocateIfMoved(GraphRoot root, StorageConfig config, StorageAdapter storage) {
    try {
      dev.omnigraph.table.RootLocations.probe(config, storage);
      return;
    } catch (dev.omnigraph.api.RootRelocated moved) {
      LOG.warnf("graph root %s was copied or moved from %s: relocating it before the open", config.rootUri(),
          moved.recordedRoots());
    }
    dev.omnigraph.api.storage.RelocationReport report;
    try (GateManager.Held held = root.gates().acquireExclusive(List.of(), List.of())) {
      report = dev.omnigraph.table.RootLocations.relocate(config, storage, false, root.lance());
    }
    root.manifests().forgetAll();
    if (!report.unrelocatable().isEmpty()) {
      throw dev.omnigraph.table.RootLocations.relocated(config, report.unrelocatable());
    }
  }
}
