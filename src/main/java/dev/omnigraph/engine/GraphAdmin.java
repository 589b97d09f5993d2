package dev.omnigraph.engine;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.maintenance.CleanupReport;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.maintenance.Maintenance;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.read.AdjacencyCache;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.RecoveryAuditTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The root-wide administration a graph handle offers beside its reads and writes: recovery, repair,
 * residue, the drift check, cleanup, the heal and the recovery audit (docs/recovery.md,
 * docs/maintenance.md). Every entry works on the whole root, so it asks {@code admin} of the policy
 * where an actor is named. {@link Omnigraph} is the only kind; the entries live here so that the
 * handle's own class stays a room one can read through (docs/testing.md, "Architecture rules").
 */
public abstract sealed class GraphAdmin extends GraphReader permits Omnigraph {

  GraphAdmin(StorageConfig config, StorageAdapter storage, OpenMode mode, GraphManifest manifest,
      SchemaHolder schemas, DataTables tables, AdjacencyCache adjacency) {
    super(config, storage, mode, manifest, schemas, tables, adjacency);
  }

  /** A view of {@code owner} that asks {@code gate} (see {@link Omnigraph#pinnedTo}). */
  GraphAdmin(GraphAdmin owner, PolicyGate gate) {
    super(owner, gate);
  }

  /** The root's gates, shared by every handle of the root. */
  abstract GateManager gates();

  abstract Recovery recovery();

  abstract Maintenance maintenance();

  abstract RecoveryAuditTable audit();

  /**
   * Every write entry: a read-write handle whose process still holds the writer lease.
   *
   * @throws dev.omnigraph.api.LeaseLost when the process lost the lease; nothing was written
   */
  abstract void requireWritable();

  /**
   * Quiesced full recovery without a restart: takes every gate of the root (so no writer of this
   * process is live), then runs the full sweep, rollbacks included.
   *
   * @throws dev.omnigraph.api.RecoveryRequired for a sidecar recovery refuses (kept on disk)
   */
  public List<Outcome> recover(Optional<String> actor) {
    authorize(actor, PolicyAction.ADMIN, Optional.empty(), Optional.empty());
    return recover();
  }

  /**
   * As {@link #recover(Optional)}, as the service itself: not gated, like {@link #heal()} and the
   * open's recovery. The service's reconciler settles what a crashed write left; no actor asked for it.
   */
  public List<Outcome> recover() {
    requireWritable();
    return evidence.call(() -> {
      List<String> branches = new ArrayList<>();
      branches.add(BranchNames.MAIN);
      manifest.branches().forEach(b -> branches.add(b.name()));
      try (GateManager.Held held = gates().acquireExclusive(branches, List.of())) {
        return recovery().sweep(Recovery.Mode.FULL);
      }
    });
  }

  /**
   * Explains uncovered HEAD drift (a table's live Lance HEAD ahead of its pin with no sidecar
   * covering it) and unreferenced first-touch refs; with {@code apply}, restores each drifted table
   * to its pinned version, publishes the restored heads (actor {@code omnigraph:repair}) and deletes
   * the unreferenced refs. A dry run writes nothing and works on a read-only handle.
   *
   * @throws dev.omnigraph.api.RecoveryPending while a recovery sidecar is pending
   * @throws dev.omnigraph.api.InvariantViolation with {@code apply}, when a HEAD is behind its pin
   */
  public RepairReport repair(boolean apply) {
    return repair(apply, Optional.empty());
  }

  /** As {@link #repair(boolean)}, for {@code actor} ({@code admin}: it works on the whole root). */
  public RepairReport repair(boolean apply, Optional<String> actor) {
    authorize(actor, PolicyAction.ADMIN, Optional.empty(), Optional.empty());
    if (apply) {
      requireWritable();
    }
    return evidence.call(() -> maintenance().repair(apply));
  }

  /**
   * Every file or dataset under the root that no commit, sidecar or branch explains (a foreign
   * writer's residue, an uncommitted manifest transaction), older than the residue grace: what
   * {@code repair} reports under {@code residue} and {@code doctor} prints. Writes nothing; works on
   * a read-only handle. Never part of readiness: nothing of ours reads residue.
   *
   * @throws dev.omnigraph.api.RecoveryPending while a recovery sidecar is pending
   */
  public List<dev.omnigraph.api.maintenance.RepairReport.Residue> residue() {
    return evidence.call(maintenance()::residue);
  }

  /**
   * Whether writes would meet uncovered drift, as cheaply as {@link #repair repair(false)} can tell:
   * the same dry run, but each drifted pin's {@code transactions} is left empty, so the cost is one
   * Lance HEAD probe per table pin (bounded by tables and branches, not by history). Takes every
   * gate of the root for the probes, like repair. Writes nothing; works on a read-only handle.
   *
   * @throws dev.omnigraph.api.RecoveryPending while a recovery sidecar is pending
   */
  public RepairReport driftCheck() {
    return evidence.call(maintenance()::driftCheck);
  }

  /**
   * Garbage-collects data-table versions that no commit reachable from a live branch pins (time
   * travel to every such commit keeps working). A dry run writes nothing and works on a read-only
   * handle.
   *
   * @throws dev.omnigraph.api.RecoveryPending while a recovery sidecar is pending
   * @throws dev.omnigraph.api.InvariantViolation when a HEAD is behind a pin
   */
  public CleanupReport cleanup(boolean dryRun) {
    return cleanup(dryRun, Optional.empty());
  }

  /** As {@link #cleanup(boolean)}, for {@code actor} ({@code admin}: it removes history root-wide). */
  public CleanupReport cleanup(boolean dryRun, Optional<String> actor) {
    return cleanup(dryRun, actor, ProgressListener.NONE);
  }

  /** As {@link #cleanup(boolean, Optional)}, telling {@code progress} as each table (and Lance branch) is cleaned. */
  public CleanupReport cleanup(boolean dryRun, Optional<String> actor, ProgressListener progress) {
    authorize(actor, PolicyAction.ADMIN, Optional.empty(), Optional.empty());
    if (!dryRun) {
      requireWritable();
    }
    return evidence.call(() -> maintenance().cleanup(dryRun, progress));
  }

  /**
   * The write-entry heal for every branch at once, without quiescing: settles each pending sidecar
   * that needs no restore (roll forward, discard, retire), waiting for a live writer of this
   * process to finish first; rollback-class sidecars are left for {@link #recover()}. Whatever
   * {@link #pendingRecovery()} still lists afterwards that was listed before blocks writes.
   *
   * @throws dev.omnigraph.api.RecoveryRequired for a sidecar recovery refuses (kept on disk); the
   *     sidecars after it are not visited in this pass
   */
  public List<Outcome> heal() {
    requireWritable();
    return evidence.call(() -> recovery().sweep(Recovery.Mode.ROLL_FORWARD_ONLY));
  }

  /** The pending recovery sidecars' keys (a listing failure is thrown). */
  public List<String> pendingRecovery() {
    return recovery().pending();
  }

  /** Every recorded recovery ({@code _graph_commit_recoveries.lance}), oldest first. */
  public List<RecoveryAuditTable.Entry> recoveryAudit() {
    return evidence.call(audit()::entries);
  }
}
