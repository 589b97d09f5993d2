package dev.omnigraph.engine;

import dev.omnigraph.gate.GateManager;
import dev.omnigraph.policy.PolicyAction;
import dev.omnigraph.policy.PolicyGate;
import dev.omnigraph.util.Failpoints;

import dev.omnigraph.Versions;
import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.BranchListOutput;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.SchemaOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.CommitCursor;
import dev.omnigraph.manifest.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.maintenance.CleanupReport;
import dev.omnigraph.maintenance.Maintenance;
import dev.omnigraph.maintenance.Optimize;
import dev.omnigraph.maintenance.OptimizeReport;
import dev.omnigraph.maintenance.OptimizeSettings;
import dev.omnigraph.maintenance.RepairReport;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.read.GraphExport;
import dev.omnigraph.read.ReadRunner;
import dev.omnigraph.read.ReadSettings;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.WriteAttempt;
import dev.omnigraph.write.WritePath;
import dev.omnigraph.write.WriteResult;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A handle on one graph: the engine's public entry point. Every handle on the same canonical root
 * shares one {@link GateManager}. Thread-safe.
 */
public final class Omnigraph implements AutoCloseable {

  private final StorageConfig config;
  private final StorageAdapter storage;
  /** The registry this handle's root is open in, and the root: what every handle of it shares. */
  private final GraphRoots roots;
  private final GraphRoot root;
  private final DataTables tables;
  /** Queries, exports, history and the change feed (bodies; this facade authorizes first). */
  private final GraphReads reads;
  private final OpenMode mode;
  private final GateManager gates;
  final GraphManifest manifest;
  /** The accepted schema contract, shared by every handle of the process on this root. */
  final SchemaHolder schemas;
  /** Schema apply: the SchemaApply writer (issue 15). */
  private final dev.omnigraph.write.SchemaApplyAttempt schemaApplies;
  /** Index ensure: the EnsureIndices writer (issue 16). */
  private final dev.omnigraph.write.EnsureIndicesAttempt indexEnsures;
  private final WritePath writePath;
  private final dev.omnigraph.write.MergeAttempt merges;
  final Recovery recovery;
  final SidecarStore sidecars;
  private final RecoveryAuditTable audit;
  private final Maintenance maintenance;
  /** Compaction: the Optimize writer and the automatic pass after writes (issue 11). */
  private final AutoOptimizer optimizer;
  /** Settles a failure no type explains (Lance's store failures) by asking the store (see there). */
  final StoreEvidence evidence;
  /**
   * This handle's share of the process's writer lease on the root (issue 17); null on a read-only
   * handle, which never needs it. Checked at every write entry, before every arm and every publish.
   */
  private final dev.omnigraph.lease.ProcessLeases.Claim lease;
  /**
   * The authorization gate (issue 34, docs/authorization.md) every public writer and read asks first,
   * before anything is prepared: a denied call leaves nothing (no sidecar, the same head). Open unless
   * the opener installs one ({@link #gatedBy}).
   */
  private volatile PolicyGate policy = PolicyGate.OPEN;

  Omnigraph(GraphRoots roots, GraphRoot root, StorageConfig config, StorageAdapter storage, OpenMode mode,
      SchemaContract schema, OptimizeSettings optimizeSettings, dev.omnigraph.lease.ProcessLeases.Claim lease) {
    this.roots = roots;
    this.root = root;
    this.config = config;
    this.owner = null;
    this.lease = lease;
    dev.omnigraph.lease.WriterFence fence = lease == null ? readOnlyFence() : lease;
    this.storage = storage;
    this.mode = mode;
    this.gates = root.gates();
    this.manifest = new GraphManifest(config, storage, root.manifests());
    this.evidence = new StoreEvidence(storage);
    this.schemas = root.schemas();
    this.schemas.set(schema);
    this.tables = new DataTables(config, root.lance());
    this.reads = new GraphReads(config, storage, manifest, tables, roots.adjacency(), schemas, evidence);
    dev.omnigraph.recovery.SchemaContracts contracts = new StoredSchemaContracts(storage, schemas);
    this.sidecars = new SidecarStore(storage, fence, root.retiring());
    ManifestBatchPublisher publisher = new ManifestBatchPublisher(config, storage, fence, root.manifests());
    this.audit = new RecoveryAuditTable(config, storage, root.lance());
    this.recovery = new Recovery(gates, manifest, tables, sidecars, publisher, audit, contracts);
    dev.omnigraph.write.CommitTemplate template = new dev.omnigraph.write.CommitTemplate(sidecars, publisher, tables);
    WriteAttempt attempt = new WriteAttempt(gates, manifest, () -> SchemaContract.liveIdentity(storage),
        tables, template, recovery);
    this.writePath = new WritePath(attempt, () -> contract().ir());
    this.merges = new dev.omnigraph.write.MergeAttempt(gates, manifest, () -> contract().ir(),
        () -> SchemaContract.liveIdentity(storage), tables, template, recovery);
    this.schemaApplies = new dev.omnigraph.write.SchemaApplyAttempt(gates, manifest, tables, template,
        recovery, contracts, () -> contract().ir());
    this.indexEnsures = new dev.omnigraph.write.EnsureIndicesAttempt(gates, manifest, tables, template,
        recovery, () -> contract().ir(), () -> SchemaContract.liveIdentity(storage));
    this.maintenance = new Maintenance(gates, manifest, tables, publisher, recovery,
        () -> contract().ir().catalog().tableKeys(), storage);
    this.optimizer = new AutoOptimizer(optimizeSettings, new Optimize(gates, manifest, tables, template,
        recovery, () -> contract().identity()), manifest, tables);
  }

