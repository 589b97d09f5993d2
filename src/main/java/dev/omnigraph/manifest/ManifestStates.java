package dev.omnigraph.manifest;

import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.table.ManifestDataset;
import java.util.Optional;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decoded latest state of each graph branch's manifest, shared by every handle of one graph
 * root in this process: one instance per open root, owned by the engine's root registry
 * ({@code engine.GraphRoots}) and handed to the manifest readers and the publisher of the root. An entry is keyed by the exact manifest version stamp it was read at
 * (version number and commit time), and a manifest version is immutable, so a hit is always
 * exact: the only object-store cost of reading an unchanged branch is learning its latest version.
 * The publisher feeds the state it produced so the next write on the branch does not re-read what
 * this process just wrote (docs/write-path.md, "what a write costs").
 *
 * <p>Foreign writers (another process) are seen as a new stamp and cost one read of the state
 * fragment ({@link ManifestLayout}): bounded by tables and branches, not by history (docs/write-path.md, "The history-flat manifest").
 */
public final class ManifestStates {

  /** The latest entry per branch: bounded by the number of branches. */
  private final ConcurrentHashMap<String, Entry> latest = new ConcurrentHashMap<>();

  /** One read version: its stamp, what {@link ManifestLayout#read} found there, and the decoded state. */
  record Entry(String stamp, ManifestLayout.Read read, ManifestState state) {}

  /** The root's table part: the held handles open in its Lance session. */
  private final dev.omnigraph.table.LanceRoot lance;

  /**
   * Whether this process holds the root's writer lease now: then every branch delete and create of
   * the root runs here and forgets what it replaces ({@link #forget}); otherwise another process may
   * delete a branch and create it again at the same version number, which a read checks
   * ({@link GraphManifest#captureForRead}).
   */
  private volatile java.util.function.BooleanSupplier soleWriter = () -> false;

  /** Tells this root's manifest part how to know that this process holds the root's writer lease. */
  public void soleWriterWhen(java.util.function.BooleanSupplier holdsLease) {
    this.soleWriter = java.util.Objects.requireNonNull(holdsLease, "holdsLease");
  }

  boolean soleWriter() {
    return soleWriter.getAsBoolean();
  }

  /** The manifest part of the canonical graph root {@code lance} belongs to. */
  public ManifestStates(dev.omnigraph.table.LanceRoot lance) {
    this.lance = java.util.Objects.requireNonNull(lance, "lance");
  }

  /** States of their own for a root (a test, a tool): nothing learnt is shared with the root's handles. */
  static ManifestStates unshared(dev.omnigraph.api.storage.StorageConfig config) {
    return new ManifestStates(new dev.omnigraph.table.LanceRoot(config.rootUri()));
  }

  /** The root's table part. */
  dev.omnigraph.table.LanceRoot lance() {
    return lance;
  }

  /** Held probe handles of the root by branch, least recently used first; idle ones are closed past the bound. */
  static final int MAX_HELD = 32;
  private final java.util.LinkedHashMap<String, Held> held = new java.util.LinkedHashMap<>(16, 0.75f, true);

  /** One branch's held manifest handle; its lock serialises every use of the handle. */
  private static final class Held {
    final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    ManifestDataset handle;
    boolean evicted;

    void closeHandle() {
      if (handle != null) {
        try {
          handle.close();
        } catch (RuntimeException ignored) {
          // a handle that cannot close cleanly is dropped all the same
        }
        handle = null;
      }
    }
  }

  /**
   * Runs {@code body} on this process's held handle of {@code branch}'s manifest, moved to the
   * branch's latest version first (the write path's retained "probe handle"): asking for the latest
   * version is one listing, and an unchanged branch costs nothing more. The handle is used by one
   * caller at a time. A failure in {@code body} drops the handle (the next use reopens).
   */
  <T> T withLatest(dev.omnigraph.api.storage.StorageConfig config, String branch,
      java.util.function.Function<ManifestDataset, T> body) {
    return withLatest(config, branch, Optional.empty(), body);
  }

