package dev.omnigraph.lease;

import dev.omnigraph.api.lease.LeaseDocument;
import dev.omnigraph.api.LeaseLost;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.storage.Versioned;
import java.util.Optional;

/**
 * A writer lease this process holds, from {@link LeaseManager#acquire}. Thread-safe.
 *
 * <p>Holder-side checks: {@link #holds()} is free (no I/O) and answers from the last successful
 * renewal: true until {@code renewed_at + ttl} by the clock, unless a renewal, verify or release
 * already showed the lease gone. {@link #verify()} is exact: it reads the lease object and confirms
 * it is still the version we wrote. A caller renews well within the TTL (e.g. every third of it);
 * a renewal that finds the object changed means the lease was lost ({@link LeaseLost}) and the
 * holder must stop writing.
 */
public final class WriterLease implements AutoCloseable {

  /** The version we wrote last and its token: replaced together, read together. */
  private record Held(LeaseDocument document, String token) {}

  private final LeaseManager manager;
  private final StorageAdapter store;
  private final LeaseOwner owner;
  private volatile Held held;
  /** Why we no longer hold it; null while we (may) hold it. */
  private volatile String lostBecause;

  WriterLease(LeaseManager manager, StorageAdapter store, LeaseOwner owner, LeaseDocument document, String token) {
    this.manager = manager;
    this.store = store;
    this.owner = owner;
    this.held = new Held(document, token);
  }

  /** Who holds it: this process. */
  public LeaseOwner owner() {
    return owner;
  }

  /** The version we wrote last (acquire or the last successful renewal). */
  public LeaseDocument document() {
    return held.document();
  }

  /**
   * Whether we may act as the writer now, without I/O: not known lost, and the clock is not past
   * {@code renewed_at + ttl} of our last successful renewal. After that instant another process may
   * take the lease over, so a holder that cannot renew in time must stop before it.
   */
  public boolean holds() {
    return lostBecause == null && !held.document().expiredAt(manager.nowMicros());
  }

  /**
   * {@link #holds()} as a check: returns when we may act as the writer now (no I/O).
   *
   * @throws LeaseLost when we may not: known lost (with the reason), or expired by the clock since
   *     our last successful renewal
   */
  public void requireHeld() {
    failIfLost();
    LeaseDocument now = held.document();
    if (now.expiredAt(manager.nowMicros())) {
      throw new LeaseLost(owner.ownerId(), "expired at " + now.expiresAt() + " before a renewal");
    }
  }

  /** Why we no longer hold it, when known lost (taken over, broken, released); empty otherwise. */
  public java.util.Optional<String> lostReason() {
    return java.util.Optional.ofNullable(lostBecause);
  }

  /**
   * Renews the lease: replaces exactly the version we wrote last with one renewed now. Renewing a
   * lease that expired but that nobody took over succeeds (the swap proves nobody did).
   *
   * @throws LeaseLost when the lease object is no longer ours (taken over, broken, released); from
   *     then on {@link #holds()} is false
   * @throws StorageException on a storage failure after which we provably still hold the version we
   *     had (a lost answer is settled by reading the lease back first)
   */
  public synchronized void renew() {
    Held before = held;
    failIfLost();
    LeaseDocument next = before.document().renewedAt(manager.nowMicros());
    byte[] bytes = next.toJson();
    String token;
    try {
      token = store.putIfMatch(LeaseManager.KEY, bytes, before.token());
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION) {
        throw lost("the lease object changed since our last renewal (" + currentHolder() + ")");
      }
      // The answer was lost: the swap may have landed. Decide from what is stored.
      Optional<Versioned> now = store.readVersionedIfExists(LeaseManager.KEY);
      if (now.isPresent() && LeaseManager.sameContent(now.get(), next)) {
        held = new Held(next, now.get().versionToken());
        return;
      }
      if (now.isPresent() && now.get().versionToken().equals(before.token())) {
        throw e; // nothing changed: still ours, as before
      }
      throw lost("the lease object changed since our last renewal (" + currentHolder() + ")");
    }
    held = new Held(next, token);
  }

  /**
   * Confirms with one read that the stored lease is exactly the version we wrote last and that it
   * has not expired by the clock.
   *
   * @throws LeaseLost when it is not; from then on {@link #holds()} is false
   */
  public void verify() {
    Held now = held;
    failIfLost();
    Optional<Versioned> stored = store.readVersionedIfExists(LeaseManager.KEY);
    if (stored.isEmpty()) {
      throw lost("the lease object is gone (released or broken)");
    }
    if (!stored.get().versionToken().equals(now.token())) {
      throw lost("the lease object changed since our last renewal (" + describe(stored.get()) + ")");
    }
    if (now.document().expiredAt(manager.nowMicros())) {
      // Still ours on storage, but anyone may take it over now: not safe to act on.
      throw new LeaseLost(owner.ownerId(), "expired at " + now.document().expiresAt() + " before a renewal");
    }
  }

  /**
   * Releases the lease if we still hold it, so the next acquirer succeeds at once instead of after
   * the TTL. Idempotent.
   *
   * @return true when our version was deleted; false when the lease was no longer ours
   */
  public synchronized boolean release() {
    if (lostBecause != null) {
      return false;
    }
    try {
      store.deleteIfMatch(LeaseManager.KEY, held.token());
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION) {
        lostBecause = "it was no longer ours when released";
        return false;
      }
      throw e;
    }
    lostBecause = "released";
    return true;
  }

  /** {@link #release()}, for try-with-resources. */
  @Override
  public void close() {
    release();
  }

  private void failIfLost() {
    String why = lostBecause;
    if (why != null) {
      throw new LeaseLost(owner.ownerId(), why);
    }
  }

  private LeaseLost lost(String why) {
    lostBecause = why;
    return new LeaseLost(owner.ownerId(), why);
  }

  /** Who holds the lease now, in words, for a LeaseLost message; never fails. */
  private String currentHolder() {
    try {
      return store.readVersionedIfExists(LeaseManager.KEY).map(this::describe).orElse("no lease is stored now");
    } catch (RuntimeException e) {
      return "the current holder could not be read";
    }
  }

  private String describe(Versioned stored) {
    try {
      LeaseDocument d = LeaseDocument.parse(stored.data());
      return "now held by " + d.ownerId() + " (" + d.host() + " pid " + d.pid() + ") since " + d.acquiredAt();
    } catch (IllegalArgumentException e) {
      return "the stored lease is unreadable";
    }
  }
}