  /**
   * A view of {@code owner} that asks {@code gate}: the same storage, writers, lease and caches, by
   * reference. {@link #pinnedTo} explains why; a new field of this class must be shared here too
   * (the compiler insists for a final one).
   */
  private Omnigraph(Omnigraph owner, PolicyGate gate) {
    this.roots = owner.roots;
    this.root = owner.root;
    this.tables = owner.tables;
    this.reads = owner.reads;
    this.config = owner.config;
    this.storage = owner.storage;
    this.mode = owner.mode;
    this.gates = owner.gates;
    this.manifest = owner.manifest;
    this.schemas = owner.schemas;
    this.schemaApplies = owner.schemaApplies;
    this.indexEnsures = owner.indexEnsures;
    this.writePath = owner.writePath;
    this.merges = owner.merges;
    this.recovery = owner.recovery;
    this.sidecars = owner.sidecars;
    this.audit = owner.audit;
    this.maintenance = owner.maintenance;
    this.optimizer = owner.optimizer;
    this.evidence = owner.evidence;
    this.lease = owner.lease;
    this.lastRecovery = owner.lastRecovery;
    this.policy = gate;
    this.owner = owner;
  }

  /** The root this handle shares with every handle of it in its registry (tests). */
  GraphRoot root() {
    return root;
  }

  /** The handle a view was made of; null for a handle that owns its resources. */
  private final Omnigraph owner;

  /** The accepted contract to serve this call with. */
  SchemaContract contract() {
    return schemas.current();
  }

  /**
   * Installs the authorization gate this handle's writers and reads ask at their head; call it before
   * the handle is shared. Returns this handle.
   */
  public Omnigraph gatedBy(PolicyGate gate) {
    this.policy = java.util.Objects.requireNonNull(gate, "gate");
    return this;
  }

  /**
   * A view of this handle whose every check asks {@code gate}, whatever is installed here later: the
   * server takes one per request, so a policy reload that installs a new gate on the handle while a
   * request runs cannot split that request's decisions between two policies (a merge's
   * {@code branch_merge} and {@code branch_delete}, a stored query's two checks). It shares everything
   * else with this handle; closing it closes nothing (the handle owns the storage and the lease).
   */
  public Omnigraph pinnedTo(PolicyGate gate) {
    return new Omnigraph(owner == null ? this : owner, java.util.Objects.requireNonNull(gate, "gate"));
  }

  /** The authorization gate of this handle ({@link PolicyGate#OPEN} unless one was installed). */
  public PolicyGate policyGate() {
    return policy;
  }

  /**
   * The one authorization check of every public entry, at its head.
   *
   * @throws dev.omnigraph.api.Forbidden when the gate denies {@code actor} the action
   */
  private void authorize(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    policy.check(actor, action, branch, targetBranch);
  }





  private static String orMain(String branch) {
    return branch == null || branch.isBlank() ? BranchNames.MAIN : branch;
  }

  /**
   * Creates a graph at {@code config}'s root from a {@code .pg} schema and opens it read-write.
   *
   * @throws dev.omnigraph.schema.SchemaParseException for an invalid schema (nothing is written)
   * @throws Conflict when the root already holds a graph or an init claim
   */
  public static Omnigraph init(StorageConfig config, String schemaSource, Optional<String> actor) {
    return init(GraphRoots.shared(), config, schemaSource, actor);
  }

  /** As {@link #init(StorageConfig, String, Optional)}, with the root open in {@code roots}. */
  public static Omnigraph init(GraphRoots roots, StorageConfig config, String schemaSource, Optional<String> actor) {
    return RootLifecycle.init(roots, config, schemaSource, actor);
  }

  /**
   * Opens the graph at {@code config}'s root. Main's storage stamp is checked before any branch
   * state is read; a read-only open performs no object-store writes.
   *
   * @throws NotFound when the root holds no graph
   * @throws dev.omnigraph.api.UnsupportedStorageVersion for a stamp other than the served one
   */
  public static Omnigraph open(StorageConfig config, OpenMode mode) {
    return open(config, mode, OptimizeSettings.fromSystemProperties());
  }

  /**
   * As {@link #open(StorageConfig, OpenMode)}, with explicit compaction settings (the service passes
   * its configuration; the two-argument form reads the {@code omnigraph.optimize.*} system
   * properties).
   */
  public static Omnigraph open(StorageConfig config, OpenMode mode, OptimizeSettings optimizeSettings) {
    return open(config, mode, optimizeSettings, dev.omnigraph.lease.LeaseSettings.fromSystemProperties());
  }

  /**
   * As {@link #open(StorageConfig, OpenMode, OptimizeSettings)}, with explicit writer-lease settings
   * (used by the first read-write handle of the process on the root; later ones join its lease).
   *
   * <p>A read-write open joins the process's writer lease on the root ({@code __lease.json}, issue
   * 17), acquiring it first, before recovery or anything else that writes; a read-only open never
   * touches it.
   *
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the writer lease (exit 3 in
   *     the CLI): nothing was written; read-only opens still work
   */
  public static Omnigraph open(StorageConfig config, OpenMode mode, OptimizeSettings optimizeSettings,
      dev.omnigraph.lease.LeaseSettings leaseSettings) {
    return open(GraphRoots.shared(), config, mode, optimizeSettings, leaseSettings);
  }

  /**
   * As {@link #open(StorageConfig, OpenMode, OptimizeSettings, dev.omnigraph.lease.LeaseSettings)},
   * with the root open in {@code roots}: the handle shares the root's gates, caches and writer lease
   * with every other handle of the root open there, and closing it gives back its reference.
   */
  public static Omnigraph open(GraphRoots roots, StorageConfig config, OpenMode mode,
      OptimizeSettings optimizeSettings, dev.omnigraph.lease.LeaseSettings leaseSettings) {
    return RootLifecycle.open(roots, config, mode, optimizeSettings, leaseSettings);
  }


