package dev.omnigraph.write;

import dev.omnigraph.table.TableRef;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeConflicts;
import dev.omnigraph.api.MergeOutcome;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.merge.ChunkSpec;
import dev.omnigraph.merge.MergeBase;
import dev.omnigraph.merge.MergeLimits;
import dev.omnigraph.merge.MergeMemory;
import dev.omnigraph.merge.MergePlan;
import dev.omnigraph.merge.MergePlanner;
import dev.omnigraph.merge.TableJoin;
import dev.omnigraph.merge.TablePlan;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.WriterKind;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.ChunkBuffer;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The branch-merge attempt (docs/merge.md, "The write"), on the same boundaries as
 * {@link WriteAttempt}: the recovery barrier; source and target captured once each (state and
 * lineage from one capture); merge base and classification outside the gates
 * ({@link MergePlanner}); the merged result validated like any write; then schema → both branch
 * gates → every catalog table gate of both branches, a re-list of recovery intent, the target token
 * revalidated (any change: {@link ReadSetChanged}, never a re-plan) and live HEAD == pin on every
 * existing ref that receives an effect; the v9 BranchMerge sidecar armed with every chain's
 * pre-minted identities before the first ref or commit; the chains committed with zero transparent
 * retries; confirmed; one publish with both parents.
 *
 * <p>Stricter than mutation/load after arm (docs/merge.md, "Recovery of a merge"): any failure once
 * the sidecar is durable is {@link RecoveryRequired}, even a first-chunk rejection before any owned
 * effect — the merge never retries around its armed chain. A merge whose every table is
 * pointer-only has no physical effect and so arms nothing: its publish is its only effect.
 */
public final class MergeAttempt {

  static {
    // The planner's chunk bounds are the keyed writers' transaction bounds (docs/merge.md, "Bounded memory").
    if (MergePlanner.MAX_CHUNK_ROWS != WriteLimits.MAX_KEYED_ROWS
        || MergePlanner.MAX_CHUNK_BYTES != WriteLimits.MAX_KEYED_BYTES) {
      throw new ExceptionInInitializerError("merge chunk bounds differ from the keyed write bounds");
    }
  }

  private final WriterParts parts;

  public MergeAttempt(WriterParts parts) {
    this.parts = java.util.Objects.requireNonNull(parts);
  }

  /**
   * What a merge did.
   *
   * @param commit the published commit (absent for {@code already_up_to_date})
   * @param rowCounts rows each table the merge changed holds afterwards
   * @param chains data transactions committed per table (0 for a pointer or a ref-only fork)
   */
  public record MergeResult(MergeOutcome outcome, Optional<GraphCommit> commit, Map<String, Long> rowCounts,
      Map<String, Integer> chains) {}

  /**
   * Merges the current head of {@code source} into {@code target}.
   *
   * @throws MergeConflicts for conflicts (nothing written)
   * @throws ReadSetChanged when the target (or the source's identity) changed before any effect
   * @throws RecoveryRequired for a relevant pending sidecar, or any failure after the sidecar armed
   * @throws ResourceLimitExceeded for a row or a chain past the write path's bounds (before arm)
   */
  public MergeResult run(dev.omnigraph.api.BranchName source, dev.omnigraph.api.BranchName target, Optional<String> actor) {
    return run(source, target, actor, MergeLimits.PRODUCTION, ProgressListener.NONE);
  }

