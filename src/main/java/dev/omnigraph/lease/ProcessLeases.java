package dev.omnigraph.lease;

import dev.omnigraph.api.lease.LeaseStatus;
import dev.omnigraph.api.lease.LeaseSettings;
import dev.omnigraph.api.lease.LeaseDocument;
import dev.omnigraph.api.LeaseLost;
import dev.omnigraph.storage.StorageAdapter;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The writer lease this process holds on one graph root, shared by every read-write handle of the
 * process on that root (handles of one process are one writer: they share gates and caches),
 * renewed in the background and released when the last claim on the root closes. One instance per
 * open root, owned by the engine's root registry ({@code engine.GraphRoots}).
 *
 * <p>The process has one {@link #OWNER} identity for all its leases, so a second handle on a root
 * joins the lease the first one holds instead of being refused by it.
 */
public final class ProcessLeases {

  private static final Logger LOG = Logger.getLogger(ProcessLeases.class);

  /** This process as a lease holder. */
  public static final LeaseOwner OWNER = LeaseOwner.ofThisProcess();

  private static final ScheduledExecutorService RENEWER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "omnigraph-lease-renewer");
    t.setDaemon(true);
    return t;
  });

  private final String root;
  /** The lease while any claim holds it; null between the last close and the next join. Guarded by this. */
  private Shared shared;

  /** The lease part of the canonical graph root {@code rootUri}. */
  public ProcessLeases(String rootUri) {
    this.root = java.util.Objects.requireNonNull(rootUri, "rootUri");
  }

  /**
   * Joins this process's lease on the root, acquiring it first when no handle of the process holds
   * it (or the one held was lost). The caller closes the returned claim when its handle closes;
   * {@code afterClose} runs once then (the owner of the root lets go of it).
   *
   * @param openStore opens an adapter on the root for the lease's own use (kept until release)
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the lease; nothing was written
   */
  public Claim join(Supplier<StorageAdapter> openStore, LeaseSettings settings, Runnable afterClose) {
    Shared joined;
    synchronized (this) {
      if (shared == null) {
        shared = new Shared(root, settings);
      }
      joined = shared;
      joined.claims++;
    }
    try {
      joined.ensureHeld(openStore);
    } catch (RuntimeException e) {
      leave(joined);
      throw e;
    }
    return new Claim(this, joined, afterClose);
  }

  /** The lease this process holds on the root, if any handle of it holds one. */
  public Optional<LeaseStatus> status() {
    Shared current;
    synchronized (this) {
      current = shared;
    }
    return current == null ? Optional.empty() : current.status();
  }

  /**
   * Renews this process's lease on the root now instead of at the next tick (after a suspected
   * pause, and in tests), so a lost lease is known at once. No-op without a lease.
   */
  public void renewNow() {
    Shared current;
    synchronized (this) {
      current = shared;
    }
    if (current != null) {
      current.renew();
    }
  }

  private void leave(Shared left) {
    // Released under this root's lock: a join racing this close then acquires after the delete,
    // never between our read of the lease and its removal.
    synchronized (this) {
      if (--left.claims == 0) {
        if (shared == left) {
          shared = null;
        }
        left.release();
      }
    }
  }

  /**
   * One read-write handle's share of the lease: its fence (checked before arming and publishing)
   * and its status. Closing it releases the lease when it was the process's last claim on the root.
   */
  public static final class Claim implements WriterFence, dev.omnigraph.api.lease.LeaseClaim {
    private final ProcessLeases leases;
    private final Shared shared;
    private final Runnable afterClose;
    private boolean closed;

    private Claim(ProcessLeases leases, Shared shared, Runnable afterClose) {
      this.leases = leases;
      this.shared = shared;
      this.afterClose = java.util.Objects.requireNonNull(afterClose, "afterClose");
    }

    /** @throws LeaseLost when the process no longer holds the lease (lost, broken or expired) */
    @Override
    public void check() {
      WriterLease lease = shared.lease;
      if (lease == null) {
        throw new LeaseLost(OWNER.ownerId(), "the lease is not held");
      }
      lease.requireHeld();
    }

    /** The lease as this process sees it now. */
    public LeaseStatus status() {
      return shared.status().orElseThrow();
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        try {
          leases.leave(shared);
        } finally {
          afterClose.run();
        }
      }
    }
  }

  /** The lease of one root, shared by the process's claims on it. */
  private static final class Shared {
    final String root;
    final LeaseSettings settings;
    int claims; // guarded by the root's ProcessLeases
    volatile WriterLease lease;
    volatile String lastRenewalFailure;
    private StorageAdapter store;
    private ScheduledFuture<?> renewal;

    Shared(String root, LeaseSettings settings) {
      this.root = root;
      this.settings = settings;
    }

    /** Acquires the lease unless it is held and not lost; a lost one is acquired again. */
    synchronized void ensureHeld(Supplier<StorageAdapter> openStore) {
      if (lease != null && lease.holds()) {
        return;
      }
      if (store == null) {
        store = openStore.get();
      }
      if (renewal != null) {
        renewal.cancel(false);
        renewal = null;
      }
      lease = new LeaseManager(store, Clock.systemUTC()).acquire(OWNER, settings.ttl());
      lastRenewalFailure = null;
      long every = settings.renewEvery().toMillis();
      renewal = RENEWER.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
      LOG.debugf("writer lease of %s acquired by %s (ttl %s)", root, OWNER.ownerId(), settings.ttl());
    }

    /** One renewal: a storage failure is retried at the next tick (the TTL covers two misses). */
    void renew() {
      WriterLease current = lease;
      if (current == null || current.lostReason().isPresent()) {
        return;
      }
      try {
        current.renew();
        lastRenewalFailure = null;
      } catch (LeaseLost e) {
        LOG.errorf("writer lease of %s lost: %s", root, e.getMessage());
      } catch (RuntimeException e) {
        lastRenewalFailure = e.toString();
        LOG.warnf("writer lease of %s: renewal failed (%s); retrying in %s", root, e, settings.renewEvery());
      }
    }

    synchronized Optional<LeaseStatus> status() {
      WriterLease current = lease;
      if (current == null) {
        return Optional.empty();
      }
      LeaseDocument d = current.document();
      return Optional.of(new LeaseStatus(current.holds(), OWNER.ownerId(), d.acquiredAt(), d.renewedAt(),
          d.expiresAt(), current.lostReason(), Optional.ofNullable(lastRenewalFailure)));
    }

    synchronized void release() {
      if (renewal != null) {
        renewal.cancel(false);
        renewal = null;
      }
      try {
        if (lease != null && lease.release()) {
          LOG.debugf("writer lease of %s released by %s", root, OWNER.ownerId());
        }
      } catch (RuntimeException e) {
        // The lease then expires by its TTL; nothing else depends on the release.
        LOG.warnf("writer lease of %s: release failed (%s); it expires by its ttl", root, e);
      } finally {
        lease = null;
        if (store != null) {
          store.close();
          store = null;
        }
      }
    }
  }
}