  /**
   * Points every location that Lance files under {@code config}'s root record for a dataset of the
   * root it was copied or moved from at the same dataset under this root (a copy, a restored backup,
   * a sync to another bucket or prefix: Lance names a branch's parent by absolute path or URI). With
   * {@code dryRun} only reports them, and works beside a live writer. Otherwise takes the writer
   * lease and the root's schema gate; idempotent, and a run stopped part way is finished by the next
   * one (or by the next read-write open, which relocates a moved root itself).
   *
   * @throws NotFound when the root holds no graph
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the writer lease; nothing written
   */
  public static dev.omnigraph.table.RootLocations.Report relocate(StorageConfig config, boolean dryRun) {
    return RootLifecycle.relocate(config, dryRun);
  }

  /**
   * The operator's exit for a recovery sidecar that recovery cannot read (corrupt, empty, of
   * another format version) or reads and refuses (a foreign commit on a table it owns, a HEAD
   * behind its pin: {@code Recovery.refusal}): moves {@code __recovery/<id>.json} aside to
   * {@code __recovery_quarantine/<id>.json}, where no listing of pending sidecars sees it, and
   * returns what it held. A refused intent's unpublished effect is then uncovered drift, which
   * {@code repair --apply} restores to the published version. Works without opening the graph
   * read-write (that open is what the sidecar blocks); takes the root's schema gate exclusively,
   * so no writer of this process is live. Refuses, changing nothing, when recovery would settle the
   * sidecar: {@code recover} does that.
   *
   * @param operationId the operation id, or the sidecar's key {@code __recovery/<id>.json}
   * @param beforeMove sees what the sidecar holds before anything is written
   * @throws NotFound when the root holds no graph or no such sidecar
   * @throws dev.omnigraph.api.InvalidRequest when the id is malformed or recovery would settle it
   * @throws dev.omnigraph.api.LeaseHeld when another live process holds the writer lease; nothing moved
   */
  public static SidecarStore.Quarantined quarantineSidecar(StorageConfig config, String operationId,
      java.util.function.Consumer<SidecarStore.Quarantined> beforeMove) {
    return RootLifecycle.quarantineSidecar(config, operationId, beforeMove);
  }

  /**
   * The pending sidecars recovery cannot read, each as the refusal recovery would raise for it;
   * reads only, so it works on a read-only handle (the operator's view before a quarantine).
   */
  public List<dev.omnigraph.recovery.UnreadableSidecar> unreadableSidecars() {
    List<dev.omnigraph.recovery.UnreadableSidecar> out = new ArrayList<>();
    for (String key : sidecars.list()) {
      try {
        sidecars.read(key);
      } catch (dev.omnigraph.recovery.UnreadableSidecar e) {
        out.add(e);
      }
    }
    return out;
  }

  volatile List<Recovery.Outcome> lastRecovery = List.of();

  /** What the read-write open's recovery sweep settled (empty for read-only, or nothing pending). */
  public List<Recovery.Outcome> openRecovery() {
    return lastRecovery;
  }

  /**
   * Quiesced full recovery without a restart: takes every gate of the root (so no writer of this
   * process is live), then runs the full sweep, rollbacks included.
   *
   * @throws dev.omnigraph.api.RecoveryRequired for a sidecar recovery refuses (kept on disk)
   */
  public List<Recovery.Outcome> recover(Optional<String> actor) {
    authorize(actor, PolicyAction.ADMIN, Optional.empty(), Optional.empty());
    return recover();
  }

