package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.maintenance.CleanupReport;
import dev.omnigraph.api.InvariantViolation;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TableVersions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jboss.logging.Logger;

/**
 * {@code cleanup}: garbage-collects data-table versions no graph commit can reach, keeping every
 * version that any live branch head or any commit reachable from one pins, so time travel to every
 * commit keeps working.
 *
 * <p>Which versions are pinned: for every live graph branch, its current state and the state of
 * every commit in its history ({@code GraphManifest.stateAt(commit.branch, commit.manifestVersion)},
 * once per distinct commit). That costs one manifest scan per commit; it is exact and reuses the one
 * decoder of the manifest's visibility rules instead of re-deriving per-commit pins from raw
 * {@code table_version} rows, which would be cheaper but a second implementation of those rules.
 *
 * <p>How they are kept: Lance's cleanup only removes versions <em>older than</em> a cutoff, and the
 * genesis commit pins version 1 of every table forever, so a cutoff at the oldest pinned version
 * would never remove anything on a table's main. Instead every pinned version carries a Lance tag
 * ({@link TableVersions#retainPinTags}; Lance never removes a tagged version), stale pin tags are
 * dropped, and the cutoff is the oldest version a live branch head pins on a table branch it owns
 * (main's tables for main, Lance branch {@code B} for graph branch {@code B}): every unpinned version
 * below it goes, including a drifted or rolled-back version between two pinned ones. Versions at or
 * above that cutoff stay, so uncovered drift remains for {@code repair} to explain. Lance itself
 * keeps the versions other Lance branches were forked from.
 */
final class Cleanup {

  private static final Logger LOG = Logger.getLogger(Cleanup.class);

  private final Maintenance m;

  Cleanup(Maintenance m) {
    this.m = m;
  }

  /** What the reachable commits pin. */
  private static final class Pins {
    final Map<TableRef, TreeSet<Long>> pinned = new TreeMap<>(Maintenance.BY_LOCATION);
    final Map<TableRef, TreeSet<Long>> live = new TreeMap<>(Maintenance.BY_LOCATION);
    final Map<TableRef, String> tableKeys = new HashMap<>();
    int commits;

    void add(TablePin pin, boolean isLive) {
      TableRef tb = pin.ref();
      pinned.computeIfAbsent(tb, k -> new TreeSet<>()).add(pin.version());
      if (isLive) {
        live.computeIfAbsent(tb, k -> new TreeSet<>()).add(pin.version());
      }
      tableKeys.putIfAbsent(tb, pin.tableKey().toString());
    }
  }

  CleanupReport run(boolean dryRun, ProgressListener progress) {
    // Before anything else: recovery may need the retained version and transaction history.
    m.requireNoPendingRecovery("cleanup");
    try (GateManager.Held held = m.acquireAll()) {
      m.requireNoPendingRecovery("cleanup");
      Pins pins = collect();
      Map<TableRef, Long> heads = new HashMap<>();
      List<String> violations = new ArrayList<>();
      for (Map.Entry<TableRef, TreeSet<Long>> e : pins.pinned.entrySet()) {
        TableRef tb = e.getKey();
        long head = m.tables.head(tb);
        if (head < e.getValue().last()) {
          violations.add(pins.tableKeys.get(tb) + " (" + tb.location() + " " + tb.nativeBranch().orElse("main")
              + ") HEAD " + head + " behind pinned version " + e.getValue().last());
        }
        heads.put(tb, head);
      }
      if (!violations.isEmpty()) {
        throw new InvariantViolation("cleanup", violations);
      }
      // Leftover refs of deleted graph branches first: once they are gone, the versions they were
      // forked from are no longer fork points and can go with the rest.
      List<LeftoverRefs.Leftover> leftovers = m.leftoverRefs();
      List<LeftoverRefs.Leftover> gone = dryRun ? List.of() : m.removeLeftovers(leftovers);
      List<RepairReport.LeftoverRef> refs = leftovers.stream()
          .map(l -> l.reported(gone.contains(l))).toList();
      // Residue nothing of ours reads: removed independently of every version decision below.
      ResidueScan scan = m.residueScan();
      List<RepairReport.Residue> residue = scan.find();
      if (!dryRun) {
        residue = scan.remove(residue);
      }
      Map<String, List<TableRef>> byLocation = new TreeMap<>();
      pins.pinned.keySet().forEach(tb -> byLocation.computeIfAbsent(tb.location(), k -> new ArrayList<>()).add(tb));
      List<CleanupReport.TableCleanup> out = new ArrayList<>();
      for (Map.Entry<String, List<TableRef>> e : byLocation.entrySet()) {
        String location = e.getKey();
        if (!dryRun) {
          // Tags first, cleanup after: a pinned version is protected before any cutoff can reach it.
          Map<Optional<String>, Set<Long>> wanted = new HashMap<>();
          e.getValue().forEach(tb -> wanted.put(tb.nativeBranch(), pins.pinned.get(tb)));
          TableVersions.TagChanges changed = m.tables.versions().retainPinTags(location, wanted);
          LOG.debugf("cleanup %s: pin tags created %d, deleted %d", location, changed.created(), changed.deleted());
        }
        List<NativeBranch> forks = m.tables.branches().list(location);
        for (TableRef tb : e.getValue()) {
          progress.step(pins.tableKeys.get(tb), out.size(), pins.pinned.size(), -1);
          out.add(clean(tb, pins, heads.get(tb), forks, dryRun));
        }
      }
      return new CleanupReport(dryRun, pins.commits, out, refs, residue);
    }
  }

