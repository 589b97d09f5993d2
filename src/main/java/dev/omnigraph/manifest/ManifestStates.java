package dev.omnigraph.manifest;

import dev.omnigraph.api.NotFound;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.NativeBranch;
import java.util.Optional;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decoded latest state of each graph branch's manifest, shared by every handle of one graph
 * root in this process. An entry is keyed by the exact manifest version stamp it was read at
 * (version number and commit time), and a manifest version is immutable, so a hit is always
 * exact: the only object-store cost of reading an unchanged branch is learning its latest version.
 * The publisher feeds the state it produced (previous rows with its upserted rows applied) so the
 * next write on the branch does not rescan what this process just wrote (issue 11).
 *
 * <p>Foreign writers (another process) are seen as a new stamp and cost one full scan, as before.
 */
final class ManifestStates {

  private static final ConcurrentHashMap<String, ManifestStates> ROOTS = new ConcurrentHashMap<>();

  /** The latest entry per branch: bounded by the number of branches. */
  private final ConcurrentHashMap<String, Entry> latest = new ConcurrentHashMap<>();

  /**
   * @param heads physical address of every {@code graph_head} row at this version, by object id:
   *     what the next publish deletes (see {@link ManifestDataset#replace})
   */
  private record Entry(String stamp, List<ManifestRow> rows, ManifestState state, Map<String, Long> heads) {}

  private final String rootUri;

  private ManifestStates(String rootUri) {
    this.rootUri = rootUri;
  }

  static ManifestStates forRoot(String rootUri) {
    return ROOTS.computeIfAbsent(rootUri, ManifestStates::new);
  }