  /**
   * As {@link #recover(Optional)}, as the service itself: not gated, like {@link #heal()} and the
   * open's recovery. The service's reconciler settles what a crashed write left; no actor asked for it.
   */
  public List<Recovery.Outcome> recover() {
    requireWritable();
    return evidence.call(() -> {
      List<String> branches = new ArrayList<>();
      branches.add(BranchNames.MAIN);
      manifest.branches().forEach(b -> branches.add(b.name()));
      try (GateManager.Held held = gates.acquireExclusive(branches, List.of())) {
        return recovery.sweep(Recovery.Mode.FULL);
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
    return evidence.call(() -> maintenance.repair(apply));
  }

  /**
   * Every file or dataset under the root that no commit, sidecar or branch explains (a foreign
   * writer's residue, an uncommitted manifest transaction), older than the residue grace: what
   * {@code repair} reports under {@code residue} and {@code doctor} prints. Writes nothing; works on
   * a read-only handle. Never part of readiness: nothing of ours reads residue.
   *
   * @throws dev.omnigraph.api.RecoveryPending while a recovery sidecar is pending
   */
  public List<dev.omnigraph.maintenance.RepairReport.Residue> residue() {
    return evidence.call(maintenance::residue);
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
    return evidence.call(maintenance::driftCheck);
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
    return evidence.call(() -> maintenance.cleanup(dryRun, progress));
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
  public List<Recovery.Outcome> heal() {
    requireWritable();
    return evidence.call(() -> recovery.sweep(Recovery.Mode.ROLL_FORWARD_ONLY));
  }

  /** The pending recovery sidecars' keys (a listing failure is thrown). */
  public List<String> pendingRecovery() {
    return recovery.pending();
  }

  /** Every recorded recovery ({@code _graph_commit_recoveries.lance}), oldest first. */
  public List<RecoveryAuditTable.Entry> recoveryAudit() {
    return evidence.call(audit::entries);
  }

  public StorageConfig config() {
    return config;
  }

  public OpenMode mode() {
    return mode;
  }

  /** The accepted schema source. */
  public SchemaOutput schema() {
    return schema(Optional.empty());
  }

  /** As {@link #schema()}, for {@code actor} ({@code read}, no branch). */
  public SchemaOutput schema(Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.empty(), Optional.empty());
    return new SchemaOutput(contract().source());
  }

  /**
   * The migration plan from the accepted schema to {@code desiredSource} (docs/schema-evolution.md):
   * ordered, typed steps, and whether schema apply supports them all. Reads nothing but the accepted
   * schema this handle holds, so it never waits for writers.
   *
   * @throws dev.omnigraph.schema.SchemaParseException if the desired source does not parse or typecheck
   */
  public dev.omnigraph.api.SchemaPlanOutput schemaPlan(String desiredSource) {
    return schemaPlan(desiredSource, Optional.empty());
  }

  /** As {@link #schemaPlan(String)}, for {@code actor} ({@code read}, no branch: a plan writes nothing). */
  public dev.omnigraph.api.SchemaPlanOutput schemaPlan(String desiredSource, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.empty(), Optional.empty());
    dev.omnigraph.schema.Catalog desired = dev.omnigraph.schema.SchemaParser.parse(desiredSource);
    return dev.omnigraph.api.SchemaPlanOutput.of(config.rootUri(),
        dev.omnigraph.schema.SchemaPlanner.plan(contract().ir().catalog(), desired));
  }

  /**
   * Applies the migration from the accepted schema to {@code desiredSource} on main
   * (docs/schema-evolution.md): plans it, refuses an unsupported plan, then rewrites, creates and
   * retires tables under the SchemaApply recovery envelope and publishes one commit; the new schema
   * is accepted after that commit is visible. A desired schema equal to the accepted one applies
   * nothing ({@code applied: false}).
   *
   * @param allowDataLoss make every drop hard: the earlier versions of the affected datasets are
   *     removed after the publish, irreversibly
   * @throws dev.omnigraph.schema.SchemaParseException if the desired source does not parse or typecheck
   * @throws dev.omnigraph.api.UnsupportedSchemaChange for a plan with an unsupported change (nothing written)
   * @throws dev.omnigraph.api.SchemaApplyBlocked when branches other than main exist (nothing written)
   * @throws dev.omnigraph.write.ConstraintViolation when existing rows break an added constraint
   *     (nothing written; names the row)
   * @throws dev.omnigraph.api.RecoveryRequired for a pending sidecar, or a failure after the apply armed
   */
  public dev.omnigraph.api.SchemaApplyOutput schemaApply(String desiredSource, boolean allowDataLoss,
      Optional<String> actor) {
    return schemaApply(desiredSource, allowDataLoss, actor, accepted -> { });
  }

  /**
   * As {@link #schemaApply(String, boolean, Optional)}, with a check the caller runs on the accepted
   * schema source once the actor is authorized and before anything is planned (the service refuses a
   * schema its stored queries would not compile against); what it throws is the apply's answer.
   */
  public dev.omnigraph.api.SchemaApplyOutput schemaApply(String desiredSource, boolean allowDataLoss,
      Optional<String> actor, java.util.function.Consumer<String> beforeApply) {
    // Schema apply changes main (the reference's target main).
    authorize(actor, PolicyAction.SCHEMA_APPLY, Optional.empty(), Optional.of(BranchNames.MAIN));
    requireWritable();
    beforeApply.accept(contract().source());
    dev.omnigraph.write.SchemaApplyAttempt.Result r = evidence.call(() -> schemaApplies.run(desiredSource,
        allowDataLoss, actor));
    r.commit().ifPresent(c -> optimizer.afterWrite(BranchNames.MAIN, new WriteResult(Optional.of(c.id()),
        c.manifestVersion(), r.rowCounts(), 1, Map.of(), 1, Optional.of(c))));
    return new dev.omnigraph.api.SchemaApplyOutput(config.rootUri(), true, r.commit().isPresent(), r.steps().size(),
        r.manifestVersion(), r.steps(), r.commit().map(GraphCommit::id).orElse(null), r.hardDropped());
  }

  /**
   * Builds every index the accepted schema declares that {@code branch} (default main) lacks
   * (docs/indexes-and-search.md, "Building indexes: index ensure"): a BTree on key columns, enums and
   * orderable scalars, an inverted index on free-text strings, a vector index on vectors, per
   * single-property {@code @index}/{@code @key}. All of one table's indexes land in one transaction;
   * every touched table is published in one commit (actor {@code actor}). Idempotent: a run with
   * nothing to build publishes nothing. A vector property with no non-null vector yet is reported
   * pending. On a named branch a table it still inherits is forked only when it has index work.
   *
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.RecoveryRequired for a pending sidecar on the branch (or a schema
   *     apply's) that needs a rollback, or a failure after the run armed its sidecar
   * @throws dev.omnigraph.write.UncoveredDrift when a table's live HEAD is not its pin (nothing written)
   * @throws dev.omnigraph.api.ReadSetChanged when the branch kept moving before any effect
   */
  public dev.omnigraph.api.EnsureIndicesOutput ensureIndices(String branch, Optional<String> actor) {
    return ensureIndices(branch, actor, ProgressListener.NONE);
  }

  /**
   * As {@link #ensureIndices(String, Optional)}, telling {@code progress} as each table is planned
   * and its indexes built (rows: the rows indexed now).
   */
  public dev.omnigraph.api.EnsureIndicesOutput ensureIndices(String branch, Optional<String> actor,
      ProgressListener progress) {
    String b = orMain(branch);
    // Ours (the reference has no index route): a commit on the branch, so `change` on it.
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    requireWritable();
    dev.omnigraph.write.EnsureIndicesAttempt.Result r = evidence.call(() -> indexEnsures.run(b, actor, progress));
    List<dev.omnigraph.api.EnsureIndicesOutput.Table> built = r.built().stream()
        .map(t -> new dev.omnigraph.api.EnsureIndicesOutput.Table(t.tableKey(), t.nativeBranch().orElse(null),
            t.fromVersion(), t.toVersion(), t.firstTouch(), t.indexes().stream()
                .map(i -> new dev.omnigraph.api.EnsureIndicesOutput.Index(i.column(),
                    i.kind().name().toLowerCase(java.util.Locale.ROOT), i.name())).toList()))
        .toList();
    List<dev.omnigraph.api.EnsureIndicesOutput.Pending> pending = r.pending().stream()
        .map(p -> new dev.omnigraph.api.EnsureIndicesOutput.Pending(p.tableKey(), p.column(), p.reason())).toList();
    return new dev.omnigraph.api.EnsureIndicesOutput(config.rootUri(), b, r.commit().isPresent(),
        r.commit().map(GraphCommit::id).orElse(null), r.manifestVersion(), built, pending);
  }

  /**
   * Whether every node and edge type query {@code name} of {@code source} touches is in
   * {@code actor}'s scope of its action ({@code read}, or {@code change} for a {@code mutation}) on
   * some branch: what a stored-query catalog shows the caller (docs/authorization.md, "Per-type
   * scopes"). With no type limit nothing is parsed; under one, a query that does not check against
   * the accepted schema is not shown (its types cannot be known; invoking it answers why).
   */
  public boolean typesInScope(String source, String name, boolean mutation, Optional<String> actor) {
    dev.omnigraph.policy.NameScope scope = policy.typeScopeOnAnyBranch(actor,
        mutation ? PolicyAction.CHANGE : PolicyAction.READ);
    if (scope.all()) {
      return true;
    }
    dev.omnigraph.schema.Catalog catalog = contract().ir().catalog();
    try {
      dev.omnigraph.query.CheckedQuery q = dev.omnigraph.query.QueryChecker.check(
          dev.omnigraph.query.QueryParser.parse(source).declaration(name), catalog);
      return dev.omnigraph.query.TouchedTypes.of(q, catalog).stream().allMatch(scope::covers);
    } catch (dev.omnigraph.query.QueryException e) {
      return false;
    }
  }

  /** The accepted-schema identity. */
  public String schemaIdentity() {
    return contract().identity();
  }

  /** Every graph branch: main first, then the rest sorted. */
  public BranchListOutput branchList() {
    return branchList(Optional.empty());
  }

  /**
   * Whether graph branch {@code name} exists. Not gated: a load with {@code from} asks it to decide
   * whether it needs {@code branch_create} (as the reference does), which an actor without
   * {@code read} may hold.
   */
  public boolean branchExists(String name) {
    return BranchNames.MAIN.equals(name)
        || evidence.call(manifest::branches).stream().anyMatch(b -> b.name().equals(name));
  }

  /** As {@link #branchList()}, for {@code actor} ({@code read}, no branch). */
  public BranchListOutput branchList(Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.empty(), Optional.empty());
    List<String> names = new ArrayList<>();
    names.add(BranchNames.MAIN);
    evidence.call(manifest::branches).stream().map(NativeBranch::name).sorted().forEach(names::add);
    return new BranchListOutput(names);
  }

  /** The published state of {@code branch}. */
  public SnapshotOutput snapshot(String branch) {
    return snapshot(branch, Optional.empty());
  }

  /** As {@link #snapshot(String)}, for {@code actor} ({@code read} on the branch). */
  public SnapshotOutput snapshot(String branch, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.ofNullable(branch), Optional.empty());
    return GraphReads.toSnapshot(evidence.call(() -> manifest.state(branch)));
  }

