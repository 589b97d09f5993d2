package dev.omnigraph.maintenance;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.maintenance.CleanupReport;
import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.TableRef;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The explicit, operator-run maintenance of one graph: {@link #repair} (uncovered HEAD drift) and
 * {@link #cleanup} (version garbage collection). Both refuse while any recovery sidecar is pending
 * (either could undo what that recovery must still find; docs/maintenance.md), checked before and
 * again under the gates, and both run under every gate of the root — schema, every graph branch,
 * every table — so no writer or recovery of this process is live.
 *
 * <p>Destructive steps (Lance restore, ref deletion, version cleanup) are safe only within the
 * documented single-writer-process boundary: the gates are process-local.
 */
public final class Maintenance {

  /** The actor of the graph commits {@code repair} publishes. */
  public static final String REPAIR_ACTOR = "omnigraph:repair";

  final GateManager gates;
  final GraphManifest manifest;
  final DataTables tables;
  final ManifestBatchPublisher publisher;
  private final Recovery recovery;
  private final Supplier<List<TableKey>> tableKeys;
  /** The root's objects: what residue is looked for in, and removed through. */
  private final StorageAdapter storage;

  /**
   * @param tableKeys every table key of the accepted schema (the table gates to take)
   * @param storage the graph root's storage adapter (residue is listed and removed through it)
   */
  public Maintenance(GateManager gates, GraphManifest manifest, DataTables tables, ManifestBatchPublisher publisher,
      Recovery recovery, Supplier<List<TableKey>> tableKeys, StorageAdapter storage) {
    this.storage = Objects.requireNonNull(storage);
    this.gates = Objects.requireNonNull(gates);
    this.manifest = Objects.requireNonNull(manifest);
    this.tables = Objects.requireNonNull(tables);
    this.publisher = Objects.requireNonNull(publisher);
    this.recovery = Objects.requireNonNull(recovery);
    this.tableKeys = Objects.requireNonNull(tableKeys);
  }

  /**
   * Explains uncovered drift and, with {@code apply}, resolves it by restoring each drifted table to
   * its pinned version and publishing the restored heads (one commit per graph branch, actor
   * {@value #REPAIR_ACTOR}); unreferenced first-touch refs are deleted. Drift is never adopted.
   *
   * @throws RecoveryPending when a recovery sidecar is pending (nothing is read or written)
   * @throws dev.omnigraph.api.InvariantViolation with {@code apply}, when a HEAD is behind its pin
   *     (nothing is written; a dry run reports it instead)
   * @throws dev.omnigraph.api.ReadSetChanged when a repair publish finds a moved head (another
   *     process wrote): the restores already made read as drift again and a rerun converges
   */
  public RepairReport repair(boolean apply) {
    return new Repair(this).run(apply);
  }

  /**
   * {@link #repair repair}'s dry run without the history: the same inspection under the same gates,
   * but no drifted version's transaction is read (every {@code transactions} list is empty), so it
   * costs one HEAD probe per table pin, however long the drift. What the service's readiness uses.
   *
   * @throws RecoveryPending when a recovery sidecar is pending (nothing is read)
   */
  public RepairReport driftCheck() {
    return new Repair(this).run(false, false);
  }

  /**
   * Removes every data-table version that no commit reachable from a live branch pins, below the
   * oldest version a live branch head pins; with {@code dryRun} only reports what it would remove.
   * {@code progress} is told as each (table, Lance branch) is cleaned.
   *
   * @throws RecoveryPending when a recovery sidecar is pending (checked before anything else)
   * @throws dev.omnigraph.api.InvariantViolation when a HEAD is behind a pin (nothing is removed)
   * @throws IllegalStateException when a reachable commit's state cannot be read (nothing is removed)
   */
  public CleanupReport cleanup(boolean dryRun, dev.omnigraph.api.ProgressListener progress) {
    return new Cleanup(this).run(dryRun, progress);
  }

  /**
   * Every file or dataset under the root that no commit, sidecar or branch explains and that is
   * older than the residue grace ({@link ResidueScan}): what {@code repair} and {@code doctor}
   * report. Read-only; runs under every gate of the root, like repair.
   *
   * @throws RecoveryPending when a recovery sidecar is pending (its effects are recovery's to settle)
   */
  public List<RepairReport.Residue> residue() {
    requireNoPendingRecovery("residue");
    try (GateManager.Held held = acquireAll()) {
      requireNoPendingRecovery("residue");
      return residueScan().find();
    }
  }

  /** A residue scan as of now, with the configured grace. */
  ResidueScan residueScan() {
    return new ResidueScan(this, storage, java.time.Instant.now(), ResidueScan.grace());
  }

  /**
   * After graph branch {@code name} was deleted (its manifest ref is gone): deletes the data-table
   * Lance refs it owned that nothing else needs ({@link LeftoverRefs}). Derived cleanup, like the
   * manifest tree's: a ref that cannot go now is logged and left for the next create of the name,
   * {@code repair} and {@code cleanup}. The caller holds the root's exclusive gates.
   *
   * @param deleted the deleted branch's last state (its tables are searched)
   * @return the refs removed, as {@code tableKey@name}
   */
  public List<String> removeRefsOfDeletedBranch(String name, ManifestState deleted) {
    LeftoverRefs refs = leftovers(List.of(deleted), false);
    List<LeftoverRefs.Leftover> found = refs.find(Optional.of(name), Set.copyOf(claimed(name)));
    return refs.remove(found).stream().map(l -> l.tableKey() + "@" + l.ref().name()).toList();
  }

  /**
   * Before graph branch {@code name} is created: reclaims the data-table refs an earlier branch of
   * the same name left behind (a crash between a delete's manifest step and its ref removal, or a
   * root written before deletes removed them), so the new branch's first write to a table can fork
   * its own ref. The caller holds the root's exclusive gates.
   *
   * @throws RecoveryPending when a pending sidecar claims that name (nothing is removed)
   * @throws dev.omnigraph.api.Conflict when such a ref is still needed (nothing is removed): the
   *     message names the table and why
   */
  public void reclaimBranchName(String name) {
    List<String> claims = claimed(name);
    LeftoverRefs refs = leftovers(List.of(), false);
    List<LeftoverRefs.Leftover> found = refs.find(Optional.of(name), Set.copyOf(claims));
    if (found.isEmpty()) {
      return;
    }
    if (!claims.isEmpty()) {
      throw new RecoveryPending("branch create '" + name + "'", claims);
    }
    List<LeftoverRefs.Leftover> kept = found.stream().filter(l -> !l.removable()).toList();
    if (!kept.isEmpty()) {
      throw new dev.omnigraph.api.Conflict("branch name '" + name + "' cannot be reused yet: "
          + kept.stream().map(l -> l.tableKey() + " keeps Lance branch '" + l.ref().name() + "' of an earlier "
          + "branch of this name (" + l.keptBecause() + ")").collect(java.util.stream.Collectors.joining("; "))
          + "; choose another name");
    }
    List<LeftoverRefs.Leftover> removed = refs.remove(found);
    if (removed.size() != found.size()) {
      throw new IllegalStateException("branch create '" + name + "': leftover Lance branches of an earlier branch "
          + "of this name could not be removed (see the log); nothing was created");
    }
  }

  /** Every leftover ref named after no live graph branch, in removal order. */
  List<LeftoverRefs.Leftover> leftoverRefs() {
    return leftovers(List.of(), true).find(Optional.empty(), Set.copyOf(claimedAll()));
  }

  /** Removes the removable ones of {@code found}; returns those removed. */
  List<LeftoverRefs.Leftover> removeLeftovers(List<LeftoverRefs.Leftover> found) {
    return new LeftoverRefs(this, n -> true, Map.of(), Set::of).remove(found);
  }

  /**
   * @param extra states no longer live whose tables are searched too (a branch just deleted); with
   *     none, main's tables (every table of the accepted schema) are searched, or with
   *     {@code everyBranch} the tables of every live branch
   */
  private LeftoverRefs leftovers(List<ManifestState> extra, boolean everyBranch) {
    List<String> live = liveBranches();
    Set<String> names = Set.copyOf(live);
    // Read at most once: the thorough search needs every state up front, the name search only once a
    // ref of that name turns up.
    List<List<ManifestState>> read = new ArrayList<>(1);
    java.util.function.Supplier<List<ManifestState>> states = () -> {
      if (read.isEmpty()) {
        read.add(live.stream().map(manifest::state).toList());
      }
      return read.get(0);
    };
    List<ManifestState> searched = new ArrayList<>(extra);
    if (everyBranch) {
      searched.addAll(states.get());
    } else {
      searched.add(manifest.state(ManifestState.MAIN));
    }
    return new LeftoverRefs(this, names::contains, LeftoverRefs.locationsOf(searched),
        () -> LeftoverRefs.pinsOf(states.get()));
  }

  private List<String> claimed(String name) {
    return recovery.claimsOnBranchName(name);
  }

  /** Ref names that pending sidecars claim (their branches and the table refs they write). */
  private List<String> claimedAll() {
    return recovery.claimedBranchNames();
  }

  /** Refuses {@code operation} while any sidecar is pending; a listing failure is thrown. */
  void requireNoPendingRecovery(String operation) {
    List<String> pending = recovery.pending();
    if (!pending.isEmpty()) {
      throw new RecoveryPending(operation, pending);
    }
  }

  /** Main first, then every other graph branch, sorted. */
  List<String> liveBranches() {
    List<String> names = new ArrayList<>();
    names.add(ManifestState.MAIN);
    manifest.branches().stream().map(NativeBranch::name).sorted().forEach(names::add);
    return names;
  }

  /** Every gate of the root: schema, every graph branch, every table. */
  GateManager.Held acquireAll() {
    return gates.acquireExclusive(liveBranches(), List.of());
  }

  /** The table branch a graph branch writes (and so owns): main's tables, or its own Lance branch. */
  static Optional<String> ownTableBranch(String graphBranch) {
    return graphBranch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(graphBranch);
  }

  /** Table branches in a report's order: by location, then native branch (main first). */
  static final Comparator<TableRef> BY_LOCATION =
      Comparator.comparing(TableRef::location).thenComparing(r -> r.nativeBranch().orElse(""));
}