  /**
   * As {@link #run(dev.omnigraph.api.BranchName, dev.omnigraph.api.BranchName, Optional)}, planned within {@code limits} (tests tighten them to
   * reach each {@link ResourceLimitExceeded} with a small graph; production passes
   * {@link MergeLimits#PRODUCTION}); {@code progress} is told as each table's effect begins, with
   * the rows its chain of transactions writes.
   */
  public MergeResult run(dev.omnigraph.api.BranchName from, dev.omnigraph.api.BranchName into, Optional<String> actor, MergeLimits limits,
      ProgressListener progress) {
    String source = from.value();
    String target = into.value();
    if (source.equals(target)) {
      throw new InvalidRequest("a branch merge needs distinct source and target branches (both '" + source + "')");
    }
    // Step 1: converge or refuse relevant recovery intent, then one coherent capture per side.
    parts.recovery().heal(target);
    parts.recovery().heal(source);
    BranchAuthority sourceAuth = parts.manifest().capture(source);
    BranchAuthority targetAuth = parts.manifest().capture(target);
    String sourceHead = sourceAuth.head().orElseThrow(() -> new Conflict("source branch '" + source
        + "' has no commit"));
    String targetHead = targetAuth.head().orElseThrow(() -> new Conflict("target branch '" + target
        + "' has no commit"));
    if (sourceHead.equals(targetHead)) {
      return upToDate();
    }
    // Cheapest first. Every head row a branch's state shows (its own, and each ancestor branch's as
    // of a fork) names an ancestor of that branch's head, and commit ids are never reused: the
    // target head among the source's rows proves a fast forward, the source head among the
    // target's proves nothing to merge, both without reading any lineage.
    if (targetAuth.state().heads().containsValue(sourceHead)) {
      return upToDate();
    }
    boolean fastForward = sourceAuth.state().heads().containsValue(targetHead);
    GraphCommit base = null;
    if (!fastForward) {
      base = mergeBase(sourceAuth, targetAuth, sourceHead, targetHead).orElseThrow(() -> new Conflict("branches '"
          + source + "' and '" + target + "' share no commit: nothing to merge against"));
      if (base.id().equals(sourceHead)) {
        return upToDate();
      }
      fastForward = base.id().equals(targetHead);
    }
    // A fast-forward's base is the captured target itself: re-reading history could only give the
    // same state, possibly at an older physical version.
    ManifestState baseState = fastForward ? targetAuth.state() : parts.manifest().stateAt(base.branch(), base.manifestVersion());
    Failpoints.hit(Failpoint.MERGE_AFTER_CAPTURE);

    // Step 2: classify and validate outside the gates.
    MergeValidator validator = new MergeValidator(parts.accepted().get(), parts.tables(), targetAuth.state());
    MergePlan plan = new MergePlanner(parts.tables(), validator, limits).plan(baseState, sourceAuth.state(), targetAuth.state(),
        target, fastForward);
    List<MergeConflict> conflicts = new ArrayList<>(plan.conflicts());
    if (conflicts.isEmpty()) {
      conflicts.addAll(validator.validate(plan));
    }
    if (!conflicts.isEmpty()) {
      throw new MergeConflicts(conflicts);
    }
    Map<TableKey, List<Chunk>> chains = new LinkedHashMap<>();
    for (TablePlan t : plan.tables()) {
      chains.put(t.tableKey(), t.action() == TablePlan.Action.APPLY ? chunks(t) : List.of());
    }

    // Step 3: the all-catalog envelope of both branches, then re-list, revalidate, HEAD == pin.
    List<String> tableGates = new ArrayList<>();
    for (TableKey key : parts.accepted().get().catalog().tableKeys()) {
      tableGates.add(GateManager.tableGate(key, source));
      tableGates.add(GateManager.tableGate(key, target));
    }
    Optional<String> targetNative = target.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(target);
    try (GateManager.Held held = parts.gates().acquire(List.of(source, target), tableGates)) {
      Set<TableRef> refs = plan.tables().stream().filter(TablePlan::physical)
          .map(t -> TableRef.of(t.target().location(), t.publishedBranch(targetNative)))
          .collect(Collectors.toSet());
      // Any unresolved sidecar on either branch, or on a ref this merge writes, blocks it.
      parts.template().barrier(p -> p.concerns(target, refs) || p.authority().branch().equals(source), "merging");
      BranchAuthority verified = revalidate(sourceAuth, targetAuth);
      for (TablePlan t : plan.tables()) {
        drift(t, target);
      }
      return parts.template().commit(new Plan(plan, chains, verified, targetAuth, sourceAuth, sourceHead, targetNative, actor,
          progress));
    }
  }