  /** The state a commit published (time travel). */
  public SnapshotOutput snapshotAtCommit(String commitId) {
    return snapshotAtCommit(commitId, Optional.empty());
  }

  /** As {@link #snapshotAtCommit(String)}, for {@code actor} ({@code read} on the commit's branch). */
  public SnapshotOutput snapshotAtCommit(String commitId, Optional<String> actor) {
    return evidence.call(() -> {
      GraphCommit c = manifest.findCommit(commitId).orElseThrow(() -> new NotFound("commit", commitId));
      authorize(actor, PolicyAction.READ, Optional.of(c.branch()), Optional.empty());
      return GraphReads.toSnapshot(manifest.stateAt(c.branch(), c.manifestVersion()));
    });
  }

  /** Creates graph branch {@code name} from {@code from} (default main). Data tables are not copied. */
  public BranchCreateOutput branchCreate(String name, String from, Optional<String> actor) {
    String source = orMain(from);
    authorize(actor, PolicyAction.BRANCH_CREATE, Optional.of(source), Optional.of(name));
    requireWritable();
    BranchNames.validate(name);
    try (GateManager.Held held = gates.acquireExclusive(List.of(name, source), tableGates(name))) {
      evidence.call(() -> {
        recovery.refusePendingSchemaApply("branch create");
        return null;
      });
      evidence.call(() -> {
        manifest.createBranch(name, source, live -> {
          BranchNames.requireDisjoint(name, live);
          // A name used before may have left table refs behind (a delete interrupted after its
          // manifest step): the new branch's first write to such a table would find its ref taken.
          maintenance.reclaimBranchName(name);
        });
        return null;
      });
    }
    return new BranchCreateOutput(config.rootUri(), source, name, actor.orElse(null));
  }

  /** The table gates of every table of the accepted schema on graph branch {@code branch}. */
  private List<String> tableGates(String branch) {
    return contract().ir().catalog().tableKeys().stream().map(k -> GateManager.tableGate(k, branch)).toList();
  }

  /** Deletes graph branch {@code name} and the data-table refs only it used. */
  public BranchDeleteOutput branchDelete(String name, Optional<String> actor) {
    authorize(actor, PolicyAction.BRANCH_DELETE, Optional.empty(), Optional.of(name));
    requireWritable();
    // Seed, "Branch-delete orphaning exception": schema, the branch and every table gate of it.
    try (GateManager.Held held = gates.acquireExclusive(List.of(name), tableGates(name))) {
      evidence.call(() -> {
        recovery.refusePendingSchemaApply("branch delete");
        ManifestState last = manifest.state(name);
        manifest.deleteBranch(name);
        // The manifest ref was the authority: with it gone, the table refs this branch forked are
        // unreachable; a crash before they go leaves them to the next create of the name.
        Failpoints.hit("branch_delete.before_table_refs");
        maintenance.removeRefsOfDeletedBranch(name, last);
        return null;
      });
    }
    return new BranchDeleteOutput(config.rootUri(), name, actor.orElse(null));
  }

