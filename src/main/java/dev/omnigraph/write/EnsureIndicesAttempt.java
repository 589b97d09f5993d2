package dev.omnigraph.write;

import dev.omnigraph.table.TableRef;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.ReadSetMember;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.recovery.EnsureIndicesRecovery;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.WriterKind;
import dev.omnigraph.schema.IndexKind;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.IndexSpec;
import dev.omnigraph.table.NoTextToIndex;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableIndexState;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The EnsureIndices writer (docs/indexes-and-search.md, "Building indexes: index ensure"; its
 * sidecar: docs/recovery.md, "EnsureIndices sidecars"): builds every
 * index the accepted schema declares ({@link IndexKind#declared}) that a table of one graph branch
 * lacks, and publishes the tables' new versions as one graph commit.
 *
 * <ol>
 *   <li><b>Barrier</b>: the roll-forward-only recovery heal of the branch, before anything is
 *       planned: a confirmed predecessor whose captured authority holds is completed first; one that
 *       needs compensation (a restore, an owned ref to remove) answers {@link RecoveryRequired} and
 *       nothing is built.
 *   <li><b>Plan</b> from one manifest capture, per table at its pin (an inherited table at its
 *       exact inherited version, never its owner's newer head): the declared indexes it lacks. A
 *       table with no row gets none; a vector column with no non-null vector is reported pending,
 *       never a failure. A table whose pin lives on the branch's own Lance ref is built now, outside
 *       the gates: every missing index into one staged {@code CreateIndex} with a pre-minted uuid
 *       (abandoned if the plan loses, its files garbage). A table the branch still inherits
 *       is forked only if it has work (first touch); with no work nothing at all is written.
 *   <li><b>Gates</b> schema → branch → sorted tables of the work; re-list sidecars (a pending one
 *       on the branch or these refs: {@link RecoveryRequired}); the captured authority, the accepted
 *       schema, live HEAD == pin of every own table and the absence of every first-touch ref
 *       revalidated ({@link UncoveredDrift} for drift). A moved authority before any effect re-plans
 *       (bounded), as ensure is idempotent.
 *   <li><b>Arm</b> the v9 sidecar ({@value WriterKind.EnsureIndices#WIRE}: authority, fixed
 *       lineage and rollback id, one pre-minted transaction per table, the index work), then per
 *       table: create the first-touch ref and stage its batch on it; commit with zero retries;
 *       require exactly our transaction at read version + 1.
 *   <li><b>Confirm</b> every first-touch ref's identity and the complete table-pointer delta
 *       ({@code effects_confirmed}), <b>publish</b> it once with the exact graph head, delete the
 *       sidecar.
 * </ol>
 * After the arm there is no transparent re-plan: an effect-free loss (nothing landed, no ref made)
 * retires the sidecar and answers {@link ReadSetChanged}; anything else is {@link RecoveryRequired}
 * with the sidecar kept ({@code EnsureIndicesRecovery}).
 *
 * <p>Mutation, load, merge and schema apply never build these indexes: an index is derived state,
 * built here (reads stay exact without it).
 */
public final class EnsureIndicesAttempt {

  /** What a vector column without a non-null vector is reported with. */
  public static final String UNTRAINABLE = "no non-null vector to train the vector index on yet";

  /** What a full-text column without a word to index is reported with (the reference's logic tests). */
  public static final String NO_TEXT = "no text to build the full-text index from yet";

  /** A table's index work, done or planned. */
  public record TableWork(TableKey tableKey, Optional<String> nativeBranch, long fromVersion, long toVersion,
      boolean firstTouch, List<IndexSpec> indexes) {}

  /** A declared index not built, and why. */
  public record Pending(TableKey tableKey, String column, String reason) {}

  /**
   * What a run did.
   *
   * @param branch the graph branch
   * @param built the tables that got indexes (empty: nothing to do)
   * @param pending declared indexes that could not be built yet
   * @param commit the published commit; empty when nothing was built
   * @param manifestVersion the branch's manifest version after the run
   */
  public record Result(String branch, List<TableWork> built, List<Pending> pending, Optional<GraphCommit> commit,
      long manifestVersion) {

    /** The answer of every front end. */
    public dev.omnigraph.api.EnsureIndicesOutput output(String uri) {
      List<dev.omnigraph.api.EnsureIndicesOutput.Table> tables = built.stream()
          .map(t -> new dev.omnigraph.api.EnsureIndicesOutput.Table(t.tableKey().toString(), t.nativeBranch().orElse(null),
              t.fromVersion(), t.toVersion(), t.firstTouch(), t.indexes().stream()
                  .map(i -> new dev.omnigraph.api.EnsureIndicesOutput.Index(i.column(),
                      i.kind().name().toLowerCase(Locale.ROOT), i.name())).toList()))
          .toList();
      List<dev.omnigraph.api.EnsureIndicesOutput.Pending> waiting = pending.stream()
          .map(p -> new dev.omnigraph.api.EnsureIndicesOutput.Pending(p.tableKey().toString(), p.column(), p.reason())).toList();
      return new dev.omnigraph.api.EnsureIndicesOutput(uri, branch, commit.isPresent(),
          commit.map(GraphCommit::id).orElse(null), manifestVersion, tables, waiting);
    }
  }

  private final WriterParts parts;

  public EnsureIndicesAttempt(WriterParts parts) {
    this.parts = Objects.requireNonNull(parts);
  }

  /**
   * Builds the missing declared indexes of branch {@code on}; see the class comment. {@code progress}
   * is told as each table is planned (and, when the branch owns it, its indexes built); a re-planned
   * attempt starts again from the first table.
   *
   * @throws dev.omnigraph.api.NotFound for an unknown branch
   * @throws RecoveryRequired for a relevant pending sidecar, or any failure after the arm
   * @throws UncoveredDrift when a table's live HEAD is not its pin (nothing written)
   * @throws ReadSetChanged when the authority kept moving before any effect
   */
  public Result run(dev.omnigraph.api.BranchName on, Optional<String> actor, ProgressListener progress) {
    String branch = on.value();
    // Ensure is idempotent: any effect-free authority movement re-plans.
    return CommitTemplate.reprepared("ensure_indices on " + branch, moved -> true,
        attempt -> once(branch, actor, progress));
  }

  /** One table's planned work. */
  private static final class Work {
    final TablePin pin;
    final Optional<String> target;
    final boolean firstTouch;
    final List<IndexSpec> specs;
    final Map<String, Long> vectors;
    final String uuid;
    StagedWrite staged;

    Work(TablePin pin, Optional<String> target, boolean firstTouch, List<IndexSpec> specs, Map<String, Long> vectors,
        String uuid) {
      this.pin = pin;
      this.target = target;
      this.firstTouch = firstTouch;
      this.specs = specs;
      this.vectors = vectors;
      this.uuid = uuid;
    }

    TableKey key() {
      return pin.tableKey();
    }
  }

  private Result once(String branch, Optional<String> actor, ProgressListener progress) {
    // 1. Barrier: settle what needs no restore; a rollback-class intent refuses before any build.
    parts.recovery().heal(branch);
    SchemaIr schema = parts.accepted().get();
    BranchAuthority authority = parts.manifest().capture(branch);
    AuthorityToken token = authority.token(schema.identity());
    ManifestState state = authority.state();
    Optional<String> target = branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch);

    // 2. Plan (and build the own-ref batches) outside the gates.
    List<Work> work = new ArrayList<>();
    List<Pending> pending = new ArrayList<>();
    List<TableKey> keys = schema.catalog().tableKeys().stream().filter(state.tables()::containsKey).toList();
    for (int i = 0; i < keys.size(); i++) {
      TableKey key = keys.get(i);
      TablePin pin = state.tables().get(key);
      Map<String, IndexKind> declared = IndexKind.declared(schema.catalog(), key);
      List<String> vectorColumns = declared.entrySet().stream().filter(e -> e.getValue() == IndexKind.VECTOR)
          .map(Map.Entry::getKey).toList();
      List<String> textColumns = declared.entrySet().stream().filter(e -> e.getValue() == IndexKind.INVERTED)
          .map(Map.Entry::getKey).toList();
      TableIndexState at = parts.tables().indexes().indexState(pin.at(), vectorColumns, textColumns);
      List<IndexSpec> missing = new ArrayList<>();
      for (Map.Entry<String, IndexKind> d : declared.entrySet()) {
        IndexSpec spec = new IndexSpec(d.getKey(), d.getValue());
        if (at.has(spec.name())) {
          continue;
        }
        if (d.getValue() == IndexKind.VECTOR && at.vectors().getOrDefault(d.getKey(), 0L) == 0) {
          pending.add(new Pending(key, d.getKey(), UNTRAINABLE));
        } else if (d.getValue() == IndexKind.INVERTED && at.rows() > 0 && at.texts().getOrDefault(d.getKey(), 0L) == 0) {
          // the reference's logic tests: lance-core 7.0.0 cannot build a full-text index holding no token, and a
          // table whose text is all null or empty (say one row without it) has none.
          pending.add(new Pending(key, d.getKey(), NO_TEXT));
        } else if (at.rows() > 0) {
          missing.add(spec);
        }
      }
      boolean firstTouch = !pin.nativeBranch().equals(target);
      // Planning builds the indexes of the branch's own tables (the slow part): those are its rows.
      progress.step(key.toString(), i, keys.size(), missing.isEmpty() || firstTouch ? 0 : at.rows());
      String uuid = UUID.randomUUID().toString();
      StagedWrite staged = null;
      while (!missing.isEmpty() && !firstTouch && staged == null) {
        try {
          staged = parts.tables().indexes().stageCreateIndices(pin.at(), missing, at.vectors(), uuid);
        } catch (NoTextToIndex e) {
          // Text, but no word the tokenizer keeps (only stop words or punctuation): the planner's
          // count cannot see that, the build can. Pending as above; the other indexes are built.
          missing.removeIf(spec -> spec.kind() == IndexKind.INVERTED && spec.column().equals(e.column()));
          pending.add(new Pending(key, e.column(), NO_TEXT));
        }
      }
      if (missing.isEmpty()) {
        continue;
      }
      Work w = new Work(pin, target, firstTouch, List.copyOf(missing), at.vectors(), uuid);
      w.staged = staged;
      work.add(w);
    }
    Failpoints.hit(Failpoint.ENSURE_INDICES_AFTER_PLAN);
    if (work.isEmpty()) {
      return new Result(branch, List.of(), pending, Optional.empty(), state.manifestVersion());
    }

    // 3. Gates, re-list, revalidate.
    List<String> tableGates = work.stream().map(w -> GateManager.tableGate(w.key(), branch)).toList();
    try (GateManager.Held held = parts.gates().acquire(List.of(branch), tableGates)) {
      BranchAuthority verified = recheck(branch, authority, token, work);
      return parts.template().commit(new Plan(branch, token, verified, work, pending, actor));
    }
  }

  private BranchAuthority recheck(String branch, BranchAuthority captured, AuthorityToken token, List<Work> work) {
    Set<TableRef> refs = new java.util.HashSet<>();
    work.forEach(w -> refs.add(TableRef.of(w.pin.location(), w.target)));
    parts.template().barrier(s -> s.concerns(branch, refs), "building indexes");
    BranchAuthority now = parts.manifest().recapture(captured);
    CommitTemplate.revalidate(now, token, Optional.empty(), parts.liveSchemaIdentity().get());
    for (Work w : work) {
      TablePin pin = now.state().tables().get(w.key());
      if (pin == null || !pin.identity().equals(w.pin.identity()) || pin.version() != w.pin.version()
          || !pin.nativeBranch().equals(w.pin.nativeBranch())) {
        throw ReadSetChanged.replannable(new ReadSetMember.Table(w.key().toString()), Optional.of(w.pin.version() + ""),
            Optional.ofNullable(pin).map(p -> p.version() + ""));
      }
      Optional<UncoveredDrift> drift = parts.template().drift(w.key(),
          w.firstTouch ? TableRef.of(w.pin.location(), w.target).at(w.pin.version()) : w.pin.at(), w.firstTouch);
      if (drift.isPresent()) {
        throw drift.get();
      }
    }
    return now;
  }

  /** Index ensure's plan: per table, create a first-touch ref and commit its one staged index batch. */
  private final class Plan implements CommitPlan<List<TableWork>, Result> {
    private final String branch;
    private final BranchAuthority verified;
    private final List<Work> work;
    private final List<Pending> pending;
    private final RecoverySidecar sidecar;

    Plan(String branch, AuthorityToken token, BranchAuthority verified, List<Work> work, List<Pending> pending,
        Optional<String> actor) {
      this.branch = branch;
      this.verified = verified;
      this.work = work;
      this.pending = pending;
      Optional<String> head = token.graphHead();
      long createdAt = dev.omnigraph.util.Micros.now();
      Map<TableKey, List<RecoverySidecar.IndexEntry>> indexes = new TreeMap<>();
      List<RecoverySidecar.TableIntent> intents = new ArrayList<>();
      for (Work w : work) {
        indexes.put(w.key(), w.specs.stream().map(s -> new RecoverySidecar.IndexEntry(s.column(),
            s.kind().name().toLowerCase(Locale.ROOT), s.name())).toList());
        long read = w.pin.version(); // a first-touch ref's first version is its fork point: the pin
        intents.add(new RecoverySidecar.TableIntent(w.key(), w.pin.identity().stableTableId(),
            w.pin.identity().incarnationId(), w.pin.location(), w.target.orElse(null), w.pin.version(), read, w.uuid,
            read + 1, w.pin.rowCount(), w.firstTouch, w.firstTouch ? w.pin.nativeBranch().orElse(null) : null, null));
      }
      this.sidecar = new RecoverySidecar(new WriterKind.EnsureIndices(
              new RecoverySidecar.EnsureIndicesPayload(indexes, null)),
          Ulid.next(), actor.orElse(null), new RecoverySidecar.Authority(branch, token.branchIdentity().orElse(null),
          head.orElse(null), token.schemaIdentity()), intents, RecoverySidecar.State.ARMED,
          new RecoverySidecar.Lineage(Ulid.next(), head.orElse(null), createdAt, Ulid.next()), createdAt);
    }

    @Override
    public Header header() {
      return new Header(Failpoint.WriterPhases.ENSURE_INDICES, "index ensure on " + branch, Optional.of(sidecar), Optional.of(verified));
    }

    @Override
    public List<TableWork> effect(CommitTemplate.Armed armed) {
      List<TableWork> built = new ArrayList<>();
      for (Work w : work) {
        StagedWrite staged = w.staged;
        if (w.firstTouch) {
          // The sidecar owns the ref from before it exists; a failed creation may have cloned part
          // of a tree, so it counts as an effect either way.
          armed.effecting();
          parts.tables().branches().create(w.pin.at(), w.target.orElseThrow());
          Failpoints.hit(Failpoint.ENSURE_INDICES_AFTER_REF_CREATE);
          staged = parts.tables().indexes().stageCreateIndices(TableAt.of(w.pin.location(), w.target, w.pin.version()), w.specs, w.vectors, w.uuid);
        }
        boolean before = armed.effected();
        armed.effecting(); // from here the outcome may be unknown: only evidence says otherwise
        CommitOutcome outcome = parts.tables().commit(staged);
        if (outcome.kind() == CommitOutcome.Kind.NOT_LANDED && !before) {
          // Nothing of this attempt landed anywhere: finalized as if it never armed, no re-plan.
          throw new CommitTemplate.EffectFree(() -> new ReadSetChanged(new ReadSetMember.Table(w.key().toString()),
              Optional.of(Long.toString(w.pin.version())), Optional.of(outcome.detail())));
        }
        if (outcome.kind() != CommitOutcome.Kind.LANDED) {
          throw new IllegalStateException("the index batch of " + w.key() + " did not land exactly at version "
              + (w.pin.version() + 1) + " (" + outcome.kind() + ": " + outcome.detail() + "); not adopting it");
        }
        built.add(new TableWork(w.key(), w.target, w.pin.version(), outcome.version(), w.firstTouch, w.specs));
        Failpoints.hit(Failpoint.ENSURE_INDICES_AFTER_TABLE_COMMIT);
      }
      return built;
    }

    @Override
    public RecoverySidecar confirmed(RecoverySidecar armed, List<TableWork> built) {
      WriterKind.EnsureIndices ensure = (WriterKind.EnsureIndices) armed.kind(); // the sidecar this plan built
      return armed.withKind(new WriterKind.EnsureIndices(ensure.payload().withDelta(
          EnsureIndicesRecovery.expectedDelta(armed))));
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, List<TableWork> built) {
      return EnsureIndicesRecovery.intent(confirmed.orElseThrow());
    }

    @Override
    public Result result(List<TableWork> built, Optional<ManifestBatchPublisher.Published> published) {
      ManifestBatchPublisher.Published p = published.orElseThrow();
      return new Result(branch, built, pending, Optional.of(p.commit()), p.manifestVersion());
    }
  }
}