  /**
   * The merge base when the head rows proved no fast forward, cheapest first: the fork point of
   * branches that merged nothing since they diverged; the target head found in the source's lineage
   * read newest first back to it; else both lineages whole ({@link MergeBase}).
   */
  private Optional<GraphCommit> mergeBase(BranchAuthority sourceAuth, BranchAuthority targetAuth, String sourceHead,
      String targetHead) {
    Optional<GraphCommit> fork = forkPointBase(sourceAuth, targetAuth, sourceHead, targetHead);
    if (fork.isPresent()) {
      return fork;
    }
    List<GraphCommit> sourceLineage = new ArrayList<>();
    parts.manifest().lineage(sourceAuth, c -> sourceLineage.add(c) && !c.id().equals(targetHead));
    GraphCommit last = sourceLineage.isEmpty() ? null : sourceLineage.get(sourceLineage.size() - 1);
    if (last != null && last.id().equals(targetHead)) {
      return Optional.of(last);
    }
    return MergeBase.find(sourceLineage, parts.manifest().history(targetAuth), sourceHead, targetHead);
  }

  /**
   * The merge base of two branches that diverged from one fork point and merged nothing since: the
   * target's head as the source's state shows it (the target's head when the source forked, an
   * ancestor of both heads), proven by reading each lineage newest first back to it only, along
   * parent links with no merge commit on the way. Then the two sides share exactly that commit and
   * its ancestors, so it is the best base. Empty (the caller reads both lineages whole) when the
   * source did not fork from the target or either side merged since.
   */
  private Optional<GraphCommit> forkPointBase(BranchAuthority sourceAuth, BranchAuthority targetAuth,
      String sourceHead, String targetHead) {
    String fork = sourceAuth.state().heads().get(targetAuth.branch());
    if (fork == null) {
      return Optional.empty();
    }
    Optional<GraphCommit> fromSource = chainBackTo(sourceAuth, sourceHead, fork);
    if (fromSource.isEmpty() || chainBackTo(targetAuth, targetHead, fork).isEmpty()) {
      return Optional.empty();
    }
    return fromSource;
  }

  /**
   * Reads {@code authority}'s lineage newest first, expecting {@code head} and then each commit's
   * parent in turn until {@code fork}; returns the fork's commit, or empty at the first row that is
   * not the expected one, a merge commit before the fork, or the lineage's end.
   */
  private Optional<GraphCommit> chainBackTo(BranchAuthority authority, String head, String fork) {
    String[] expected = {head};
    GraphCommit[] found = {null};
    parts.manifest().lineage(authority, c -> {
      if (!c.id().equals(expected[0])) {
        return false;
      }
      if (c.id().equals(fork)) {
        found[0] = c;
        return false;
      }
      if (c.mergedParent().isPresent() || c.parent().isEmpty()) {
        return false;
      }
      expected[0] = c.parent().get();
      return true;
    });
    return Optional.ofNullable(found[0]);
  }

  /**
   * The merge's plan: each physical table's pre-minted chain (or ref fork), the arm overlapping the
   * first chunk's staging; no effect-free finalizer once armed (stricter than mutation/load: see
   * the class comment).
   */
  private final class Plan implements CommitPlan<Map<TableKey, Long>, MergeResult> {
    private final MergePlan plan;
    private final Map<TableKey, List<Chunk>> chains;
    private final BranchAuthority verified;
    private final BranchAuthority targetAuth;
    private final String sourceHead;
    private final Optional<String> targetNative;
    private final Optional<String> actor;
    private final ProgressListener progress;
    private final List<TablePlan> physical;
    private final String commitId = Ulid.next();
    private final long createdAt = dev.omnigraph.util.Micros.now();
    private final Optional<RecoverySidecar> sidecar;