  /**
   * Loads NDJSON into {@code branch} as one graph commit.
   *
   * @throws dev.omnigraph.api.KeyConflict for an existing id in {@code append} mode
   * @throws dev.omnigraph.write.LoadInputError for invalid input (names the line)
   * @throws dev.omnigraph.api.RecoveryRequired when an effect may have landed
   */
  public WriteResult load(String branch, Reader ndjson, LoadMode mode, Optional<String> actor) {
    authorize(actor, PolicyAction.CHANGE, Optional.ofNullable(branch), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.load(branch, ndjson, mode, actor,
        TypeScopes.admitLoadTypes(policy, actor, branch)));
    optimizer.afterWrite(branch, result);
    return result;
  }

  /**
   * Loads one chunk of a larger NDJSON input ({@code load --split}) as one ordinary load commit:
   * the same write path, bounds and outcomes as {@link #load(String, Reader, LoadMode, Optional)},
   * with input errors naming the line of the whole input.
   */
  public WriteResult load(String branch, dev.omnigraph.write.NdjsonChunks.Chunk chunk, LoadMode mode,
      Optional<String> actor) {
    authorize(actor, PolicyAction.CHANGE, Optional.ofNullable(branch), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.load(branch, chunk, mode, actor,
        TypeScopes.admitLoadTypes(policy, actor, branch)));
    optimizer.afterWrite(branch, result);
    return result;
  }

  /**
   * Runs mutation {@code name} of a {@code .gq} source on {@code branch} as one graph commit.
   *
   * @param ifCommit when present, the write runs only if the branch head is exactly this commit
   * @throws dev.omnigraph.api.PreconditionFailed when {@code ifCommit} is not the head (no effect)
   */
  public WriteResult mutate(String branch, String source, String name, com.fasterxml.jackson.databind.JsonNode params,
      Optional<String> actor, Optional<String> ifCommit) {
    authorize(actor, PolicyAction.CHANGE, Optional.ofNullable(branch), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.mutate(branch, source, name, params, actor, ifCommit,
        TypeScopes.admitTypes(policy, actor, PolicyAction.CHANGE, Optional.ofNullable(branch))));
    optimizer.afterWrite(branch, result);
    return result;
  }

  /**
   * Merges the head of {@code source} into {@code target} (default main): three-way, entity by
   * entity, published as one commit whose parents are the target head and the captured source head
   * ({@code docs/merge.md}). With {@code deleteBranch}, the source is deleted afterwards on every
   * successful outcome; a failed deletion is reported in the output and never fails the merge.
   *
   * @throws dev.omnigraph.api.MergeConflicts for conflicts (nothing written)
   * @throws dev.omnigraph.api.ReadSetChanged when the target moved before any effect
   * @throws dev.omnigraph.api.RecoveryRequired for a relevant pending sidecar, or a failure after
   *     the merge's sidecar armed
   * @throws dev.omnigraph.api.ResourceLimitExceeded for a row or a chain past the bounds (nothing written)
   * @throws NotFound for an unknown branch
   */
  public dev.omnigraph.api.BranchMergeOutput branchMerge(String source, String target, boolean deleteBranch,
      Optional<String> actor) {
    return branchMerge(source, target, deleteBranch, actor, ProgressListener.NONE);
  }

  /**
   * As {@link #branchMerge(String, String, boolean, Optional)}, telling {@code progress} as each
   * table's effect begins (rows: the rows its transactions write).
   */
  public dev.omnigraph.api.BranchMergeOutput branchMerge(String source, String target, boolean deleteBranch,
      Optional<String> actor, ProgressListener progress) {
    return branchMerge(source, target, deleteBranch, actor, dev.omnigraph.merge.MergeLimits.PRODUCTION, progress);
  }

  /**
   * As {@link #branchMerge(String, String, boolean, Optional)}, planned within {@code limits}.
   * Package-private: only this package's tests tighten the limits (to reach each
   * {@code ResourceLimitExceeded} with a small graph); every public entry plans with production's.
   */
  dev.omnigraph.api.BranchMergeOutput branchMerge(String source, String target, boolean deleteBranch,
      Optional<String> actor, dev.omnigraph.merge.MergeLimits limits) {
    return branchMerge(source, target, deleteBranch, actor, limits, ProgressListener.NONE);
  }

  private dev.omnigraph.api.BranchMergeOutput branchMerge(String source, String target, boolean deleteBranch,
      Optional<String> actor, dev.omnigraph.merge.MergeLimits limits, ProgressListener progress) {
    String into = orMain(target);
    // The reference's transition: the source is the branch read, the target the branch changed. A
    // requested deletion of the source is its own branch_delete decision (reported, never raised).
    authorize(actor, PolicyAction.BRANCH_MERGE, Optional.ofNullable(source), Optional.of(into));
    requireWritable();
    dev.omnigraph.write.MergeAttempt.MergeResult result = evidence.call(() -> merges.run(source, into, actor,
        limits, progress));
    result.commit().ifPresent(c -> optimizer.afterWrite(into, new WriteResult(Optional.of(c.id()),
        c.manifestVersion(), result.rowCounts(), 1, result.rowCounts(), 1, Optional.of(c))));
    Boolean deleted = null;
    String deleteError = null;
    if (deleteBranch) {
      try {
        branchDelete(source, actor);
        deleted = true;
      } catch (RuntimeException e) {
        // The merge is durable by now: the deletion's failure is reported, never raised.
        deleted = false;
        deleteError = ErrorKind.of(e).exposesMessage() ? e.getMessage() : "internal error; see the server log";
      }
    }
    return new dev.omnigraph.api.BranchMergeOutput(source, into, result.outcome(), actor.orElse(null), deleted,
        deleteError, result.commit().map(GraphCommit::id).orElse(null));
  }

  // --- Optimize (compaction half) -------------------------------------------------------------

