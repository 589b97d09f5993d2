package dev.omnigraph.maintenance;

import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The explicit, operator-run maintenance of one graph: {@link #repair} (uncovered HEAD drift) and
 * {@link #cleanup} (version garbage collection). Both refuse while any recovery sidecar is pending
 * (seed: "repair, which refuses while a sidecar is pending"; "cleanup refuses pending sidecars at
 * entry"), checked before and again under the gates, and both run under every gate of the root —
 * schema, every graph branch, every table — so no writer or recovery of this process is live.
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
  private final Supplier<List<String>> tableKeys;

  /**
   * @param tableKeys every table key of the accepted schema (the table gates to take)
   */
  public Maintenance(GateManager gates, GraphManifest manifest, DataTables tables, ManifestBatchPublisher publisher,
      Recovery recovery, Supplier<List<String>> tableKeys) {
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
   * @throws dev.omnigraph.manifest.HeadMismatch when a repair publish finds a moved head (another
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
   *
   * @throws RecoveryPending when a recovery sidecar is pending (checked before anything else)
   * @throws dev.omnigraph.api.InvariantViolation when a HEAD is behind a pin (nothing is removed)
   * @throws IllegalStateException when a reachable commit's state cannot be read (nothing is removed)
   */
  public CleanupReport cleanup(boolean dryRun) {
    return new Cleanup(this).run(dryRun);
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

  /** One Lance branch of one data table. */
  record TableBranch(String location, Optional<String> nativeBranch) implements Comparable<TableBranch> {
    @Override
    public int compareTo(TableBranch o) {
      int c = location.compareTo(o.location);
      return c != 0 ? c : nativeBranch.orElse("").compareTo(o.nativeBranch.orElse(""));
    }
  }
}
