package dev.omnigraph.server;

import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.RootContents;
import dev.omnigraph.engine.OptimizeRun;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import dev.omnigraph.engine.GraphRoots;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * One graph the service serves: its id and root, its root contents (engine.RootContents), which list recovery sidecars
 * without opening the graph, and the one read-write {@link Omnigraph} handle, opened on first use
 * (a read-write open runs full recovery). The service never creates a graph, except the embedded
 * example for an empty local root when {@code seedExample} is set.
 */
final class ServedGraph implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(ServedGraph.class);
  static final String EXAMPLE_ACTOR = ExampleGraph.ACTOR;

  private final String id;
  private final StorageConfig config;
  private final boolean seedExample;
  private final RootContents contents;
  private volatile Omnigraph handle;
  /**
   * A read-only handle that serves reads while the read-write open is refused by recovery (a
   * sidecar it will not settle on its own): published state stays readable, as docs/recovery.md
   * promises; closed once the read-write handle opens.
   */
  private Omnigraph refusedReader;
  private volatile dev.omnigraph.engine.StoredQueries storedQueries = dev.omnigraph.engine.StoredQueries.none();
  /**
   * This graph's gate in force ({@link Authorization}), installed on its handles; a policy reload
   * replaces it ({@link #gate(dev.omnigraph.engine.policy.PolicyGate)}).
   */
  private volatile dev.omnigraph.engine.policy.PolicyGate gate = dev.omnigraph.engine.policy.PolicyGate.OPEN;
  /**
   * The gate a decision uses now: inside a request, the one that request pinned (so a reload while it
   * runs cannot split its decisions); outside one, {@link #gate}. Set by the registry.
   */
  private volatile java.util.function.Supplier<dev.omnigraph.engine.policy.PolicyGate> decidingGate = () -> gate;
  private volatile int lastPendingCount;
  /** Operation ids known to block writes (they survived a heal or were left by a failed write). */
  private final Set<String> blocking = ConcurrentHashMap.newKeySet();
  /** The uncovered-drift mark readiness shows. */
  private final DriftWatch drift;
  /** The last reason readiness reported, so the log gets one line per change, not one per probe. */
  private Optional<WriteBlock> lastBlock = Optional.empty();
  private final Object lastBlockLock = new Object();

  /**
   * Why writes to a graph are blocked, as the short code readiness shows without authentication.
   * The detail (operation ids, storage locations, storage error text) goes to the log only.
   */
  enum WriteBlock {
    /** {@code __recovery/} cannot be listed, or is a file where the directory must be. */
    RECOVERY_UNREADABLE,
    /** A write-blocking recovery sidecar is pending (see {@link #writeBlocking}). */
    PENDING_SIDECAR,
    /**
     * A table's live HEAD is past its pin with no sidecar covering it: found by a drift check (at
     * open, by the reconciler) or by a write refused with {@code UncoveredDrift}; cleared by a drift
     * check that finds the graph clean.
     */
    UNCOVERED_DRIFT,
    /** Another process holds the writer lease; this service waits to take it over (docs/lease.md). */
    STANDBY,
    /** This service lost the writer lease (taken over or broken); it asks for it again. */
    LEASE_LOST,
    /** Shutting down: new writes are refused while in-flight ones finish. */
    DRAINING,
    /**
     * The root holds no graph (no {@code init} yet, or a mistyped {@code --store}): every route of
     * the graph answers 404. Not for the embedded example root, which is created on first use.
     */
    NO_GRAPH;

    String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Compaction settings of the handle (docs/maintenance.md, "optimize"; the service runs the automatic pass in the background). */
  private final OptimizeSettings optimize;
  /** Told about every Optimize run of the handle (the service's optimize metrics). */
  private final List<Consumer<OptimizeRun>> optimizeListeners = new CopyOnWriteArrayList<>();

  ServedGraph(String id, StorageConfig config, boolean seedExample) {
    this(id, config, seedExample, OptimizeSettings.fromSystemProperties());
  }

  ServedGraph(String id, StorageConfig config, boolean seedExample, OptimizeSettings optimize) {
    this(id, config, seedExample, optimize, dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties(), false);
  }

  /**
   * @param leases the writer lease's TTL and renewal (docs/lease.md)
   * @param readOnly a read replica ({@code omnigraph.mode=read-only}): opens the graph read-only,
   *     never takes the writer lease and refuses every write
   */
  ServedGraph(String id, StorageConfig config, boolean seedExample, OptimizeSettings optimize,
      dev.omnigraph.api.lease.LeaseSettings leases, boolean readOnly) {
    this.optimize = optimize;
    this.id = id;
    this.config = config;
    this.seedExample = seedExample && config.backend() == StorageConfig.Backend.LOCAL && !readOnly;
    this.contents = RootContents.open(config);
    this.leases = leases;
    this.readOnly = readOnly;
    this.drift = new DriftWatch(id);
  }

  /** The writer lease settings of this graph's read-write handle. */
  private final dev.omnigraph.api.lease.LeaseSettings leases;
  /** A read replica: never writes, never takes the lease. */
  private final boolean readOnly;
  /**
   * The service's own share of the process's writer lease on the root, held from start (or from
   * the takeover) until close, so the lease does not depend on the handle being open. Null while a
   * standby, before the graph exists, and on a read replica.
   */
  private volatile dev.omnigraph.api.lease.LeaseClaim lease;
  /** Who holds the lease while this service is a standby for it (the log and readiness); null otherwise. */
  private volatile String standbyFor;
  /** Writes being served now, and whether new ones are refused (drain before shutdown). */
  private final java.util.concurrent.atomic.AtomicInteger inFlightWrites = new java.util.concurrent.atomic.AtomicInteger();
  private volatile boolean draining;

  /** Whether this graph is served by a read replica. */
  boolean readOnly() {
    return readOnly;
  }

  /**
   * Takes (or keeps) the writer lease: a writer holds it from start, a standby keeps asking for it
   * (each reconcile pass) and takes it over once the holder releases it or it expires; a lost lease
   * closes the handle (its next open runs full recovery) and is asked for again. Skipped on a read
   * replica, while draining, and while the root holds no graph yet (the lease is then taken by the
   * first open, which creates the example graph or reports "not initialized").
   *
   * @return true when this service holds the lease after the call
   */
  synchronized boolean claimLease() {
    if (readOnly || draining) {
      return false;
    }
    dev.omnigraph.api.lease.LeaseClaim current = lease;
    if (current != null && current.status().held()) {
      return true;
    }
    if (current != null) {
      // Lost: whatever this handle believed may be stale, and another writer may have run.
      LOG.errorf("graph %s: writer lease lost (%s); closing the handle, standing by", id,
          current.status().lost().orElse("expired before a renewal"));
      if (handle != null) {
        handle.close();
        handle = null;
      }
      current.close();
      lease = null;
    }
    if (!graphExists()) {
      return false;
    }
    try {
      lease = RootContents.joinLease(config, leases);
    } catch (dev.omnigraph.api.LeaseHeld held) {
      if (standbyFor == null) {
        LOG.warnf("graph %s: standing by: %s", id, held.getMessage());
      }
      standbyFor = held.owner();
      return false;
    }
    if (standbyFor != null) {
      LOG.infof("graph %s: writer lease taken over from %s", id, standbyFor);
      standbyFor = null;
    }
    return true;
  }

  /** Set once the root is seen holding a graph: a graph is never un-initialized, so it is not asked again. */
  private volatile boolean graphSeen;

  /** Whether the root holds a graph: one existence check per readiness probe until it does. */
  private boolean graphKnownToExist() {
    if (!graphSeen && graphExists()) {
      graphSeen = true;
    }
    return graphSeen;
  }

  private boolean graphExists() {
    try {
      return contents.holdsGraph();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Admits one write: refused while draining, on a read replica, on a standby and after the lease
   * was lost, each as {@link dev.omnigraph.api.WriterUnavailable} (503, with {@code Retry-After}
   * where a retry here can succeed). The returned ticket ends the write (close it in a finally).
   */
  AutoCloseable admitWrite() {
    if (readOnly) {
      throw new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.READ_REPLICA,
          "graph " + id + " is served read-only here (a read replica); send writes to the writer service",
          Optional.empty());
    }
    inFlightWrites.incrementAndGet();
    if (draining) {
      inFlightWrites.decrementAndGet();
      throw new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.DRAINING,
          "the service is shutting down; retry shortly: the next writer takes over", Optional.of(retryAfter()));
    }
    dev.omnigraph.api.lease.LeaseClaim current = lease;
    if (current != null && !current.status().held()) {
      inFlightWrites.decrementAndGet();
      throw new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.LEASE_LOST,
          "this service lost the writer lease of graph " + id + "; retry shortly", Optional.of(retryAfter()));
    }
    return inFlightWrites::decrementAndGet;
  }

  /** Seconds a client should wait before retrying a refused write here: one renewal interval. */
  private long retryAfter() {
    return Math.max(1, (leases.renewEvery().toMillis() + 999) / 1000);
  }

  /** Writes admitted and not yet finished. */
  int inFlightWrites() {
    return inFlightWrites.get();
  }

  /**
   * Starts the drain: new writes are refused from now on ({@link #admitWrite}), readiness goes
   * DOWN; in-flight ones finish. Then {@link #close} releases the lease.
   */
  void startDrain() {
    draining = true;
  }

  /** Whether the drain started. */
  boolean draining() {
    return draining;
  }

  String id() {
    return id;
  }

  String uri() {
    return config.rootUri();
  }

  /** The authorization gate of this graph's current request (the one in force outside a request). */
  dev.omnigraph.engine.policy.PolicyGate gate() {
    return decidingGate.get();
  }

  /** Installs the gate in force on this graph and its open handles: while the registry is built, and after a reload. */
  synchronized void gate(dev.omnigraph.engine.policy.PolicyGate gate) {
    this.gate = gate;
    if (handle != null) {
      handle.gatedBy(gate);
    }
    if (refusedReader != null) {
      refusedReader.gatedBy(gate);
    }
  }

  /** Sets where {@link #gate()} finds the current request's gate; while the registry is built. */
  void decidingGate(java.util.function.Supplier<dev.omnigraph.engine.policy.PolicyGate> source) {
    this.decidingGate = source;
  }

  /** The graph's stored-query catalog (empty unless configured). */
  dev.omnigraph.engine.StoredQueries storedQueries() {
    return storedQueries;
  }

  /** Sets the catalog, once, while the registry is built. */
  void storedQueries(dev.omnigraph.engine.StoredQueries catalog) {
    this.storedQueries = catalog;
  }

  /** The graph's external-Blob allow list ({@code omnigraph.graphs.<id>.blob.allow}); deny unless configured. */
  private volatile dev.omnigraph.api.ExternalBlobPolicy blobPolicy = dev.omnigraph.api.ExternalBlobPolicy.DENY;

  /** Sets the allow list, once, while the registry is built (before any handle opens). */
  void blobPolicy(dev.omnigraph.api.ExternalBlobPolicy policy) {
    this.blobPolicy = policy;
  }

  /**
   * The read-write handle, opening it on first use (full recovery runs then), as a view pinned to
   * {@link #gate()}: every check of the engine call sees the gate the request decides against.
   *
   * @throws NotFound when the root holds no graph
   * @throws dev.omnigraph.api.RecoveryRequired when the open's recovery refuses a sidecar
   */
  Omnigraph handle() {
    return openedHandle().pinnedTo(gate());
  }

  private Omnigraph openedHandle() {
    Omnigraph h = handle;
    if (h != null) {
      return h;
    }
    boolean openedHere = false;
    synchronized (this) {
      if (handle == null) {
        // Gated after the open: an example seeded on first use is the service's own write, not a request's.
        Omnigraph opened = open().gatedBy(gate).allowExternalBlobs(blobPolicy);
        optimizeListeners.forEach(opened::onOptimize);
        handle = opened;
        openedHere = true;
      }
      h = handle;
    }
    if (openedHere) {
      // The open's recovery settled what it could; drift it cannot see (no sidecar covers it) must
      // show in readiness before the first write meets it.
      requestDriftCheck();
      try {
        checkDrift();
      } catch (RuntimeException e) {
        LOG.warnf("graph %s: drift check after open failed, the reconciler retries it: %s", id, e.getMessage());
      }
    }
    return h;
  }

  /**
   * The handle for a read route: the read-write handle, or, while its open is refused by recovery
   * (a pending sidecar recovery will not settle on its own, or one it cannot read), a read-only
   * handle of the same root. A pending write-side intent never hides the published state: the
   * manifest is the only visibility authority, so reads need no recovery. Writes keep answering
   * the refusal through {@link #handle()}.
   *
   * @throws NotFound when the root holds no graph
   */
  Omnigraph reader() {
    try {
      Omnigraph h = openedHandle();
      closeRefusedReader();
      return h.pinnedTo(gate());
    } catch (dev.omnigraph.api.RecoveryRequired | dev.omnigraph.api.UnreadableSidecar refused) {
      synchronized (this) {
        if (handle != null) {
          return handle.pinnedTo(gate());
        }
        if (refusedReader == null) {
          LOG.warnf("graph %s: the read-write open is refused by recovery (%s); serving reads from a read-only "
              + "handle until an operator settles it", id, refused.getMessage());
          refusedReader = Omnigraph.open(config, OpenMode.READ_ONLY, optimize).gatedBy(gate);
        }
        return refusedReader.pinnedTo(gate());
      }
    }
  }

  private synchronized void closeRefusedReader() {
    if (refusedReader != null) {
      refusedReader.close();
      refusedReader = null;
    }
  }

  /** Registers {@code listener} for every Optimize run of the handle, now or once it opens. */
  synchronized void onOptimize(Consumer<OptimizeRun> listener) {
    optimizeListeners.add(listener);
    if (handle != null) {
      handle.onOptimize(listener);
    }
  }

  /** The handle if it is open, without opening it. */
  Optional<Omnigraph> openHandle() {
    return Optional.ofNullable(handle);
  }

  private Omnigraph open() {
    if (draining) {
      // Closed (or closing) for shutdown: never reopen, which would take the lease again.
      throw new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.DRAINING,
          "the service is shutting down", Optional.of(retryAfter()));
    }
    if (seedExample && ExampleGraph.emptyLocalRoot(config)) {
      return ExampleGraph.create(id, config);
    }
    try {
      if (readOnly) {
        return Omnigraph.open(config, OpenMode.READ_ONLY, optimize);
      }
      return Omnigraph.open(config, OpenMode.READ_WRITE, optimize, leases);
    } catch (dev.omnigraph.api.LeaseHeld held) {
      standbyFor = held.owner();
      throw new dev.omnigraph.api.WriterUnavailable(dev.omnigraph.api.WriterUnavailable.Reason.STANDBY,
          "graph " + id + " is a standby here: " + held.getMessage(), Optional.of(retryAfter()));
    } catch (NotFound e) {
      if (!"graph".equals(e.kind())) {
        throw e;
      }
      throw new NotFound("graph", id, "not initialized: " + config.rootUri() + " holds no graph; create it with "
          + "bin/omnigraph init --schema FILE.pg " + config.rootUri());
    }
  }

  /**
   * The operation ids of the pending recovery sidecars, listed now without opening the graph.
   *
   * @throws dev.omnigraph.api.storage.StorageException when {@code __recovery/} cannot be listed
   */
  List<String> pendingOperations() {
    List<String> ops = contents.pendingSidecars().stream().map(ServedGraph::operationId).toList();
    lastPendingCount = ops.size();
    return ops;
  }

  private static String operationId(String sidecarKey) {
    String name = sidecarKey.substring(sidecarKey.lastIndexOf('/') + 1);
    return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
  }

  /**
   * Of {@code pending}, the operations that block writes. Before the handle is open no writer of
   * this process can own a sidecar, so every one blocks (the open's full recovery settles it).
   * Once it is open a listed sidecar may be a live write's; only those known to have survived a
   * heal, or left behind by a failed write, block.
   */
  Set<String> writeBlocking(List<String> pending) {
    Set<String> out = new HashSet<>(pending);
    if (handle != null) {
      out.retainAll(blocking);
    }
    return out;
  }

  /** This service's role for the writer lease and the stored lease as read now (one GET). */
  LeaseOutput leaseStatus() {
    // The process's lease on the root, whether this service's own claim or an open handle's took it.
    Optional<dev.omnigraph.api.lease.LeaseStatus> mine =
        GraphRoots.shared().leaseStatus(config.rootUri());
    String role;
    if (readOnly) {
      role = "read_only";
    } else if (draining) {
      role = "draining";
    } else if (mine.isPresent() && mine.get().held()) {
      role = "writer";
    } else if (mine.isPresent()) {
      role = "lease_lost";
    } else if (standbyFor != null) {
      role = "standby";
    } else {
      role = "unclaimed"; // nothing opened the graph yet: the first open or write takes the lease
    }
    Optional<dev.omnigraph.api.lease.LeaseView> view;
    try {
      view = contents.lease();
    } catch (dev.omnigraph.api.lease.LeaseUnreadable e) {
      return new LeaseOutput(id, role, false, null, null, null, null, e.reason());
    }
    if (view.isEmpty()) {
      return new LeaseOutput(id, role, false, null, null, null, null, null);
    }
    dev.omnigraph.api.lease.LeaseDocument d = view.get().document();
    return new LeaseOutput(id, role, !view.get().expired(), new LeaseOutput.Holder(d.ownerId(), d.host(), d.pid()),
        d.acquiredAtMicros(), d.renewedAtMicros(), dev.omnigraph.util.Micros.of(view.get().expiresAt()), null);
  }

  /**
   * Why writes are blocked now, from cheap checks only: one listing of {@code __recovery/} (plus, on
   * a local root whose listing is empty, one stat of it) and the in-memory marks. Never opens the
   * graph. Logs the detail once per change of the answer.
   */
  Optional<WriteBlock> writeBlock() {
    Optional<WriteBlock> block;
    String detail;
    dev.omnigraph.api.lease.LeaseClaim current = lease;
    try {
      List<String> pending = readOnly ? List.of() : pendingOperations();
      Set<String> blockingNow = new java.util.TreeSet<>(writeBlocking(pending));
      if (draining) {
        block = Optional.of(WriteBlock.DRAINING);
        detail = "draining for shutdown: " + inFlightWrites.get() + " writes in flight";
      } else if (standbyFor != null && current == null) {
        block = Optional.of(WriteBlock.STANDBY);
        detail = "standing by: the writer lease is held by " + standbyFor;
      } else if (current != null && !current.status().held()) {
        block = Optional.of(WriteBlock.LEASE_LOST);
        detail = "the writer lease was lost: " + current.status().lost().orElse("expired before a renewal");
      } else if (!seedExample && !graphKnownToExist()) {
        block = Optional.of(WriteBlock.NO_GRAPH);
        detail = uri() + " holds no graph; create it with omnigraph init --schema FILE " + uri();
      } else if (pending.isEmpty() && recoveryDirIsAFile()) {
        // An object store lists a file as an empty prefix; every write's sidecar arm would fail.
        block = Optional.of(WriteBlock.RECOVERY_UNREADABLE);
        detail = RootContents.SIDECAR_PREFIX + " under " + uri() + " is a file, not a directory";
      } else if (!blockingNow.isEmpty()) {
        block = Optional.of(WriteBlock.PENDING_SIDECAR);
        detail = "recovery sidecars block writes: " + String.join(", ", blockingNow);
      } else if (drift.drifted()) {
        block = Optional.of(WriteBlock.UNCOVERED_DRIFT);
        detail = "uncovered drift" + drift.detail() + "; run omnigraph repair";
      } else {
        block = Optional.empty();
        detail = "";
      }
    } catch (dev.omnigraph.api.storage.StorageException e) {
      block = Optional.of(WriteBlock.RECOVERY_UNREADABLE);
      detail = "cannot list " + RootContents.SIDECAR_PREFIX + " under " + uri() + ": " + e.kind() + ": " + e.getMessage();
    }
    synchronized (lastBlockLock) {
      if (!block.equals(lastBlock)) {
        lastBlock = block;
        if (block.isPresent()) {
          LOG.warnf("graph %s: writes blocked (%s): %s", id, block.get().code(), detail);
        } else {
          LOG.infof("graph %s: writes no longer blocked", id);
        }
      }
    }
    return block;
  }

  private boolean recoveryDirIsAFile() {
    return config.backend() == StorageConfig.Backend.LOCAL
        && Files.isRegularFile(config.localRoot().resolve(RootContents.SIDECAR_PREFIX), java.nio.file.LinkOption.NOFOLLOW_LINKS);
  }

  /** Records that a write on this graph was refused with uncovered drift. */
  void markDrift() {
    drift.mark();
  }

  /** Whether the graph is marked drifted (readiness DOWN {@code uncovered_drift}). */
  boolean drifted() {
    return drift.drifted();
  }

  /**
   * Asks for a drift check: the graph was opened, or a write's outcome is unknown (its effect may
   * have landed, and its sidecar may yet be lost).
   */
  void requestDriftCheck() {
    drift.request();
  }

  /** Whether {@link #checkDrift} has something to answer: a request, or a mark to re-check. */
  boolean driftCheckDue() {
    return drift.due();
  }

  /**
   * Runs the drift check ({@link Omnigraph#driftCheck}: one HEAD probe per table pin, under every
   * gate) and sets or clears the mark ({@link DriftWatch#check}). On the open handle, or, before the
   * graph is open, on a short-lived read-only handle, so a check never runs an open's recovery,
   * never seeds the example graph and never blocks on anything but the open.
   *
   * @throws RuntimeException when the check cannot run (e.g. storage); it stays due
   */
  void checkDrift() {
    drift.check(() -> openHandle().map(Omnigraph::driftCheck).orElseGet(this::driftCheckUnopened));
  }

  /** The drift check on a read-only handle, under this graph's lock so no open races it. */
  private RepairReport driftCheckUnopened() {
    synchronized (this) {
      if (handle != null) {
        return handle.driftCheck();
      }
      try (Omnigraph readOnly = Omnigraph.open(config, OpenMode.READ_ONLY, optimize)) {
        return readOnly.driftCheck();
      }
    }
  }

  /** Records that {@code operationId}'s sidecar blocks writes (a write answered RecoveryRequired). */
  void markBlocking(String operationId) {
    blocking.add(operationId);
  }

  /**
   * Records a reconcile pass: of the operations it listed first ({@code listed}), exactly
   * {@code stillBlocking} block. An operation marked by a failed write after that listing is kept
   * for the next pass.
   */
  void settleBlocking(Set<String> listed, Set<String> stillBlocking) {
    blocking.removeIf(op -> listed.contains(op) && !stillBlocking.contains(op));
    blocking.addAll(stillBlocking);
  }

  /** The sidecars listed by the last listing (the pending-sidecar gauge). */
  int lastPendingCount() {
    return lastPendingCount;
  }

  @Override
  public synchronized void close() {
    closeRefusedReader();
    if (handle != null) {
      handle.close();
      handle = null;
    }
    if (lease != null) {
      lease.close(); // the last claim of the process releases it: a standby takes over at once
      lease = null;
    }
    contents.close();
  }
}
