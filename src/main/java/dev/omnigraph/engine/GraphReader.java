package dev.omnigraph.engine;

import dev.omnigraph.api.BranchListOutput;
import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SchemaOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.manifest.CommitCursor;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.read.AdjacencyCache;
import dev.omnigraph.read.GraphExport;
import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The read half of a graph handle's public API: schema, branches, snapshots, queries, exports,
 * history, commit diffs and the change feed. Sealed: {@link Omnigraph}, the handle, is its only
 * kind, and callers use that. Every public read asks the authorization gate first (docs/authorization.md);
 * the bodies are {@link GraphReads}'. Branch names and commit ids are taken as {@link BranchName} and
 * {@link CommitId} (a lookup's: {@code existing}), parsed once by the caller; the {@code String}
 * forms parse and delegate.
 */
public abstract sealed class GraphReader permits GraphAdmin {

  final StorageConfig config;
  final StorageAdapter storage;
  final OpenMode mode;
  final GraphManifest manifest;
  /** The accepted schema contract, shared by every handle of the process on this root. */
  final SchemaHolder schemas;
  final DataTables tables;
  /** Settles a failure no type explains (Lance's store failures) by asking the store (see there). */
  final StoreEvidence evidence;
  /** Queries, exports, history and the change feed (bodies; this facade authorizes first). */
  final GraphReads reads;
  /**
   * The authorization gate (docs/authorization.md) every public writer and read asks first,
   * before anything is prepared: a denied call leaves nothing (no sidecar, the same head). Open unless
   * the opener installs one ({@link Omnigraph#gatedBy}).
   */
  volatile PolicyGate policy = PolicyGate.OPEN;

  GraphReader(StorageConfig config, StorageAdapter storage, OpenMode mode, GraphManifest manifest,
      SchemaHolder schemas, DataTables tables, AdjacencyCache adjacency) {
    this.config = config;
    this.storage = storage;
    this.mode = mode;
    this.manifest = manifest;
    this.schemas = schemas;
    this.tables = tables;
    this.evidence = new StoreEvidence(storage);
    this.reads = new GraphReads(config, storage, manifest, tables, adjacency, schemas, evidence);
  }

  /** A view of {@code owner}'s reads that asks {@code gate} (see {@link Omnigraph#pinnedTo}). */
  GraphReader(GraphReader owner, PolicyGate gate) {
    this.config = owner.config;
    this.storage = owner.storage;
    this.mode = owner.mode;
    this.manifest = owner.manifest;
    this.schemas = owner.schemas;
    this.tables = owner.tables;
    this.evidence = owner.evidence;
    this.reads = owner.reads;
    this.policy = gate;
  }

  /** The accepted contract to serve this call with. */
  SchemaContract contract() {
    return schemas.current();
  }

  /**
   * The one authorization check of every public entry (reads, writes, administration), at its head.
   *
   * @throws dev.omnigraph.api.Forbidden when the gate denies {@code actor} the action
   */
  final void authorize(Optional<String> actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    policy.check(actor, action, branch, targetBranch);
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
   * Whether every node and edge type query {@code name} of {@code source} touches is in
   * {@code actor}'s scope of its action ({@code read}, or {@code change} for a {@code mutation}) on
   * some branch: what a stored-query catalog shows the caller (docs/authorization.md, "Per-type
   * scopes"). With no type limit nothing is parsed; under one, a query that does not check against
   * the accepted schema is not shown (its types cannot be known; invoking it answers why).
   */
  public boolean typesInScope(String source, String name, boolean mutation, Optional<String> actor) {
    dev.omnigraph.api.policy.NameScope scope = policy.typeScopeOnAnyBranch(actor,
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
  public boolean branchExists(BranchName name) {
    return name.isMain() || evidence.call(manifest::branches).stream().anyMatch(b -> b.name().equals(name.value()));
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
    return snapshot(BranchName.existing(branch), Optional.empty());
  }

  /** As {@link #snapshot(String)}, parsed ({@link BranchName#existing}). */
  public SnapshotOutput snapshot(String branch, Optional<String> actor) {
    return snapshot(BranchName.existing(branch), actor);
  }

  /**
   * The published state of {@code branch}, for {@code actor} ({@code read} on the branch).
   *
   * @throws NotFound for a branch no one has (a malformed name included), after the caller is authorized
   */
  public SnapshotOutput snapshot(BranchName branch, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.of(branch.value()), Optional.empty());
    return GraphReads.toSnapshot(evidence.call(() -> manifest.state(branch.value())));
  }

  /** The state a commit published (time travel). */
  public SnapshotOutput snapshotAtCommit(String commitId) {
    return snapshotAtCommit(CommitId.existing(commitId), Optional.empty());
  }

  /**
   * The state commit {@code commitId} published, for {@code actor} ({@code read} on the commit's
   * branch, known once the commit is found).
   *
   * @throws NotFound for an id no commit has, whoever asks
   */
  public SnapshotOutput snapshotAtCommit(CommitId commitId, Optional<String> actor) {
    return evidence.call(() -> {
      GraphManifest.CommitState at = manifest.commitState(commitId.value())
          .orElseThrow(() -> new NotFound("commit", commitId.value()));
      authorize(actor, PolicyAction.READ, Optional.of(at.commit().branch()), Optional.empty());
      return GraphReads.toSnapshot(at.state());
    });
  }

  /**
   * Picks up a schema another process applied since this handle read it (a read replica's refresh,
   * docs/lease.md): one GET of {@code __schema_state.json}, and a re-read of the contract only when its
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
  public ReadOutput query(Optional<BranchName> branch, Optional<CommitId> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params) {
    return query(branch, commitId, source, name, params, ReadSettings.fromSystemProperties());
  }

  /**
   * As {@link #query(Optional, Optional, String, String, com.fasterxml.jackson.databind.JsonNode)},
   * with explicit budgets (the service passes its {@code omnigraph.read.*} configuration).
   *
   * @throws dev.omnigraph.api.ReadBudgetExceeded when the read exceeds one of {@code budgets}
   */
  public ReadOutput query(Optional<BranchName> branch, Optional<CommitId> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets) {
    return query(branch, commitId, source, name, params, budgets, Optional.empty());
  }

  /**
   * As {@link #query(Optional, Optional, String, String, com.fasterxml.jackson.databind.JsonNode,
   * ReadSettings)}, for {@code actor}: {@code read} on the branch read (a commit's own branch for time
   * travel, main by default).
   */
  public ReadOutput query(Optional<BranchName> branch, Optional<CommitId> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets, Optional<String> actor) {
    if (branch.isPresent() && commitId.isPresent()) {
      throw new dev.omnigraph.api.InvalidRequest("give a branch or a commit, not both");
    }
    if (commitId.isEmpty()) {
      authorize(actor, PolicyAction.READ, Optional.of(branch.orElse(BranchName.MAIN).value()), Optional.empty());
    }
    return evidence.call(() -> reads.read(policy, branch, commitId, source, name, params, budgets, actor));
  }

  /**
   * Opens one managed Blob cell for reading: {@code property} of the {@code entity} ({@code node} or
   * {@code edge}) {@code type} with {@code id}, at the head of {@code branch} (default main) or at the
   * commit {@code snapshot}, for {@code actor} ({@code read} on that branch and type). Nothing of the
   * payload is read until {@link BlobRead#copyTo}; the caller closes the returned cell.
   *
   * @throws NotFound for an unknown branch or snapshot, no row with {@code id}, or a null cell
   * @throws dev.omnigraph.api.InvalidRequest for both a branch and a snapshot, an unknown entity or
   *     type, or a property that is not a Blob
   */
  public dev.omnigraph.api.BlobRead readBlob(String entity, String type, String id, String property,
      Optional<BranchName> branch, Optional<CommitId> snapshot, Optional<String> actor) {
    if (snapshot.isEmpty()) {
      // A snapshot's branch is known once its commit is found: BlobCells asks then, as a query does.
      authorize(actor, PolicyAction.READ, Optional.of(branch.orElse(BranchName.MAIN).value()), Optional.empty());
    }
    return evidence.call(() -> BlobCells.open(policy, actor, manifest, storage, contract(), tables, entity, type, id,
        property, branch, snapshot));
  }

  /**
   * How read {@code name} of {@code source} would run against the current schema, one line per
   * step, without reading any data ({@code omnigraph query --explain}; docs/query-language.md,
   * "Explain"). Parameters are bound, so the pushed filters show their values.
   *
   * @throws dev.omnigraph.api.InvalidRequest when the query is a mutation
   */
  public List<String> explain(String source, String name, com.fasterxml.jackson.databind.JsonNode params) {
    return evidence.call(() -> reads.explain(source, name, params));
  }

  /**
   * Pins {@code branch}'s (default main) published state now and returns an export of it in the
   * NDJSON load format; rows are read when {@link GraphExport#writeTo} streams them.
   *
   * @param typeNames node and edge types to export; empty: all
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for an unknown type name
   */
  public GraphExport export(Optional<BranchName> branch, List<String> typeNames) {
    return export(branch, typeNames, Optional.empty());
  }

  /** As {@link #export(Optional, List)}, for {@code actor} ({@code export} on the branch). */
  public GraphExport export(Optional<BranchName> branch, List<String> typeNames, Optional<String> actor) {
    BranchName b = branch.orElse(BranchName.MAIN);
    authorize(actor, PolicyAction.EXPORT, Optional.of(b.value()), Optional.empty());
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
    return commits(BranchName.existing(branch), page, Optional.empty());
  }

  /** As {@link #commits(String, CommitPage)}, parsed ({@link BranchName#existing}). */
  public CommitListOutput commits(String branch, CommitPage page, Optional<String> actor) {
    return commits(BranchName.existing(branch), page, actor);
  }

  /** As {@link #commits(String, CommitPage)}, for {@code actor} ({@code read} on the branch). */
  public CommitListOutput commits(BranchName branch, CommitPage page, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.of(branch.value()), Optional.empty());
    Optional<CommitCursor> after = page.cursor().map(CommitCursor::decode);
    return evidence.call(() -> reads.commitPage(branch, page, after));
  }

  /** One commit by id. */
  public CommitOutput commit(String commitId) {
    return commit(CommitId.existing(commitId), Optional.empty());
  }

  /** As {@link #commit(String)}, for {@code actor} ({@code read} without a branch, as the reference). */
  public CommitOutput commit(CommitId commitId, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.empty(), Optional.empty());
    return evidence.call(() -> manifest.findCommit(commitId.value())).map(GraphReads::toOutput)
        .orElseThrow(() -> new NotFound("commit", commitId.value()));
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
    return commitChanges(CommitId.existing(commitId), page, Optional.empty());
  }

  /** As {@link #commitChanges(String, dev.omnigraph.api.ChangesPage)}, parsed ({@link CommitId#existing}). */
  public dev.omnigraph.api.CommitChangesOutput commitChanges(String commitId, dev.omnigraph.api.ChangesPage page,
      Optional<String> actor) {
    return commitChanges(CommitId.existing(commitId), page, actor);
  }

  /** As {@link #commitChanges(String, dev.omnigraph.api.ChangesPage)}, for {@code actor} ({@code read} on the commit's branch). */
  public dev.omnigraph.api.CommitChangesOutput commitChanges(CommitId commitId, dev.omnigraph.api.ChangesPage page,
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
      Optional<String> pageToken, dev.omnigraph.api.ChangesPage filter, Optional<String> actor) {
    return changes(BranchName.existing(branch), cursor, start, pageToken, filter, actor);
  }

  /** As {@link #changes(String, Optional, Optional, Optional, dev.omnigraph.api.ChangesPage, Optional)}, on {@code branch} as parsed. */
  public dev.omnigraph.api.ChangeFeedOutput changes(BranchName branch, Optional<String> cursor, Optional<String> start,
      Optional<String> pageToken, dev.omnigraph.api.ChangesPage filter, Optional<String> actor) {
    authorize(actor, PolicyAction.READ, Optional.of(branch.value()), Optional.empty());
    return reads.changes(policy, branch, cursor, start, pageToken, filter, actor);
  }

  /**
   * The baseline handshake (reference {@code POST /graphs/{id}/changes/baseline}): {@code branch}'s
   * state captured once, as an export of the scope's kinds and types, with the head that state is and
   * the feed cursor that resumes right after it.
   *
   * @param export the rows to stream; empty when the scope selects no type
   */
  public record ChangeBaseline(Optional<dev.omnigraph.api.NdjsonExport> export, String snapshotCommitId, String resumeCursor) {}

  /**
   * @param scope kinds, types and ops the resume cursor is bound to; the snapshot honours kinds and types
   * @throws NotFound for an unknown branch
   * @throws dev.omnigraph.api.InvalidRequest for an unknown type name
   */
  public ChangeBaseline changeBaseline(BranchName branch, dev.omnigraph.api.ChangesPage scope) {
    return changeBaseline(branch, scope, Optional.empty());
  }

  /** As {@link #changeBaseline(BranchName, dev.omnigraph.api.ChangesPage)}, for {@code actor} ({@code export} on the branch, as the reference). */
  public ChangeBaseline changeBaseline(BranchName branch, dev.omnigraph.api.ChangesPage scope, Optional<String> actor) {
    authorize(actor, PolicyAction.EXPORT, Optional.of(branch.value()), Optional.empty());
    return reads.changeBaseline(policy, branch, scope, actor);
  }
}