  private CleanupReport.TableCleanup clean(TableRef tb, Pins pins, long head, List<NativeBranch> forks,
      boolean dryRun) {
    TreeSet<Long> pinned = pins.pinned.get(tb);
    TreeSet<Long> live = pins.live.get(tb);
    long retainFrom = Math.min(head, live == null ? pinned.last() : live.first());
    Set<Long> forkPoints = new HashSet<>();
    forks.stream().filter(b -> b.parent().equals(tb.nativeBranch())).forEach(b -> forkPoints.add(b.parentVersion()));
    List<Long> before = m.tables.versions().list(tb);
    List<Long> planned = before.stream()
        .filter(v -> v < retainFrom && !pinned.contains(v) && !forkPoints.contains(v)).toList();
    List<Long> removed = planned;
    Long bytes = null;
    if (!dryRun) {
      bytes = 0L;
      if (!planned.isEmpty()) {
        TableVersions.Removed r = m.tables.versions().cleanupBefore(tb, retainFrom);
        Set<Long> after = new HashSet<>(m.tables.versions().list(tb));
        removed = before.stream().filter(v -> !after.contains(v)).toList();
        bytes = r.bytes();
        LOG.infof("cleanup %s (%s %s): removed versions %s, %d bytes", pins.tableKeys.get(tb), tb.location(),
            tb.nativeBranch().orElse("main"), removed, r.bytes());
      }
    }
    return new CleanupReport.TableCleanup(pins.tableKeys.get(tb), tb.location(), tb.nativeBranch().orElse(null), head,
        retainFrom, List.copyOf(pinned), removed, bytes);
  }

  /** Every pin of every live branch head and of every commit reachable from one. */
  private Pins collect() {
    Pins pins = new Pins();
    Set<String> seen = new HashSet<>();
    for (String branch : m.liveBranches()) {
      BranchAuthority authority = m.manifest.capture(branch);
      ManifestState state = authority.state();
      // Only a pin on the table branch this graph branch owns bounds the cutoff: an inherited pin
      // lags its owner's HEAD by design and is kept by its tag like any historical pin.
      Optional<String> own = Maintenance.ownTableBranch(branch);
      state.tables().values().forEach(p -> pins.add(p, p.nativeBranch().equals(own)));
      for (GraphCommit c : m.manifest.history(authority)) {
        if (!seen.add(c.id())) {
          continue;
        }
        ManifestState at;
        try {
          at = m.manifest.stateAt(c.branch(), c.manifestVersion());
        } catch (RuntimeException e) {
          // Fail closed: a commit whose pins cannot be read might pin anything.
          throw new IllegalStateException("cleanup refuses: the state of commit " + c.id() + " (branch " + c.branch()
              + ", manifest version " + c.manifestVersion() + ") cannot be read: " + e.getMessage()
              + "; nothing was removed", e);
        }
        at.tables().values().forEach(p -> pins.add(p, false));
      }
    }
    pins.commits = seen.size();
    return pins;
  }
}