  /** Held probe handles process-wide, least recently used first; idle ones are closed past the bound. */
  static final int MAX_HELD = 32;
  private static final java.util.LinkedHashMap<String, Held> HELD = new java.util.LinkedHashMap<>(16, 0.75f, true);

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
   * branch's latest version first (the seed's retained "probe handle"): asking for the latest
   * version is one listing, and an unchanged branch costs nothing more. The handle is used by one
   * caller at a time. A failure in {@code body} drops the handle (the next use reopens).
   */
  <T> T withLatest(dev.omnigraph.storage.StorageConfig config, String branch,
      java.util.function.Function<ManifestDataset, T> body) {
    return withLatest(config, branch, Optional.empty(), body);
  }

  /**
   * As {@link #withLatest(dev.omnigraph.storage.StorageConfig, String, java.util.function.Function)},
   * but when the held handle is at {@code verifiedStamp} (a stamp the caller proved latest under
   * its branch gate moments ago) the latest-version probe is skipped: the Lance commit that
   * follows lists the versions itself and rejects a stale read version, so nothing is lost but a
   * round trip.
   */
  <T> T withLatest(dev.omnigraph.storage.StorageConfig config, String branch, Optional<String> verifiedStamp,
      java.util.function.Function<ManifestDataset, T> body) {
    Held h;
    synchronized (HELD) {
      h = HELD.computeIfAbsent(config.rootUri() + "|" + branch, k -> new Held());
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
        h.handle = ManifestDataset.open(config,
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

  private static void evictIdle() {
    java.util.Iterator<Map.Entry<String, Held>> it = HELD.entrySet().iterator();
    while (HELD.size() > MAX_HELD && it.hasNext()) {
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
  private static void dropHeld(String rootUri, String branch) {
    Held h;
    synchronized (HELD) {
      h = HELD.remove(rootUri + "|" + branch);
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
   * identity and parent chain from the handle's branch listing (off main), state from the same
   * version.
   *
   * @throws NotFound when the branch is not in the listing
   */
  BranchAuthority capture(ManifestDataset m, String branch) {
    Optional<String> identity = Optional.empty();
    List<String> chain = List.of();
    if (!branch.equals(ManifestState.MAIN)) {
      List<NativeBranch> live = m.branches();
      identity = live.stream().filter(b -> b.name().equals(branch)).map(NativeBranch::identifier).findFirst();
      if (identity.isEmpty()) {
        throw new NotFound("branch", branch);
      }
      chain = ManifestReader.parentChain(live, branch);
    }
    return new BranchAuthority(branch, identity, chain, read(m, branch), m.stamp());
  }

  /** The latest state of {@code branch} known to this process, with no storage request. */
  Optional<ManifestState> known(String branch) {
    return Optional.ofNullable(latest.get(branch)).map(Entry::state);
  }

  /** The state of the handle's checked-out version of {@code branch}: cached, or one full scan. */
  ManifestState read(ManifestDataset manifest, String branch) {
    String stamp = manifest.stamp();
    Entry e = latest.get(branch);
    if (e != null && e.stamp.equals(stamp)) {
      return e.state;
    }
    return scan(manifest, branch).state;
  }

  private Entry scan(ManifestDataset manifest, String branch) {
    List<ManifestRow> rows = new ArrayList<>();
    Map<String, Long> heads = new java.util.HashMap<>();
    manifest.scanWithAddresses(batch -> {
      List<ManifestRow> decoded = ManifestColumns.decode(batch);
      org.apache.arrow.vector.UInt8Vector address =
          (org.apache.arrow.vector.UInt8Vector) batch.getVector(ManifestDataset.ROW_ADDRESS);
      for (int i = 0; i < decoded.size(); i++) {
        ManifestRow r = decoded.get(i);
        if (r.objectType().equals(ManifestRow.GRAPH_HEAD)) {
          heads.put(r.objectId(), address.getObjectNoOverflow(i).longValueExact());
        }
      }
      rows.addAll(decoded);
    });
    ManifestState state = ManifestState.decode(branch, manifest.version(), rows);
    Entry e = new Entry(manifest.stamp(), List.copyOf(rows), state, Map.copyOf(heads));
    latest.put(branch, e);
    return e;
  }

  /**
   * What a publish on {@code branch} at exactly the handle's version replaces: the branch's own
   * head row, or (on a branch that has not published yet) the nearest inherited head row, which is
   * rewritten unchanged so that two first publishers on one branch still contend for one row. Empty
   * when the branch sees no head row at all (genesis).
   */
  Optional<HeadRow> headRow(ManifestDataset manifest, BranchAuthority authority) {
    Entry e = latest.get(authority.branch());
    if (e == null || !e.stamp.equals(manifest.stamp())) {
      e = scan(manifest, authority.branch());
    }
    List<String> candidates = new ArrayList<>();
    candidates.add(authority.branch());
    candidates.addAll(authority.parentChain());
    for (String b : candidates) {
      String id = ManifestRows.headId(b);
      Long address = e.heads.get(id);
      if (address != null) {
        for (ManifestRow r : e.rows) {
          if (r.objectId().equals(id)) {
            return Optional.of(new HeadRow(r, address, b.equals(authority.branch())));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** A head row a publish deletes; {@code own}: the branch's own (else inherited, re-added unchanged). */
  record HeadRow(ManifestRow row, long address, boolean own) {}

  /**
   * Records the state a publish produced: the rows of {@code previousStamp} with {@code upserted}
   * applied by object id, at {@code version}/{@code stamp}. Does nothing when the previous rows
   * are not cached (the next read scans instead).
   */
  void published(String branch, String previousStamp, List<ManifestRow> upserted, long version, String stamp,
      List<Long> addresses) {
    Entry e = latest.get(branch);
    if (e == null || !e.stamp.equals(previousStamp) || addresses.size() != upserted.size()) {
      latest.remove(branch);
      return;
    }
    Map<String, Long> heads = new java.util.HashMap<>(e.heads);
    for (int i = 0; i < upserted.size(); i++) {
      if (upserted.get(i).objectType().equals(ManifestRow.GRAPH_HEAD)) {
        heads.put(upserted.get(i).objectId(), addresses.get(i));
      }
    }
    Map<String, ManifestRow> byId = new LinkedHashMap<>();
    for (ManifestRow r : e.rows) {
      byId.put(r.objectId(), r);
    }
    for (ManifestRow r : upserted) {
      byId.put(r.objectId(), r);
    }
    List<ManifestRow> rows = List.copyOf(byId.values());
    latest.put(branch, new Entry(stamp, rows, ManifestState.decode(branch, version, rows), Map.copyOf(heads)));
  }

  /** Re-reads {@code branch} after a physical-only compaction of the handle's manifest. */
  void compacted(ManifestDataset manifest, String branch) {
    // Compaction moves every row to new addresses: one scan of the few compacted fragments.
    scan(manifest, branch);
  }

  /** Forgets {@code branch} (deleted, or its state is no longer known), and its held handle. */
  void forget(String branch) {
    latest.remove(branch);
    dropHeld(rootUri, branch);
  }
}
