package dev.omnigraph.engine;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.maintenance.CleanupReport;
import dev.omnigraph.maintenance.Maintenance;
import dev.omnigraph.maintenance.Optimize;
import dev.omnigraph.api.maintenance.OptimizeReport;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.write.WriteAttempt;
import dev.omnigraph.write.WritePath;
import dev.omnigraph.api.WriteResult;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A handle on one graph: the engine's public entry point. Every handle on the same canonical root
 * in one {@link GraphRoots} registry shares the root's {@link GraphRoot} (gates, caches, lease).
 * The reads are {@link GraphReader}'s; bodies live in package-private collaborators
 * ({@link RootLifecycle}, {@link GraphReads}, {@link BranchOps}). Thread-safe.
 *
 * <p>Branches and commits are named by {@link BranchName} and {@link CommitId}, parsed once by the
 * caller: a branch a call looks up or writes is {@link BranchName#existing} (a malformed name is
 * the lookup's {@link NotFound}, after the caller is authorized). A new branch's name is the one
 * {@code String} left: {@link #branchCreate} parses it after authorizing, so a denied caller is
 * refused (403) before its name is judged (400). The {@code String} forms of the other entries
 * parse and delegate; an absent or blank branch means main where the typed form defaults it.
 */
public final class Omnigraph extends GraphAdmin implements AutoCloseable {

  /** The registry this handle's root is open in, and the root: what every handle of it shares. */
  private final GraphRoots roots;
  private final GraphRoot root;
  private final GateManager gates;
  /** Branch create, delete and merge (bodies; this facade authorizes first). */
  private final BranchOps branches;
  /** Schema apply: the SchemaApply writer (docs/schema-evolution.md). */
  private final dev.omnigraph.write.SchemaApplyAttempt schemaApplies;
  /** Index ensure: the EnsureIndices writer (docs/indexes-and-search.md). */
  private final dev.omnigraph.write.EnsureIndicesAttempt indexEnsures;
  private final WritePath writePath;
  private final dev.omnigraph.write.MergeAttempt merges;
  private final dev.omnigraph.write.RevertAttempt reverts;
  final Recovery recovery;
  final SidecarStore sidecars;
  private final RecoveryAuditTable audit;
  private final Maintenance maintenance;
  /** Compaction: the Optimize writer and the automatic pass after writes (docs/maintenance.md, "optimize"). */
  private final AutoOptimizer optimizer;
  /**
   * This handle's share of the process's writer lease on the root (docs/lease.md); null on a read-only
   * handle, which never needs it. Checked at every write entry, before every arm and every publish.
   */
  private final dev.omnigraph.lease.ProcessLeases.Claim lease;

  Omnigraph(GraphRoots roots, GraphRoot root, StorageConfig config, StorageAdapter storage, OpenMode mode,
      SchemaContract schema, OptimizeSettings optimizeSettings, dev.omnigraph.lease.ProcessLeases.Claim lease) {
    super(config, storage, mode, new GraphManifest(config, storage, root.manifests()), root.schemas(),
        new DataTables(config, root.lance()), roots.adjacency());
    schemas.set(schema);
    this.roots = roots;
    this.root = root;
    this.owner = null;
    this.lease = lease;
    dev.omnigraph.lease.WriterFence fence = lease == null ? readOnlyFence() : lease;
    this.gates = root.gates();
    dev.omnigraph.recovery.SchemaContracts contracts = new StoredSchemaContracts(storage, schemas);
    this.sidecars = new SidecarStore(storage, fence, root.retiring());
    ManifestBatchPublisher publisher = new ManifestBatchPublisher(config, storage, fence, root.manifests());
    this.audit = new RecoveryAuditTable(config, storage, root.lance());
    this.recovery = new Recovery(gates, manifest, tables, sidecars, publisher, audit, contracts);
    dev.omnigraph.write.CommitTemplate template = new dev.omnigraph.write.CommitTemplate(sidecars, publisher, tables);
    dev.omnigraph.write.WriterParts writers = new dev.omnigraph.write.WriterParts(gates, manifest, tables,
        template, recovery, () -> contract().ir(), () -> SchemaContract.liveIdentity(storage));
    this.writePath = new WritePath(new WriteAttempt(writers), () -> contract().ir(),
        dev.omnigraph.write.ExternalBlobs.of(dev.omnigraph.api.ExternalBlobPolicy.DENY, config));
    this.merges = new dev.omnigraph.write.MergeAttempt(writers);
    this.schemaApplies = new dev.omnigraph.write.SchemaApplyAttempt(writers, contracts);
    this.indexEnsures = new dev.omnigraph.write.EnsureIndicesAttempt(writers);
    this.reverts = new dev.omnigraph.write.RevertAttempt(writers,
        c -> contract().irAt(storage, c.manifestVersion()).identity());
    this.maintenance = new Maintenance(gates, manifest, tables, publisher, recovery,
        () -> contract().ir().catalog().tableKeys(), storage);
    this.optimizer = new AutoOptimizer(optimizeSettings, new Optimize(writers), manifest, tables);
    this.branches = new BranchOps(config, gates, manifest, schemas, recovery, maintenance, merges, optimizer,
        evidence);
  }

  /**
   * A view of {@code owner} that asks {@code gate}: the same storage, writers, lease and caches, by
   * reference. {@link #pinnedTo} explains why; a new field of this class must be shared here too
   * (the compiler insists for a final one).
   */
  private Omnigraph(Omnigraph owner, PolicyGate gate) {
    super(owner, gate);
    this.roots = owner.roots;
    this.root = owner.root;
    this.gates = owner.gates;
    this.branches = owner.branches;
    this.schemaApplies = owner.schemaApplies;
    this.indexEnsures = owner.indexEnsures;
    this.writePath = owner.writePath;
    this.merges = owner.merges;
    this.reverts = owner.reverts;
    this.recovery = owner.recovery;
    this.sidecars = owner.sidecars;
    this.audit = owner.audit;
    this.maintenance = owner.maintenance;
    this.optimizer = owner.optimizer;
    this.lease = owner.lease;
    this.lastRecovery = owner.lastRecovery;
    this.owner = owner;
  }

  @Override
  GateManager gates() {
    return gates;
  }

  @Override
  Recovery recovery() {
    return recovery;
  }

  @Override
  Maintenance maintenance() {
    return maintenance;
  }

  @Override
  RecoveryAuditTable audit() {
    return audit;
  }

  /** The root this handle shares with every handle of it in its registry (tests). */
  GraphRoot root() {
    return root;
  }

  /** The handle a view was made of; null for a handle that owns its resources. */
  private final Omnigraph owner;

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

  /**
   * Installs the graph's external-Blob allow list ({@code omnigraph.graphs.<id>.blob.allow}): later
   * writes admit URIs under its bases, every other URI is refused (the default). Shared by every view
   * of the handle. Returns this handle.
   */
  public Omnigraph allowExternalBlobs(dev.omnigraph.api.ExternalBlobPolicy policy) {
    writePath.allowExternalBlobs(dev.omnigraph.write.ExternalBlobs.of(policy, config));
    return this;
  }

  /** The authorization gate of this handle ({@link PolicyGate#OPEN} unless one was installed). */
  public PolicyGate policyGate() {
    return policy;
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
    return open(config, mode, optimizeSettings, dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties());
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
      dev.omnigraph.api.lease.LeaseSettings leaseSettings) {
    return open(GraphRoots.shared(), config, mode, optimizeSettings, leaseSettings);
  }

  /**
   * As {@link #open(StorageConfig, OpenMode, OptimizeSettings, dev.omnigraph.api.lease.LeaseSettings)},
   * with the root open in {@code roots}: the handle shares the root's gates, caches and writer lease
   * with every other handle of the root open there, and closing it gives back its reference.
   */
  public static Omnigraph open(GraphRoots roots, StorageConfig config, OpenMode mode,
      OptimizeSettings optimizeSettings, dev.omnigraph.api.lease.LeaseSettings leaseSettings) {
    return RootLifecycle.open(roots, config, mode, optimizeSettings, leaseSettings);
  }

  volatile List<Outcome> lastRecovery = List.of();

  /** What the read-write open's recovery sweep settled (empty for read-only, or nothing pending). */
  public List<Outcome> openRecovery() {
    return lastRecovery;
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
   * @throws dev.omnigraph.api.UncoveredDrift when a table's live HEAD is not its pin (nothing written)
   * @throws dev.omnigraph.api.ReadSetChanged when the branch kept moving before any effect
   */
  public dev.omnigraph.api.EnsureIndicesOutput ensureIndices(String branch, Optional<String> actor) {
    return ensureIndices(BranchName.existingOrMain(branch), actor, ProgressListener.NONE);
  }


  /**
   * As {@link #ensureIndices(String, Optional)}, on {@code branch} as parsed, telling {@code progress}
   * as each table is planned and its indexes built (rows: the rows indexed now).
   */
  public dev.omnigraph.api.EnsureIndicesOutput ensureIndices(BranchName branch, Optional<String> actor,
      ProgressListener progress) {
    // Ours (the reference has no index route): a commit on the branch, so `change` on it.
    authorize(actor, PolicyAction.CHANGE, Optional.of(branch.value()), Optional.empty());
    requireWritable();
    return evidence.call(() -> indexEnsures.run(branch, actor, progress)).output(config.rootUri());
  }

  /** As {@link #branchCreate(String, BranchName, Optional)}, {@code from} parsed ({@link BranchName#existingOrMain}). */
  public BranchCreateOutput branchCreate(String name, String from, Optional<String> actor) {
    return branchCreate(name, BranchName.existingOrMain(from), actor);
  }

  /**
   * Creates graph branch {@code name} from {@code from}. Data tables are not copied. The name is
   * parsed here ({@link BranchName#created}), once {@code actor} is authorized: a denied caller hears
   * 403 whatever name it gave.
   *
   * @throws dev.omnigraph.api.InvalidRequest for a name a branch cannot take (nothing touched)
   * @throws NotFound for an unknown {@code from}
   * @throws Conflict for a live name, or one that is a path prefix of a live one (or has one)
   */
  public BranchCreateOutput branchCreate(String name, BranchName from, Optional<String> actor) {
    authorize(actor, PolicyAction.BRANCH_CREATE, Optional.of(from.value()), Optional.of(name));
    requireWritable();
    return branches.create(BranchName.created(name), from, actor);
  }

  /** As {@link #branchDelete(BranchName, Optional)}, parsed ({@link BranchName#existing}). */
  public BranchDeleteOutput branchDelete(String name, Optional<String> actor) {
    return branchDelete(BranchName.existing(name), actor);
  }

  /** Deletes graph branch {@code name} and the data-table refs only it used. */
  public BranchDeleteOutput branchDelete(BranchName name, Optional<String> actor) {
    authorize(actor, PolicyAction.BRANCH_DELETE, Optional.empty(), Optional.of(name.value()));
    requireWritable();
    return branches.delete(name, actor);
  }

  /**
   * Loads NDJSON into {@code branch} as one graph commit.
   *
   * @throws dev.omnigraph.api.KeyConflict for an existing id in {@code append} mode
   * @throws dev.omnigraph.write.LoadInputError for invalid input (names the line)
   * @throws dev.omnigraph.api.RecoveryRequired when an effect may have landed
   */
  public WriteResult load(String branch, Reader ndjson, LoadMode mode, Optional<String> actor) {
    return load(BranchName.existing(branch), ndjson, mode, actor);
  }

  /** As {@link #load(String, Reader, LoadMode, Optional)}, into {@code branch} as parsed. */
  public WriteResult load(BranchName branch, Reader ndjson, LoadMode mode, Optional<String> actor) {
    String b = branch.value();
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.load(branch, ndjson, mode, actor,
        TypeScopes.admitLoadTypes(policy, actor, b)));
    optimizer.afterWrite(b, result);
    return result;
  }

  /**
   * Loads one chunk of a larger NDJSON input ({@code load --split}) into {@code branch} as one ordinary load commit:
   * the same write path, bounds and outcomes as {@link #load(String, Reader, LoadMode, Optional)},
   * with input errors naming the line of the whole input.
   */
  public WriteResult load(BranchName branch, dev.omnigraph.api.NdjsonChunk chunk, LoadMode mode,
      Optional<String> actor) {
    String b = branch.value();
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.load(branch, chunk, mode, actor,
        TypeScopes.admitLoadTypes(policy, actor, b)));
    optimizer.afterWrite(b, result);
    return result;
  }

  /**
   * Runs mutation {@code name} of a {@code .gq} source on {@code branch} as one graph commit.
   *
   * @param ifCommit when present, the write runs only if the branch head is exactly this commit
   * @throws dev.omnigraph.api.PreconditionFailed when {@code ifCommit} is not the head (no effect)
   */
  public WriteResult mutate(String branch, String source, String name, com.fasterxml.jackson.databind.JsonNode params,
      Optional<String> actor, Optional<CommitId> ifCommit) {
    return mutate(BranchName.existing(branch), source, name, params, actor, ifCommit);
  }

  /** As {@link #mutate(String, String, String, com.fasterxml.jackson.databind.JsonNode, Optional, Optional)}, on {@code branch} as parsed. */
  public WriteResult mutate(BranchName branch, String source, String name, com.fasterxml.jackson.databind.JsonNode params,
      Optional<String> actor, Optional<CommitId> ifCommit) {
    String b = branch.value();
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    requireWritable();
    WriteResult result = evidence.call(() -> writePath.mutate(branch, source, name, params, actor, ifCommit,
        TypeScopes.admitTypes(policy, actor, PolicyAction.CHANGE, Optional.of(b))));
    optimizer.afterWrite(b, result);
    return result;
  }

  /**
   * Replaces one Blob cell's bytes with what {@code bytes} holds (read only once the caller is
   * authorized, never more than 32 MiB (the Blob rule)) or, when it is empty, clears it, on {@code branch} (default
   * main) as one graph commit ({@code PUT|DELETE /graphs/{id}/blob}; docs/write-path.md, "Blob cell
   * writes"). Needs {@code change} on the branch and the type.
   *
   * @param ifMatch the cell's current entity tag, as a read answered it
   * @param ifCommit the branch head the write expects
   * @throws dev.omnigraph.api.BlobTagMismatch when {@code ifMatch} does not name the cell (412)
   * @throws dev.omnigraph.api.PreconditionFailed when {@code ifCommit} is not the head (412)
   * @throws dev.omnigraph.api.ReadSetChanged when the head moved before the effect
   * @throws NotFound for an unknown row
   * @throws dev.omnigraph.api.InvalidRequest for a property that is not a Blob, or clearing a required one
   * @throws dev.omnigraph.api.ResourceLimitExceeded for more than 32 MiB (the Blob rule) (nothing written)
   */
  public dev.omnigraph.api.BlobWriteOutput writeBlob(String branch, String entity, String type, String id,
      String property, Optional<java.io.InputStream> bytes, Optional<String> ifMatch,
      Optional<CommitId> ifCommit, Optional<String> actor) {
    return writeBlob(BranchName.existingOrMain(branch), entity, type, id, property, bytes, ifMatch, ifCommit, actor);
  }

  /** As {@link #writeBlob(String, String, String, String, String, Optional, Optional, Optional, Optional)}, on {@code branch} as parsed. */
  public dev.omnigraph.api.BlobWriteOutput writeBlob(BranchName branch, String entity, String type, String id,
      String property, Optional<java.io.InputStream> bytes, Optional<String> ifMatch,
      Optional<CommitId> ifCommit, Optional<String> actor) {
    String b = branch.value();
    authorize(actor, PolicyAction.CHANGE, Optional.of(b), Optional.empty());
    policy.checkTypes(actor, PolicyAction.CHANGE, Optional.of(b), java.util.Set.of(type));
    requireWritable();
    dev.omnigraph.write.BlobTarget target = new dev.omnigraph.write.BlobTarget(entity, type, id, property);
    Optional<dev.omnigraph.schema.BlobValue> value = bytes.map(in -> dev.omnigraph.schema.BlobValue.read(in,
        java.util.OptionalLong.empty()));
    return evidence.call(() -> {
      WriteResult result = writePath.writeBlob(branch, target, value, ifMatch, actor, ifCommit);
      optimizer.afterWrite(b, result);
      Optional<String> tag = BlobCells.writtenTag(manifest, contract().ir().catalog(), tables, b,
          result.manifestVersion(), target);
      return new dev.omnigraph.api.BlobWriteOutput(b, result.commitId().orElse(null), result.manifestVersion(),
          tag.orElse(null), value.map(dev.omnigraph.schema.BlobValue::size).orElse(null));
    });
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
    return branchMerge(BranchName.existing(source), BranchName.existingOrMain(target), deleteBranch, actor,
        dev.omnigraph.merge.MergeLimits.PRODUCTION, ProgressListener.NONE);
  }

  /**
   * As {@link #branchMerge(String, String, boolean, Optional)}, with the branches as parsed
   * ({@link BranchName#existing}; the target's default, main, applied by the caller), telling
   * {@code progress} as each table's effect begins (rows: the rows its transactions write).
   */
  public dev.omnigraph.api.BranchMergeOutput branchMerge(BranchName source, BranchName target, boolean deleteBranch,
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
    return branchMerge(BranchName.existing(source), BranchName.existingOrMain(target), deleteBranch, actor, limits,
        ProgressListener.NONE);
  }

  private dev.omnigraph.api.BranchMergeOutput branchMerge(BranchName source, BranchName into, boolean deleteBranch,
      Optional<String> actor, dev.omnigraph.merge.MergeLimits limits, ProgressListener progress) {
    // The reference's transition: the source is the branch read, the target the branch changed. A
    // requested deletion of the source is its own branch_delete decision (reported, never raised).
    authorize(actor, PolicyAction.BRANCH_MERGE, Optional.of(source.value()), Optional.of(into.value()));
    requireWritable();
    // The source's deletion is its own gated call (branch_delete), through this handle.
    return branches.merge(source, into, deleteBranch, actor, limits, progress, () -> branchDelete(source, actor));
  }

  /** One commit on {@code branch} whose state is commit {@code to}'s: {@link dev.omnigraph.write.RevertAttempt#run}. */
  public dev.omnigraph.api.RevertOutput revert(BranchName branch, CommitId to, Optional<String> actor,
      Optional<CommitId> ifCommit) {
    authorize(actor, PolicyAction.CHANGE, Optional.of(branch.value()), Optional.empty());
    requireWritable();
    return evidence.call(() -> reverts.run(branch, to, actor, ifCommit)).output(config.rootUri());
  }

  /**
   * As {@link #revert(BranchName, CommitId, Optional, Optional)}, parsing {@code branch} (default
   * main) and {@code to} (the engine tests' spelling).
   */
  public dev.omnigraph.api.RevertOutput revert(String branch, String to, Optional<String> actor,
      Optional<CommitId> ifCommit) {
    return revert(BranchName.existingOrMain(branch), CommitId.of(to), actor, ifCommit);
  }

  /**
   * Compacts every data table of {@code branch} (default main) that has more than one fragment or
   * any deletion file, and publishes the compacted versions as one maintenance commit (actor
   * {@value Optimize#ACTOR}). Rows, row ids and time travel are unchanged. Tables the branch still
   * inherits from its parent are left alone.
   *
   * @throws dev.omnigraph.api.UncoveredDrift when a table's live HEAD is not its pin (nothing written)
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
    return optimize(BranchName.existingOrMain(branch), actor, ProgressListener.NONE);
  }

  /**
   * As {@link #optimize(String, Optional)}, on {@code branch} as parsed, telling {@code progress} as each
   * table's compaction begins (rows: its pinned row count, what the compaction rewrites at most).
   */
  public OptimizeReport optimize(BranchName branch, Optional<String> actor, ProgressListener progress) {
    authorize(actor, PolicyAction.CHANGE, Optional.of(branch.value()), Optional.empty());
    requireWritable();
    return evidence.call(() -> optimizer.run(branch.value(), List.of(), true, false, progress));
  }

  /** The compaction settings of this handle. */
  public OptimizeSettings optimizeSettings() {
    return optimizer.settings();
  }

  /** Registers a listener told about every Optimize run of this handle, automatic or explicit. */
  public void onOptimize(java.util.function.Consumer<OptimizeRun> listener) {
    optimizer.listen(listener);
  }

  /** Set by the first {@link #close}: a second one gives nothing back to the registry again. */
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  @Override
  public void close() {
    if (owner != null || !closed.compareAndSet(false, true)) {
      return; // a view (pinnedTo): its handle owns what it uses; or closed already (its root given back once)
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
  public Optional<dev.omnigraph.api.lease.LeaseStatus> writerLease() {
    return lease == null ? Optional.empty() : Optional.of(lease.status());
  }

  /**
   * Every write entry: a read-write handle whose process still holds the writer lease.
   *
   * @throws dev.omnigraph.api.LeaseLost when the process lost the lease; nothing was written
   */
  @Override
  void requireWritable() {
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