  /**
   * Compacts every data table of {@code branch} (default main) that has more than one fragment or
   * any deletion file, and publishes the compacted versions as one maintenance commit (actor
   * {@value Optimize#ACTOR}). Rows, row ids and time travel are unchanged. Tables the branch still
   * inherits from its parent are left alone.
   *
   * @throws dev.omnigraph.write.UncoveredDrift when a table's live HEAD is not its pin (nothing written)
   * @throws dev.omnigraph.api.RecoveryRequired for a pending sidecar on the branch, or a failure
   *     after the optimize sidecar was armed (recovery rolls it forward)
   */
  public OptimizeReport optimize(String branch) {
    return optimize(branch, Optional.empty());
  }

  /**
   * As {@link #optimize(String)}, for {@code actor}: {@code change} on the branch (ours: the reference
   * has no optimize route; it publishes a commit on the branch, as a write does).
   */
  public OptimizeReport optimize(String branch, Optional<String> actor) {
    return optimize(branch, actor, ProgressListener.NONE);
  }

  /**
   * As {@link #optimize(String, Optional)}, telling {@code progress} as each table's compaction begins
   * (rows: its pinned row count, what the compaction rewrites at most).
   */
  public OptimizeReport optimize(String branch, Optional<String> actor, ProgressListener progress) {
    String b = orMain(branch);
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    requireWritable();
    return evidence.call(() -> optimizer.run(b, List.of(), true, false, progress));
  }

  /** The compaction settings of this handle. */
  public OptimizeSettings optimizeSettings() {
    return optimizer.settings();
  }

  /** Registers a listener told about every Optimize run of this handle, automatic or explicit. */
  public void onOptimize(java.util.function.Consumer<OptimizeRun> listener) {
    optimizer.listen(listener);
  }

  // --- end Optimize ---------------------------------------------------------------------------

  /**
   * Runs read query {@code name} of a {@code .gq} source over one pinned snapshot: the head of
   * {@code branch} (default main), or, when {@code commitId} is given, the state that commit
   * published (time travel). The rows and {@code graph_commit_id} come from the same manifest scan.
   *
   * @throws NotFound for an unknown branch or commit
   * @throws dev.omnigraph.api.InvalidRequest when both a branch and a commit are given, or the
   *     query is a mutation
   * @throws dev.omnigraph.api.ReadBudgetExceeded when the read exceeds a budget of the
   *     {@code omnigraph.read.*} system properties ({@link ReadSettings#fromSystemProperties()})
   */
  public ReadOutput query(Optional<String> branch, Optional<String> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params) {
    return query(branch, commitId, source, name, params, ReadSettings.fromSystemProperties());
  }

  /**
   * As {@link #query(Optional, Optional, String, String, com.fasterxml.jackson.databind.JsonNode)},
   * with explicit budgets (the service passes its {@code omnigraph.read.*} configuration).
   *
   * @throws dev.omnigraph.api.ReadBudgetExceeded when the read exceeds one of {@code budgets}
   */
  public ReadOutput query(Optional<String> branch, Optional<String> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets) {
    return query(branch, commitId, source, name, params, budgets, Optional.empty());
  }

  /**
   * As {@link #query(Optional, Optional, String, String, com.fasterxml.jackson.databind.JsonNode,
   * ReadSettings)}, for {@code actor}: {@code read} on the branch read (a commit's own branch for time
   * travel, main by default).
   */
  public ReadOutput query(Optional<String> branch, Optional<String> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets, Optional<String> actor) {
    if (branch.isPresent() && commitId.isPresent()) {
      throw new dev.omnigraph.api.InvalidRequest("give a branch or a commit, not both");
    }
    if (commitId.isEmpty()) {
      authorize(actor, PolicyAction.READ, Optional.of(branch.orElse(BranchNames.MAIN)), Optional.empty());
    }
    return evidence.call(() -> reads.read(policy, branch, commitId, source, name, params, budgets, actor));
  }


  /**
   * Pins {@code branch}'s (default main) published state now and returns an export of it in the
   * NDJSON load format; rows are read when {@link GraphExport#writeTo} streams them.
   *
   * @param typeNames node and edge types to export; empty: all
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for an unknown type name
   */
  public GraphExport export(Optional<String> branch, List<String> typeNames) {
    return export(branch, typeNames, Optional.empty());
  }

  /** As {@link #export(Optional, List)}, for {@code actor} ({@code export} on the branch). */
  public GraphExport export(Optional<String> branch, List<String> typeNames, Optional<String> actor) {
    String b = branch.orElse(BranchNames.MAIN);
    authorize(actor, PolicyAction.EXPORT, Optional.of(b), Optional.empty());
    return reads.export(policy, b, typeNames, actor);
  }

  /**
   * One page of the commits reachable from {@code branch}'s head, newest first by (graph-manifest
   * version, created-at, commit id): at most {@code page.limit()} commits strictly after the page's
   * cursor, with the next page's cursor when more follow.
   *
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for a cursor this method did not issue
   */
  public CommitListOutput commits(String branch, CommitPage page) {
    return commits(branch, page, Optional.empty());
  }