  /**
   * As {@link #withLatest(dev.omnigraph.api.storage.StorageConfig, String, java.util.function.Function)},
   * but when the held handle is at {@code verifiedStamp} (a stamp the caller proved latest under
   * its branch gate moments ago) the latest-version probe is skipped: the Lance commit that
   * follows lists the versions itself and rejects a stale read version, so nothing is lost but a
   * round trip.
   */
  <T> T withLatest(dev.omnigraph.api.storage.StorageConfig config, String branch, Optional<String> verifiedStamp,
      java.util.function.Function<ManifestDataset, T> body) {
    Held h;
    synchronized (held) {
      h = held.computeIfAbsent(branch, k -> new Held());
      evictIdle();
    }
    h.lock.lock();
    try {
      if (h.handle != null && !(verifiedStamp.isPresent() && verifiedStamp.get().equals(h.handle.stamp()))) {
        try {
          if (h.handle.latestVersion() != h.handle.version()) {
            h.handle.refreshLatest();
          }
        } catch (Exception stale) { // deleted branch, or any storage failure: reopen below
          h.closeHandle();
        }
      }
      if (h.handle == null) {
        h.handle = ManifestDataset.open(lance, config,
            branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch), java.util.OptionalLong.empty());
      }
      return body.apply(h.handle);
    } catch (RuntimeException e) {
      h.closeHandle();
      throw e;
    } finally {
      if (h.evicted) {
        h.closeHandle();
      }
      h.lock.unlock();
    }
  }

  private void evictIdle() {
    java.util.Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
    while (held.size() > MAX_HELD && it.hasNext()) {
      Held h = it.next().getValue();
      it.remove();
      h.evicted = true;
      if (h.lock.tryLock()) {
        try {
          h.closeHandle();
        } finally {
          h.lock.unlock();
        }
      }
    }
  }

  /** Closes the held handle of {@code branch} (deleted or recreated under this process). */
  private void dropHeld(String branch) {
    Held h;
    synchronized (held) {
      h = held.remove(branch);
    }
    if (h != null) {
      h.evicted = true;
      if (h.lock.tryLock()) {
        try {
          h.closeHandle();
        } finally {
          h.lock.unlock();
        }
      }
    }
  }

  /**
   * The authority of {@code branch} as the open handle {@code m} of its manifest shows it: native
   * identity and parent chain from the branch's refs (off main; {@link BranchRefs}), state from the
   * handle's version.
   *
   * @throws NotFound when the branch is not in the listing
   */
  BranchAuthority capture(ManifestDataset m, String branch, BranchRefs refs) {
    Optional<String> identity = Optional.empty();
    List<String> chain = List.of();
    if (!branch.equals(ManifestState.MAIN)) {
      BranchRefs.Resolved resolved = refs.resolve(m, branch).orElseThrow(() -> new NotFound("branch", branch));
      identity = Optional.of(resolved.branch().identifier());
      chain = resolved.parentChain();
      // A branch (or an ancestor whose dataset branches its pins may name) deleted and created again
      // since this process last looked: what the process holds of the old one must not answer.
      lance.noteIncarnation(branch, resolved.branch().identifier());
      resolved.ancestors().forEach(a -> lance.noteIncarnation(a.name(), a.identifier()));
    }
    return new BranchAuthority(branch, identity, chain, read(m, branch), m.stamp());
  }

  /**
   * The last capture a read made of each branch: a read whose branch's latest stamp is unchanged
   * reuses it, ref included (docs/performance.md, "Point reads": a branch read resolved the branch's ref, one GET per branch
   * and ancestor, on every read). The stamp is the freshness rule every head read uses; a branch
   * deleted or re-created by this process is forgotten with {@link #forget}.
   */
  private final ConcurrentHashMap<String, BranchAuthority> readCaptures = new ConcurrentHashMap<>();

  /**
   * As {@link #capture}, for a read: the last read capture of {@code branch} when {@code m}, at the
   * branch's latest version, still has its stamp.
   */
  BranchAuthority captureForRead(ManifestDataset m, String branch, BranchRefs refs) {
    BranchAuthority known = readCaptures.get(branch);
    if (known != null && known.stamp().equals(m.stamp())) {
      return known;
    }
    BranchAuthority fresh = capture(m, branch, refs);
    readCaptures.put(branch, fresh);
    return fresh;
  }

  /** The latest state of {@code branch} known to this process, with no storage request. */
  Optional<ManifestState> known(String branch) {
    return Optional.ofNullable(latest.get(branch)).map(Entry::state);
  }

  /** The state of the handle's checked-out version of {@code branch}: cached, or one read. */
  ManifestState read(ManifestDataset manifest, String branch) {
    return entry(manifest, branch).state();
  }

  /**
   * The entry of the handle's checked-out version: cached when this process read or wrote exactly
   * that version, else one read of its state fragment (a legacy manifest: one full scan).
   */
  Entry entry(ManifestDataset manifest, String branch) {
    String stamp = manifest.stamp();
    Entry e = latest.get(branch);
    if (e != null && e.stamp.equals(stamp)) {
      return e;
    }
    ManifestLayout.Read read = ManifestLayout.read(manifest);
    e = new Entry(stamp, read, ManifestState.decode(branch, manifest.version(), read.rows()));
    // Only a newer version replaces the latest entry (a time-travel read must not evict it).
    Entry prev = latest.get(branch);
    if (prev == null || prev.state.manifestVersion() <= manifest.version()) {
      latest.put(branch, e);
    }
    return e;
  }

  /**
   * Records the state a commit by this process produced, so the next capture of the branch reads
   * nothing: {@code rows} are the state rows of the version {@code stamp} whose state fragment is
   * {@code stateFragment}.
   */
  void published(String branch, long version, String stamp, List<ManifestRow> rows, int stateFragment) {
    ManifestLayout.Read read = new ManifestLayout.Read(List.copyOf(rows), Optional.of(stateFragment));
    latest.put(branch, new Entry(stamp, read, ManifestState.decode(branch, version, read.rows())));
  }

  /**
   * Commits resolved by id, least recently used first, past {@link #MAX_COMMITS} the eldest dropped.
   * A commit names one (branch, manifest version) for good and a manifest version never changes
   * (cleanup keeps every {@code __manifest} version), so an entry needs no invalidation but the
   * branch identity check its reader makes: a branch deleted and re-created under the same name is
   * another branch.
   */
  static final int MAX_COMMITS = 256;
  private final java.util.LinkedHashMap<String, ResolvedCommit> commits = new java.util.LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ResolvedCommit> eldest) {
      return size() > MAX_COMMITS;
    }
  };

  /**
   * One resolved commit: the commit, the native identity of its branch when it was resolved (empty
   * on main) and the state its publish produced.
   */
  record ResolvedCommit(GraphCommit commit, Optional<String> nativeIdentity, ManifestState state) {}

  Optional<ResolvedCommit> resolvedCommit(String commitId) {
    synchronized (commits) {
      return Optional.ofNullable(commits.get(commitId));
    }
  }

  void resolved(ResolvedCommit commit) {
    synchronized (commits) {
      commits.put(commit.commit().id(), commit);
    }
  }

  void forgetCommit(String commitId) {
    synchronized (commits) {
      commits.remove(commitId);
    }
  }

  /**
   * Forgets everything this process knows of the root's manifest and closes the held handles: after
   * a relocation rewrote the locations the branch manifests record, when the root's last handle
   * closes, and in tests (a cold process).
   */
  public void forgetAll() {
    List.copyOf(latest.keySet()).forEach(this::forget);
    readCaptures.clear();
    synchronized (commits) {
      commits.clear();
    }
    List<String> branches;
    synchronized (held) {
      branches = List.copyOf(held.keySet());
    }
    branches.forEach(this::dropHeld);
  }

  /** Forgets {@code branch} (deleted, or its state is no longer known), and its held handle. */
  void forget(String branch) {
    latest.remove(branch);
    readCaptures.remove(branch);
    dropHeld(branch);
  }
}