    Plan(MergePlan plan, Map<TableKey, List<Chunk>> chains, BranchAuthority verified, BranchAuthority targetAuth,
        BranchAuthority sourceAuth, String sourceHead, Optional<String> targetNative, Optional<String> actor,
        ProgressListener progress) {
      this.plan = plan;
      this.chains = chains;
      this.verified = verified;
      this.targetAuth = targetAuth;
      this.sourceHead = sourceHead;
      this.targetNative = targetNative;
      this.actor = actor;
      this.progress = progress;
      this.physical = plan.tables().stream().filter(TablePlan::physical).toList();
      // A merge whose every table is pointer-only has no physical effect and so arms nothing.
      this.sidecar = physical.isEmpty() ? Optional.empty() : Optional.of(MergeAttempt.this.sidecar(plan, chains,
          targetAuth, sourceAuth, sourceHead, targetNative, actor, commitId, createdAt));
    }

    /** The arm's durable write overlaps the first chunk's staging (reclaimable files, no effect). */
    @Override
    public Header header() {
      return new Header(Failpoint.WriterPhases.MERGE, "branch merge into " + targetAuth.branch(), sidecar, Optional.of(verified));
    }

    @Override
    public boolean armsInBackground() {
      return true;
    }

    @Override
    public boolean finalizesEffectFree() {
      return false;
    }

    /** The version each physical table's pin publishes. */
    @Override
    public Map<TableKey, Long> effect(CommitTemplate.Armed armed) {
      Map<TableKey, Long> finalVersions = new LinkedHashMap<>();
      for (TablePlan t : physical) {
        progress.step(t.tableKey().toString(), finalVersions.size(), physical.size(),
            chains.get(t.tableKey()).stream().mapToLong(Chunk::rows).sum());
        finalVersions.put(t.tableKey(), MergeAttempt.this.effect(t, chains.get(t.tableKey()), targetAuth.branch(),
            targetNative, armed));
      }
      return finalVersions;
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, Map<TableKey, Long> finalVersions) {
      List<TableVersionUpdate> updates = new ArrayList<>();
      for (TablePlan t : plan.tables()) {
        long version = switch (t.action()) {
          case POINTER -> t.source().version();
          case FORK -> t.source().version();
          case APPLY -> finalVersions.get(t.tableKey());
        };
        updates.add(new TableVersionUpdate(t.tableKey(), t.target().identity(), t.target().location(), version,
            t.publishedBranch(targetNative), t.rowCountAfter()));
      }
      return new ManifestBatchPublisher.Intent(targetAuth.branch(), targetAuth.nativeIdentity(),
          Optional.of(targetAuth.head().orElseThrow()), List.of(), updates, commitId, actor, Optional.of(sourceHead),
          createdAt);
    }

    @Override
    public MergeResult result(Map<TableKey, Long> finalVersions, Optional<ManifestBatchPublisher.Published> published) {
      Map<String, Long> rowCounts = new LinkedHashMap<>();
      Map<String, Integer> chainLengths = new LinkedHashMap<>();
      for (TablePlan t : plan.tables()) {
        rowCounts.put(t.tableKey().toString(), t.rowCountAfter());
        chainLengths.put(t.tableKey().toString(), chains.get(t.tableKey()).size());
      }
      return new MergeResult(plan.outcome(), Optional.of(published.orElseThrow().commit()), rowCounts, chainLengths);
    }
  }

