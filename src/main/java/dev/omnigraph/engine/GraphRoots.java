package dev.omnigraph.engine;

import dev.omnigraph.api.lease.LeaseStatus;
import dev.omnigraph.api.lease.LeaseSettings;
import dev.omnigraph.lease.ProcessLeases;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The graph roots an application has open, by canonical root URI: every handle of one root opened
 * through one registry shares the root's {@link GraphRoot} (gates, manifest states, Lance session,
 * schema, background sidecar deletes, writer lease). Reference-counted: each handle and each writer
 * lease claim holds one reference, and closing the last releases the root's caches and handles (the
 * next open starts cold, as a new process would).
 *
 * <p>An application owns its registry. The convenience entry points ({@code Omnigraph.open},
 * {@code init}, {@code relocate}, {@code quarantineSidecar}) and the service and CLI use
 * {@link #shared()}, the process's default one. Two registries must never open the same root in
 * one process: they would not share gates, and the second writer lease claim would take over the
 * first one's lease (same owner) rather than join it.
 */
public final class GraphRoots {

  private static final GraphRoots SHARED = new GraphRoots();

  /** Open roots and their reference counts. Guarded by this. */
  private final Map<String, Counted> open = new HashMap<>();

  private static final class Counted {
    final GraphRoot root;
    int references;

    Counted(GraphRoot root) {
      this.root = root;
    }
  }

  /**
   * Adjacency indexes of every root open here: keyed by root and exact edge-table version, so one
   * cache serves every handle, and its bound (edges held) is one for the application.
   */
  private final dev.omnigraph.read.AdjacencyCache adjacency = new dev.omnigraph.read.AdjacencyCache();

  /** An empty registry. */
  public GraphRoots() {}

  /** The process's default registry. */
  public static GraphRoots shared() {
    return SHARED;
  }

  /** Takes a reference on {@code config}'s root, building its parts on first use; {@link #release} it. */
  GraphRoot acquire(StorageConfig config) {
    synchronized (this) {
      Counted c = open.computeIfAbsent(config.rootUri(), uri -> new Counted(GraphRoot.of(uri)));
      c.references++;
      return c.root;
    }
  }

  /** Gives back a reference {@link #acquire} took; the last one releases the root. */
  void release(GraphRoot root) {
    boolean last;
    synchronized (this) {
      Counted c = open.get(root.uri());
      if (c == null || c.root != root) {
        throw new IllegalStateException("graph root " + root.uri() + " released more often than acquired");
      }
      last = --c.references == 0;
      if (last) {
        open.remove(root.uri());
      }
    }
    if (last) {
      root.release(); // outside the lock: it may wait for background deletes
    }
  }

  /** The root open under {@code rootUri} now, without taking a reference. */
  Optional<GraphRoot> peek(String rootUri) {
    synchronized (this) {
      return Optional.ofNullable(open.get(rootUri)).map(c -> c.root);
    }
  }

  /**
   * Sets the bytes the process's column cache may hold ({@link dev.omnigraph.api.ReadSettings#COLUMN_CACHE_BYTES},
   * docs/performance.md "The column cache"), evicting down to it now; 0 turns it off. The library
   * and the CLI start from the system property of that name; the service sets its configured value.
   *
   * @throws IllegalArgumentException for a negative value
   */
  public static void columnCacheBytes(long bytes) {
    dev.omnigraph.table.LanceRoot.columnCacheBytes(bytes);
  }

  /** The adjacency indexes every handle opened here shares. */
  dev.omnigraph.read.AdjacencyCache adjacency() {
    return adjacency;
  }

  /** How many roots are open (tests: a closed handle let go of its root). */
  int openRoots() {
    synchronized (this) {
      return open.size();
    }
  }

  /**
   * Joins this process's writer lease on {@code config}'s root, acquiring it first when nothing here
   * holds it; the claim keeps the root open until it closes (the service holds one from start to
   * close, independently of its handle).
   *
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the lease; nothing was written
   */
  public ProcessLeases.Claim joinLease(StorageConfig config, LeaseSettings settings) {
    GraphRoot root = acquire(config);
    try {
      return root.leases().join(() -> StorageAdapters.open(config), settings, () -> release(root));
    } catch (RuntimeException e) {
      release(root);
      throw e;
    }
  }

  /** The writer lease this process holds on {@code rootUri}, if a handle or claim here holds one. */
  public Optional<LeaseStatus> leaseStatus(String rootUri) {
    return peek(rootUri).flatMap(r -> r.leases().status());
  }

  /**
   * Renews this process's lease on {@code rootUri} now instead of at the next tick (after a suspected
   * pause, and in tests). No-op when nothing here holds it.
   */
  public void renewLeaseNow(String rootUri) {
    peek(rootUri).ifPresent(r -> r.leases().renewNow());
  }

  /**
   * Waits until every background sidecar delete of {@code rootUri}'s handles in this process has
   * finished (a quiescent tree to copy or list, in tests and tools). No-op when no handle is open there.
   */
  public void awaitSidecarRetirements(String rootUri) {
    peek(rootUri).ifPresent(r -> r.retiring().await());
  }

  /**
   * The keys of the pending recovery sidecars of {@code storage}'s root, listed now without opening
   * the graph; a sidecar whose background delete is in flight here is finished, not pending.
   *
   * @throws dev.omnigraph.api.storage.StorageException when {@code __recovery/} cannot be listed
   */
  public List<String> pendingSidecars(StorageAdapter storage) {
    return peek(storage.rootUri())
        .map(r -> new SidecarStore(storage, dev.omnigraph.lease.WriterFence.NONE, r.retiring()))
        .orElseGet(() -> new SidecarStore(storage)).list();
  }
}
