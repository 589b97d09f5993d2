package dev.omnigraph.lease;

import dev.omnigraph.api.lease.BrokenLease;
import dev.omnigraph.api.lease.LeaseView;
import dev.omnigraph.api.lease.LeaseUnreadable;
import dev.omnigraph.api.lease.LeaseDocument;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.LeaseHeld;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.storage.Versioned;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The writer lease of one graph root: the object {@code __lease.json} that names the one process
 * allowed to write (the write path's single-writer-process boundary, made a checked invariant).
 *
 * <p>Every change is one compare-and-swap on that object ({@link StorageAdapter#putIfAbsent},
 * {@link StorageAdapter#putIfMatch}, {@link StorageAdapter#deleteIfMatch}), so of any number of
 * processes racing, exactly one holds the lease:
 * <ul>
 *   <li>{@link #acquire}: create it if absent; if present and expired (its {@code renewed_at + ttl}
 *       is before this manager's clock) or its holder is provably dead ({@link ProcessLiveness}: same
 *       host and pid namespace, process gone), take it over by replacing exactly the version read;
 *       if present and live, refuse with {@link LeaseHeld}.
 *   <li>{@link WriterLease#renew}/{@link WriterLease#release}: replace/delete exactly the version the
 *       holder wrote last; anything else means the lease was lost.
 *   <li>{@link #show}: read it; {@link #breakLease}: an operator's forced delete of the version read.
 * </ul>
 *
 * <p>What it does not do: fence a holder that keeps writing after it lost the lease. A holder must
 * check {@link WriterLease#holds()} (cheap) or {@link WriterLease#verify()} (one read) before each
 * effect, and the TTL must cover the clock skew between hosts plus the longest pause between such a
 * check and the effect it guards. The clock is injectable for tests.
 */
public final class LeaseManager {

  /** The lease object's key under the graph root. */
  public static final String KEY = LeaseDocument.KEY;

  private final StorageAdapter store;
  private final Clock clock;

  /**
   * @param store the graph root's adapter (not closed by the manager)
   * @param clock the wall clock expiry is judged by
   */
  public LeaseManager(StorageAdapter store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Acquires the lease for {@code owner}: exactly one of any number of concurrent acquirers succeeds.
   * An owner that already holds it (same owner id) acquires it again.
   *
   * @throws LeaseHeld when another owner holds a live lease; nothing was written
   * @throws LeaseUnreadable when the stored lease cannot be read; nothing was written
   * @throws Conflict when the lease changed hands while this call ran (retry the call)
   * @throws StorageException on a storage failure; a lost answer to our own write is settled by
   *     reading the lease back first
   */
  public WriterLease acquire(LeaseOwner owner, Duration ttl) {
    Objects.requireNonNull(owner, "owner");
    long ttlMs = ttl.toMillis();
    Optional<Versioned> current = store.readVersionedIfExists(KEY);
    long now = nowMicros();
    LeaseDocument mine = new LeaseDocument(LeaseDocument.FORMAT_VERSION, owner.ownerId(), owner.host(), owner.pid(),
        now, now, ttlMs, owner.pidNamespace(), owner.startedAtMicros());
    byte[] bytes = mine.toJson();
    if (current.isEmpty()) {
      try {
        return held(owner, mine, store.putIfAbsent(KEY, bytes));
      } catch (StorageException e) {
        return settleAcquire(owner, mine, bytes, e);
      }
    }
    LeaseView seen = view(current.get());
    if (!seen.expired() && !seen.document().ownerId().equals(owner.ownerId())
        && !ProcessLiveness.provablyDead(seen.document(), owner)) {
      throw held(seen);
    }
    try {
      // Replace exactly the expired (or provably orphaned) version we read: of several takers, one wins.
      return held(owner, mine, store.putIfMatch(KEY, bytes, seen.versionToken()));
    } catch (StorageException e) {
      return settleAcquire(owner, mine, bytes, e);
    }
  }

  /** The stored lease, judged by this manager's clock; empty when no lease exists. */
  public Optional<LeaseView> show() {
    return store.readVersionedIfExists(KEY).map(this::view);
  }

  /**
   * An operator's forced removal: deletes the lease as read, live or not, so the next acquirer wins
   * at once. Breaking a live holder's lease lets a second writer in beside it (the single-writer
   * boundary the lease exists to enforce); the holder finds out only at its next renewal or verify.
   * Works on an unreadable lease too.
   *
   * @return the lease that was removed ({@code document} empty when it was unreadable), or empty when
   *     there was none
   * @throws Conflict when the lease changed between the read and the delete (renewed or taken over);
   *     nothing was removed
   */
  public Optional<BrokenLease> breakLease() {
    Optional<Versioned> current = store.readVersionedIfExists(KEY);
    if (current.isEmpty()) {
      return Optional.empty();
    }
    Optional<LeaseView> seen;
    try {
      seen = Optional.of(view(current.get()));
    } catch (LeaseUnreadable e) {
      seen = Optional.empty();
    }
    try {
      store.deleteIfMatch(KEY, current.get().versionToken());
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION) {
        throw new Conflict("the writer lease of " + store.rootUri() + " changed while breaking it (renewed, taken"
            + " over or released); nothing was removed; check it with omnigraph lease show and try again", e);
      }
      throw e;
    }
    return Optional.of(new BrokenLease(seen, current.get().text()));
  }

  /** Reads and judges one stored version. */
  LeaseView view(Versioned stored) {
    LeaseDocument doc;
    try {
      doc = LeaseDocument.parse(stored.data());
    } catch (IllegalArgumentException e) {
      throw new LeaseUnreadable(store.rootUri(), stored.text(), e.getMessage());
    }
    long now = nowMicros();
    return new LeaseView(doc, stored.versionToken(), doc.expiredAt(now), micros(now));
  }

  long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
  }

  private static Instant micros(long m) {
    return Instant.EPOCH.plus(m, ChronoUnit.MICROS);
  }

  private WriterLease held(LeaseOwner owner, LeaseDocument doc, String token) {
    return new WriterLease(this, store, owner, doc, token);
  }

  private static LeaseHeld held(LeaseView v) {
    LeaseDocument d = v.document();
    return new LeaseHeld(d.ownerId(), d.host(), d.pid(), d.acquiredAt(), d.expiresAt());
  }

  /**
   * Our create or takeover did not return normally. PRECONDITION: someone else's write came first;
   * report who holds it now. Any other failure may have landed (a lost answer): read the lease, and
   * if it holds exactly our bytes we hold it; otherwise the failure stands.
   */
  private WriterLease settleAcquire(LeaseOwner owner, LeaseDocument mine, byte[] bytes, StorageException failure) {
    Optional<Versioned> now = store.readVersionedIfExists(KEY);
    if (now.isPresent() && Arrays.equals(now.get().data(), bytes)) {
      return held(owner, mine, now.get().versionToken());
    }
    if (failure.kind() != StorageException.Kind.PRECONDITION) {
      throw failure;
    }
    if (now.isPresent()) {
      LeaseView winner = view(now.get());
      if (!winner.expired()) {
        throw held(winner);
      }
    }
    throw new Conflict("the writer lease of " + store.rootUri() + " changed hands while acquiring it; retry",
        failure);
  }

  /** The stored bytes of {@code doc}, for comparing a read with what we wrote. */
  static boolean sameContent(Versioned stored, LeaseDocument doc) {
    return Arrays.equals(stored.data(), doc.toJson());
  }
}