  /** One table's physical effect; returns the version its pin publishes. */
  private long effect(TablePlan t, List<Chunk> chain, String target, Optional<String> targetNative,
      CommitTemplate.Armed armed) {
    String location = t.target().location();
    if (t.action() == TablePlan.Action.FORK) {
      armed.await();
      parts.tables().branches().create(TableAt.of(location, t.source().nativeBranch(), t.source().version()), target);
      Failpoints.hit(Failpoint.MERGE_AFTER_REF_CREATE);
      return t.source().version();
    }
    // The branch the chain commits on: the target's own once this merge forks it.
    TableRef dest = TableRef.of(location, t.publishedBranch(targetNative));
    long version = t.target().version();
    if (t.firstTouch()) {
      armed.await();
      parts.tables().branches().create(TableAt.of(location, t.target().nativeBranch(), version), target);
      Failpoints.hit(Failpoint.MERGE_AFTER_REF_CREATE);
    }
    Schema arrow = Effects.schemaOf(parts.accepted().get().catalog(), t.tableKey());
    boolean certify = t.tableKey().isNode();
    if (t.delta().proven()) {
      return provenEffect(t, chain, dest.at(version), arrow, armed);
    }
    // One ordered join per chunk kind present, in the chain's order (inserts, upserts, deletes):
    // each buffers only its own kind's rows, at most one chunk, staged at the boundary the planner
    // fixed before arm. The snapshots are immutable, so the join yields what the planner saw.
    // Joined exactly as the planner joined (Blob cells matched the same way), so it decides alike.
    boolean blobs = Effects.holdsBlobs(parts.accepted().get().catalog(), t.tableKey());
    long[] at = {version};
    int[] next = {0};
    for (ChunkSpec.Kind kind : ChunkSpec.Kind.values()) {
      if (chain.stream().noneMatch(c -> c.kind == kind)) {
        continue;
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      long[] bytes = {0};
      Runnable flushIfFull = () -> {
        Chunk c = chain.get(next[0]);
        if (c.kind != kind) {
          throw new IllegalStateException(t.tableKey() + ": the join produced a " + kind.wire() + " row where chunk "
              + c.uuid + " is " + c.kind.wire());
        }
        if (rows.size() + ids.size() == c.rows) {
          MergeMemory.chunk(c.rows, bytes[0]);
          // The merged rows are the source's: its committed Blob cells are read there, their bytes
          // charged to this chunk's 32 MiB when the planner cut it.
          BlobAdmission.carry(parts.tables(), t.source().at(), rows);
          at[0] = commitChunk(t, c, dest.at(at[0]), arrow, certify, rows, ids, armed);
          next[0]++;
          rows.clear();
          ids.clear();
          bytes[0] = 0;
        }
      };
      TableJoin.Visitor collect = new TableJoin.Visitor() {
        @Override
        public void insert(Map<String, Object> row, long b) {
          if (kind == ChunkSpec.Kind.STRICT_INSERT) {
            rows.add(row);
            bytes[0] += b + dev.omnigraph.table.StoredBlob.carriedBytes(row);
            flushIfFull.run();
          }
        }

        @Override
        public void update(Map<String, Object> row, long b) {
          if (kind == ChunkSpec.Kind.UPSERT) {
            rows.add(row);
            bytes[0] += b + dev.omnigraph.table.StoredBlob.carriedBytes(row);
            flushIfFull.run();
          }
        }

        @Override
        public void delete(String id) {
          if (kind == ChunkSpec.Kind.DELETE) {
            ids.add(id);
            flushIfFull.run();
          }
        }

        @Override
        public void conflict(MergeConflict conflict) {
          throw new IllegalStateException(t.tableKey() + ": the effect's join met a conflict the plan did not: "
              + conflict.message());
        }
      };
      TableJoin.run(parts.tables(), t.tableKey(), t.base(), t.source(), t.target(), List.of(), blobs, collect);
      if (!rows.isEmpty() || !ids.isEmpty()) {
        throw new IllegalStateException(t.tableKey() + ": " + (rows.size() + ids.size()) + " " + kind.wire()
            + " rows left after the planned chunks");
      }
    }
    if (next[0] != chain.size()) {
      throw new IllegalStateException(t.tableKey() + ": the join produced " + next[0] + " of " + chain.size()
          + " planned chunks");
    }
    return at[0];
  }

  /**
   * The certificate-proven table's chain: the source's new fragments streamed once more in the
   * planner's order (no target join: the certificates proved absence), each row copied as Arrow
   * into one reused chunk buffer and staged, re-certified, at exactly the boundary fixed before
   * arm. No row becomes a Java map.
   */
  private long provenEffect(TablePlan t, List<Chunk> chain, TableAt start, Schema arrow,
      CommitTemplate.Armed armed) {
    long[] at = {start.version()};
    int[] next = {0};
    try (ChunkBuffer buffer = new ChunkBuffer(arrow)) {
      TableJoin.runProven(parts.tables(), t.source(), t.delta().provenFragments(), rows -> {
        if (next[0] == chain.size()) {
          throw new IllegalStateException(t.tableKey() + ": the proven rows outnumber the " + chain.size()
              + " planned chunks");
        }
        Chunk c = chain.get(next[0]);
        if (c.kind != ChunkSpec.Kind.STRICT_INSERT) {
          throw new IllegalStateException(t.tableKey() + ": proven chunk " + c.uuid + " is " + c.kind.wire());
        }
        buffer.append(rows);
        if (buffer.rows() == c.rows) {
          MergeMemory.chunk(c.rows, buffer.bytes());
          at[0] = commitStaged(t, c, parts.tables().staging().stageInsert(start.ref().at(at[0]), buffer, true, c.uuid), at[0], armed);
          next[0]++;
          buffer.clear();
        }
      });
      if (buffer.rows() > 0 || next[0] != chain.size()) {
        throw new IllegalStateException(t.tableKey() + ": the proven rows filled " + next[0] + " of " + chain.size()
            + " planned chunks, " + buffer.rows() + " rows left over");
      }
    }
    return at[0];
  }

  /** Stages and commits one pre-minted chunk at exactly {@code at}; returns the version it made. */
  private long commitChunk(TablePlan t, Chunk c, TableAt at, Schema arrow, boolean certify,
      List<Map<String, Object>> rows, List<String> ids, CommitTemplate.Armed armed) {
    StagedWrite staged = switch (c.kind) {
      case STRICT_INSERT -> parts.tables().staging().stageInsert(at, arrow, rows, certify, c.uuid);
      case UPSERT -> parts.tables().staging().stageUpsert(at, arrow, rows, c.uuid);
      case DELETE -> parts.tables().staging().stageDeleteIds(at, ids, c.uuid);
    };
    return commitStaged(t, c, staged, at.version(), armed);
  }

  /** Commits one staged chunk, which must land at exactly {@code version + 1}; returns that version. */
  private long commitStaged(TablePlan t, Chunk c, StagedWrite staged, long version, CommitTemplate.Armed armed) {
    if (staged.isEmpty()) {
      throw new IllegalStateException("chunk " + c.uuid + " of " + t.tableKey() + " staged nothing at version "
          + version + ": the table is not what the merge planned on");
    }
    armed.await();
    CommitOutcome outcome = parts.tables().commit(staged);
    if (outcome.kind() != CommitOutcome.Kind.LANDED || outcome.version() != version + 1) {
      throw new IllegalStateException("chunk " + c.uuid + " of " + t.tableKey() + " did not land at version "
          + (version + 1) + ": " + outcome.detail());
    }
    Failpoints.hit(Failpoint.MERGE_AFTER_CHUNK_COMMIT);
    return version + 1;
  }

  /** A pre-minted chunk transaction: its kind, planned row count and identity. */
  private record Chunk(ChunkSpec.Kind kind, int rows, String uuid) {
    String wire() {
      return kind.wire();
    }
  }

  /**
   * The table's ordered chain as the planner bounded it (strict inserts, then upserts, then exact-id
   * deletes, each at most {@value MergePlanner#MAX_CHUNK_ROWS} rows and
   * {@value MergePlanner#MAX_CHUNK_BYTES} measured bytes), every identity pre-minted here, before
   * the sidecar.
   */
  private static List<Chunk> chunks(TablePlan t) {
    return t.delta().chain().stream().map(c -> new Chunk(c.kind(), c.rows(), UUID.randomUUID().toString())).toList();
  }

  private RecoverySidecar sidecar(MergePlan plan, Map<TableKey, List<Chunk>> chains, BranchAuthority targetAuth,
      BranchAuthority sourceAuth, String sourceHead, Optional<String> targetNative, Optional<String> actor,
      String commitId, long createdAt) {
    List<RecoverySidecar.TableIntent> intents = new ArrayList<>();
    Map<TableKey, List<RecoverySidecar.ChainStep>> steps = new LinkedHashMap<>();
    List<RecoverySidecar.PointerPin> pointers = new ArrayList<>();
    for (TablePlan t : plan.tables()) {
      TablePin pin = t.target();
      Optional<String> ref = t.publishedBranch(targetNative);
      if (t.action() == TablePlan.Action.POINTER) {
        pointers.add(new RecoverySidecar.PointerPin(t.tableKey(), pin.identity().stableTableId(),
            pin.identity().incarnationId(), pin.location(), ref.orElse(null), t.source().version(), t.rowCountAfter()));
        continue;
      }
      List<Chunk> chain = chains.get(t.tableKey());
      long expected = t.action() == TablePlan.Action.FORK ? t.source().version() : pin.version();
      List<RecoverySidecar.ChainStep> tableSteps = new ArrayList<>();
      for (int i = 0; i < chain.size(); i++) {
        tableSteps.add(new RecoverySidecar.ChainStep(chain.get(i).wire(), expected + i, chain.get(i).uuid,
            chain.get(i).rows()));
      }
      steps.put(t.tableKey(), tableSteps);
      boolean firstTouch = t.action() == TablePlan.Action.FORK || t.firstTouch();
      Optional<String> from = t.action() == TablePlan.Action.FORK ? t.source().nativeBranch() : pin.nativeBranch();
      intents.add(new RecoverySidecar.TableIntent(t.tableKey(), pin.identity().stableTableId(),
          pin.identity().incarnationId(), pin.location(), ref.orElse(null), expected, expected,
          chain.isEmpty() ? "" : chain.get(0).uuid, expected + chain.size(), t.rowCountAfter(), firstTouch,
          firstTouch ? from.orElse(null) : null, null));
    }
    Optional<String> head = targetAuth.head();
    return new RecoverySidecar(new WriterKind.BranchMerge(new RecoverySidecar.MergePayload(sourceAuth.branch(),
            sourceAuth.nativeIdentity().orElse(null), sourceHead, steps, pointers)),
        Ulid.next(), actor.orElse(null),
        new RecoverySidecar.Authority(targetAuth.branch(), targetAuth.nativeIdentity().orElse(null), head.orElse(null),
            parts.accepted().get().identity()),
        intents, RecoverySidecar.State.ARMED,
        new RecoverySidecar.Lineage(commitId, head.orElse(null), createdAt, Ulid.next()), createdAt);
  }

  /**
   * The target token must be exactly as captured (a target change is ReadSetChanged before
   * effects, never a re-plan); the source may have advanced (the captured commit is merged),
   * but its ref must be the captured incarnation, since the plan reads its pinned versions.
   */
  private BranchAuthority revalidate(BranchAuthority sourceAuth, BranchAuthority targetAuth) {
    BranchAuthority now = parts.manifest().recapture(targetAuth);
    try {
      CommitTemplate.revalidate(now, targetAuth.token(parts.accepted().get().identity()), Optional.empty(),
          parts.liveSchemaIdentity().get());
    } catch (ReadSetChanged moved) {
      throw moved.asFinal(); // a merge never re-plans
    }
    BranchAuthority source = parts.manifest().recapture(sourceAuth);
    if (!source.nativeIdentity().equals(sourceAuth.nativeIdentity())) {
      throw new ReadSetChanged(new dev.omnigraph.api.ReadSetMember.BranchIdentity(sourceAuth.branch()), sourceAuth.nativeIdentity(),
          source.nativeIdentity());
    }
    return now;
  }

  /** Live HEAD == pin on every existing ref that receives a commit; a ref to create must not exist. */
  private void drift(TablePlan t, String target) {
    if (t.action() == TablePlan.Action.POINTER) {
      return;
    }
    boolean creates = t.action() == TablePlan.Action.FORK || t.firstTouch();
    Optional<UncoveredDrift> drift = parts.template().drift(t.tableKey(),
        creates ? TableRef.branch(t.target().location(), target).at(t.target().version()) : t.target().at(),
        creates);
    if (drift.isPresent()) {
      throw drift.get();
    }
  }

  private static MergeResult upToDate() {
    return new MergeResult(MergeOutcome.ALREADY_UP_TO_DATE, Optional.empty(), Map.of(), Map.of());
  }

}