  /** As {@link #commits(String, CommitPage)}, for {@code actor} ({@code read} on the branch). */
  public CommitListOutput commits(String branch, CommitPage page, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.ofNullable(branch), Optional.empty());
    Optional<CommitCursor> after = page.cursor().map(CommitCursor::decode);
    return evidence.call(() -> reads.commitPage(branch, page, after));
  }


  /** One commit by id. */
  public CommitOutput commit(String commitId) {
    return commit(commitId, Optional.empty());
  }

  /** As {@link #commit(String)}, for {@code actor} ({@code read} without a branch, as the reference). */
  public CommitOutput commit(String commitId, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.empty(), Optional.empty());
    return evidence.call(() -> manifest.findCommit(commitId)).map(GraphReads::toOutput)
        .orElseThrow(() -> new NotFound("commit", commitId));
  }

  /**
   * One page of the entity changes {@code commitId} made relative to its first parent (reference
   * {@code GET /graphs/{id}/commits/{commit_id}/changes}): what a reviewer reads before a merge.
   * Streams: each changed table is diffed by two ordered cursors, never loaded whole.
   *
   * @throws NotFound for an unknown commit
   * @throws dev.omnigraph.api.ChangeDiffRefused for the parentless genesis commit, or a schema boundary
   * @throws dev.omnigraph.api.ChangeFeedGap when cleanup removed a version the diff needs
   * @throws dev.omnigraph.api.InvalidRequest for an unknown type filter or a foreign page token
   */
  public dev.omnigraph.api.CommitChangesOutput commitChanges(String commitId, dev.omnigraph.api.ChangesPage page) {
    return commitChanges(commitId, page, Optional.empty());
  }

  /** As {@link #commitChanges(String, dev.omnigraph.api.ChangesPage)}, for {@code actor} ({@code read} on the commit's branch). */
  public dev.omnigraph.api.CommitChangesOutput commitChanges(String commitId, dev.omnigraph.api.ChangesPage page,
      Optional<String> actor) {
    return reads.commitChanges(commitId, page, c -> {
      authorize(actor, PolicyAction.READ, Optional.of(c.branch()), Optional.empty());
      return TypeScopes.changesInScope(policy, contract().ir().catalog(), actor, c.branch(), page);
    });
  }


  /**
   * One poll of {@code branch}'s change feed (reference {@code GET /graphs/{id}/changes}; see
   * {@link ChangeFeed}). Each poll reads the branch's lineage once to walk its first parents, so its
   * cost grows with the history, not only with the page.
   *
   * @param start {@code now} (the default), {@code beginning} or {@code after:<commit id>}
   * @param filter page size and scope (kinds, types, ops)
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for exclusive parameters, foreign tokens or a start off the branch
   * @throws dev.omnigraph.api.ChangeDiffRefused when a commit in range crosses a schema boundary
   * @throws dev.omnigraph.api.ChangeFeedGap when cleanup removed a version a diff needs
   */
  public dev.omnigraph.api.ChangeFeedOutput changes(String branch, Optional<String> cursor, Optional<String> start,
      Optional<String> pageToken, dev.omnigraph.api.ChangesPage filter) {
    return changes(branch, cursor, start, pageToken, filter, Optional.empty());
  }

  /** As {@link #changes(String, Optional, Optional, Optional, dev.omnigraph.api.ChangesPage)}, for {@code actor} ({@code read} on the branch). */
  public dev.omnigraph.api.ChangeFeedOutput changes(String branch, Optional<String> cursor, Optional<String> start,
      Optional<String> pageToken, dev.omnigraph.api.ChangesPage filter, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.ofNullable(branch), Optional.empty());
    return reads.changes(policy, branch, cursor, start, pageToken, filter, actor);
  }

  /**
   * The baseline handshake (reference {@code POST /graphs/{id}/changes/baseline}): {@code branch}'s
   * state captured once, as an export of the scope's kinds and types, with the head that state is and
   * the feed cursor that resumes right after it.
   *
   * @param export the rows to stream; empty when the scope selects no type
   */
  public record ChangeBaseline(Optional<GraphExport> export, String snapshotCommitId, String resumeCursor) {}

  /**
   * @param scope kinds, types and ops the resume cursor is bound to; the snapshot honours kinds and types
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for an unknown type name
   */
  public ChangeBaseline changeBaseline(String branch, dev.omnigraph.api.ChangesPage scope) {
    return changeBaseline(branch, scope, Optional.empty());
  }

  /** As {@link #changeBaseline(String, dev.omnigraph.api.ChangesPage)}, for {@code actor} ({@code export} on the branch, as the reference). */
  public ChangeBaseline changeBaseline(String branch, dev.omnigraph.api.ChangesPage scope, Optional<String> actor) {
    authorize(actor, PolicyAction.EXPORT, Optional.ofNullable(branch), Optional.empty());
    return reads.changeBaseline(policy, branch, scope, actor);
  }

  @Override
  public void close() {
    if (owner != null) {
      return; // a view (pinnedTo): its handle owns what it uses
    }
    optimizer.close(); // a background pass finishes before the storage it uses closes
    sidecars.awaitRetirements(); // finished writes' sidecar deletes, before the storage closes
    storage.close();
    if (lease != null) {
      lease.close(); // the last handle of the process on the root releases the writer lease
    }
    roots.release(root); // the root's last handle lets go of its caches
  }

  /**
   * The writer lease as this handle's process holds it (who, since when, until when, lost?); empty
   * on a read-only handle.
   */
  public Optional<dev.omnigraph.lease.ProcessLeases.LeaseStatus> writerLease() {
    return lease == null ? Optional.empty() : Optional.of(lease.status());
  }

  /**
   * Picks up a schema another process applied since this handle read it (a read replica's refresh,
   * issue 17): one GET of {@code __schema_state.json}, and a re-read of the contract only when its
   * identity changed.
   *
   * @return true when the served schema changed
   */
  public boolean refreshSchema() {
    if (SchemaContract.liveIdentity(storage).equals(contract().identity())) {
      return false;
    }
    schemas.reload(storage);
    return true;
  }

  /**
   * Every write entry: a read-write handle whose process still holds the writer lease.
   *
   * @throws dev.omnigraph.api.LeaseLost when the process lost the lease; nothing was written
   */
  private void requireWritable() {
    if (mode != OpenMode.READ_WRITE) {
      throw new dev.omnigraph.api.InvalidRequest("the graph is open read-only");
    }
    lease.check();
  }

  /** A read-only handle arms and publishes nothing; reaching either is a bug, refused loudly. */
  private static dev.omnigraph.lease.WriterFence readOnlyFence() {
    return () -> {
      throw new IllegalStateException("a read-only handle attempted a write step");
    };
  }


}
