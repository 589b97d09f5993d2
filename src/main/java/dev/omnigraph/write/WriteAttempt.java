package dev.omnigraph.write;

import dev.omnigraph.table.TableRef;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.WriteResult;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.util.Background;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The direct-publish attempt, once for every writer (docs/write-path.md, "The commit template"):
 * recovery barrier and token capture; validate and stage outside the gates; schema → branch →
 * sorted-table gates; re-list sidecars; revalidate the token and live HEAD == manifest pin; arm the
 * v9 sidecar before the first durable effect; create first-touch refs; commit each table with its
 * pre-minted uuid and zero retries; confirm; publish once through the exact-head CAS; delete the
 * sidecar. Writers supply only planning ({@link PreparedWrite}); the arm, the commits' outcome, the
 * confirm, the publish and the retire run in {@link CommitTemplate}.
 *
 * <p>Outcomes: before any effect, a typed conflict, precondition or input error with nothing to
 * clean but reclaimable staged files; after the first effect, every failure is
 * {@link RecoveryRequired} and the sidecar stays for recovery to settle — never a guess.
 */
public final class WriteAttempt {

  private final WriterParts parts;

  public WriteAttempt(WriterParts parts) {
    this.parts = java.util.Objects.requireNonNull(parts);
  }

  /**
   * Runs {@code writer} on {@code branch}, repreparing a repreparable writer at most
   * {@link WriteLimits#MAX_REPREPARES} times after effect-free authority movement.
   *
   * @param ifCommit a conditional write's expected graph head
   * @param schema the accepted schema {@code writer} was planned with: the token's schema identity
   *     (a schema accepted since is a {@code ReadSetChanged}, never a replan with a stale plan)
   */
  WriteResult run(String branch, PreparedWrite writer, Optional<String> actor, Optional<CommitId> ifCommit,
      SchemaIr schema) {
    if (!writer.repreparable()) {
      return attempts(branch, writer, actor, ifCommit, schema);
    }
    try (GateManager.Held held = parts.gates().queue(branch)) {
      return attempts(branch, writer, actor, ifCommit, schema);
    }
  }

  private WriteResult attempts(String branch, PreparedWrite writer, Optional<String> actor, Optional<CommitId> ifCommit,
      SchemaIr schema) {
    return CommitTemplate.reprepared(writer.writerKind().wire() + " on " + branch,
        moved -> writer.repreparable() && !(moved.moved() instanceof dev.omnigraph.api.ReadSetMember.Schema),
        attempt -> once(branch, writer, actor, ifCommit, attempt, schema));
  }

  private WriteResult once(String branch, PreparedWrite writer, Optional<String> actor, Optional<CommitId> ifCommit,
      int attempt, SchemaIr schema) {
    // Step 1: heal what needs no restore (refusing on a relevant rollback-class sidecar), then
    // capture the token and the table snapshot from one manifest scan.
    // The capture runs beside the heal's listing; it is kept only when the heal found nothing to
    // settle (the steady state), since settling may publish on this branch.
    CompletableFuture<BranchAuthority> speculative = Background.start(() -> parts.manifest().capture(branch));
    boolean healed;
    try {
      healed = parts.recovery().heal(branch);
    } catch (RuntimeException refused) {
      speculative.whenComplete((a, e) -> { }); // its outcome no longer matters
      throw refused;
    }
    BranchAuthority authority;
    if (healed) {
      try {
        Background.join(speculative);
      } catch (RuntimeException stale) {
        // superseded by the capture below
      }
      authority = parts.manifest().capture(branch);
    } else {
      authority = Background.join(speculative);
    }
    ManifestState state = authority.state();
    AuthorityToken token = authority.token(schema.identity());
    Optional<String> head = token.graphHead();
    CommitTemplate.requireExpectedHead(ifCommit, head);

    // Step 2: validate and stage outside the gates.
    List<TableEffect> effects = new ArrayList<>(writer.prepare(new PrepareContext(token, state, schema, parts.tables())));
    if (effects.isEmpty()) {
      return new WriteResult(Optional.empty(), state.manifestVersion(), Map.of(), attempt, Map.of(), 0,
          Optional.empty());
    }
    effects.sort(Comparator.comparing(TableEffect::tableKey));
    Failpoints.hit(Failpoint.WRITE_AFTER_PREPARE);
    List<String> tableKeys = effects.stream().map(e -> GateManager.tableGate(e.tableKey(), branch)).toList();

    // Step 3: gates, re-list, revalidate; step 5 is the template's.
    try (GateManager.Held held = parts.gates().acquire(List.of(branch), tableKeys)) {
      BranchAuthority verified = recheck(branch, authority, token, ifCommit, effects);
      return parts.template().commit(new Plan(writer, token, verified, effects, actor, attempt));
    }
  }

  /** Mutation's and load's plan: every table's staged transaction, committed side by side. */
  private final class Plan implements CommitPlan<Map<TableKey, Long>, WriteResult> {
    private final PreparedWrite writer;
    private final AuthorityToken token;
    private final BranchAuthority verified;
    private final List<TableEffect> effects;
    private final Optional<String> actor;
    private final int attempt;
    private final RecoverySidecar sidecar;

    Plan(PreparedWrite writer, AuthorityToken token, BranchAuthority verified, List<TableEffect> effects,
        Optional<String> actor, int attempt) {
      this.writer = writer;
      this.token = token;
      this.verified = verified;
      this.effects = effects;
      this.actor = actor;
      this.attempt = attempt;
      Optional<String> head = token.graphHead();
      String operationId = Ulid.next();
      String commitId = Ulid.next();
      long createdAt = dev.omnigraph.util.Micros.now();
      this.sidecar = new RecoverySidecar(writer.writerKind(), operationId,
          actor.orElse(null),
          new RecoverySidecar.Authority(token.branch(), token.branchIdentity().orElse(null), head.orElse(null),
              token.schemaIdentity()),
          effects.stream().map(WriteAttempt::intent).toList(),
          RecoverySidecar.State.ARMED,
          new RecoverySidecar.Lineage(commitId, head.orElse(null), createdAt, Ulid.next()),
          createdAt);
    }

    /** The version each table's commit reached. */
    @Override
    public Header header() {
      return new Header(writer.phases(), writer.writerKind().wire() + " on " + token.branch(), Optional.of(sidecar), Optional.of(verified));
    }

    @Override
    public Map<TableKey, Long> effect(CommitTemplate.Armed armed) {
      String op = sidecar.operationId();
      // First-touch refs and their branch-local stages, in table order, before any commit.
      List<StagedWrite> staged = new ArrayList<>();
      for (TableEffect e : effects) {
        if (e.firstTouch()) {
          // A failed ref creation may still have cloned part of a tree: count it as an effect so
          // the sidecar stays and recovery reclaims it.
          armed.effecting();
          try {
            parts.tables().branches().create(TableAt.of(e.location(), e.pinnedBranch(), e.pinnedVersion()), e.target().orElseThrow());
            Failpoints.hit(Failpoint.WRITE_AFTER_REF_CREATE);
            staged.add(e.stager().stage(e.pinnedVersion(), e.uuid()));
          } catch (RuntimeException failure) {
            throw new RecoveryRequired(op, "could not prepare " + e.tableKey() + " on its new branch", failure);
          }
        } else {
          staged.add(e.staged().orElseThrow());
        }
      }
      // Every table's commit at once: separate datasets, so one commit's round trips, not one per
      // table. Outcomes are then judged together, in table order; any subset of landed commits is
      // what the armed sidecar already covers.
      boolean refs = armed.effected();
      armed.effecting();
      List<CompletableFuture<Committed>> commits = new ArrayList<>();
      for (int i = 0; i < effects.size(); i++) {
        TableEffect e = effects.get(i);
        StagedWrite write = staged.get(i);
        commits.add(Background.start(() -> commitOne(e, write)));
      }
      List<Committed> results = commits.stream().map(Background::join).toList();
      // Effect-free only when no ref was made and every commit provably did not land.
      boolean landedAny = refs || results.stream().anyMatch(c -> c.outcome() == null
          || c.outcome().kind() != CommitOutcome.Kind.NOT_LANDED);
      Map<TableKey, Long> versions = new LinkedHashMap<>();
      for (Committed c : results) {
        TableEffect e = c.effect();
        if (c.outcome() == null) {
          throw new RecoveryRequired(op, "commit of " + e.tableKey() + " ended in an unknown state", c.failure());
        }
        switch (c.outcome().kind()) {
          case LANDED -> {
            if (c.failure() != null) {
              throw new RecoveryRequired(op, "failed after the commit of " + e.tableKey(), c.failure());
            }
            versions.put(e.tableKey(), c.outcome().version());
          }
          case NOT_LANDED -> {
            if (landedAny) {
              throw new RecoveryRequired(op, "commit of " + e.tableKey() + " lost to a concurrent writer while "
                  + "other effects of this write landed");
            }
            throw new CommitTemplate.EffectFree(() -> effectFreeConflict(writer, token, e, c.outcome()));
          }
          case REBASED -> throw new RecoveryRequired(op, "Lance rebased the commit of " + e.tableKey()
              + " over a foreign commit (" + c.outcome().detail() + "); not adopting it");
        }
      }
      return versions;
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, Map<TableKey, Long> versions) {
      List<TableVersionUpdate> updates = new ArrayList<>();
      for (TableEffect e : effects) {
        updates.add(new TableVersionUpdate(e.tableKey(), e.identity(), e.location(), versions.get(e.tableKey()),
            e.target(), e.rowCountAfter()));
      }
      return new ManifestBatchPublisher.Intent(token.branch(), token.branchIdentity(), token.graphHead(), List.of(),
          updates, sidecar.lineage().commitId(), actor, Optional.empty(), sidecar.lineage().createdAtMicros());
    }

    @Override
    public WriteResult result(Map<TableKey, Long> versions, Optional<ManifestBatchPublisher.Published> published) {
      Map<String, Long> rowCounts = new LinkedHashMap<>();
      Map<String, Long> affected = new LinkedHashMap<>();
      for (TableEffect e : effects) {
        rowCounts.put(e.tableKey().toString(), e.rowCountAfter());
        affected.put(e.tableKey().toString(), e.rowsAffected());
      }
      ManifestBatchPublisher.Published p = published.orElseThrow();
      return new WriteResult(Optional.of(p.commitId()), p.manifestVersion(), rowCounts, attempt, affected,
          p.attempts(), Optional.of(p.commit()));
    }
  }

  /**
   * One table's commit as run beside the others: its outcome (null when the call ended in an
   * unknown state) and the failure that ended it, or that followed a landed commit.
   */
  private record Committed(TableEffect effect, CommitOutcome outcome, RuntimeException failure) {}

  private Committed commitOne(TableEffect e, StagedWrite write) {
    CommitOutcome outcome;
    try {
      outcome = parts.tables().commit(write);
    } catch (RuntimeException failure) {
      return new Committed(e, null, failure);
    }
    if (outcome.kind() == CommitOutcome.Kind.LANDED) {
      try {
        Failpoints.hit(Failpoint.WRITE_AFTER_TABLE_COMMIT);
      } catch (RuntimeException injected) {
        return new Committed(e, outcome, injected);
      }
    }
    return new Committed(e, outcome, null);
  }

  /** An effect-free Lance rejection: an exact strict duplicate, or an authority change to replan. */
  private RuntimeException effectFreeConflict(PreparedWrite writer, AuthorityToken token, TableEffect e,
      CommitOutcome outcome) {
    Set<String> ids = writer.strictIds().getOrDefault(e.tableKey(), Set.of());
    if (!ids.isEmpty()) {
      ManifestState fresh = parts.manifest().capture(token.branch()).state();
      TablePin pin = fresh.tables().get(e.tableKey());
      if (pin != null) {
        List<Map<String, Object>> found = parts.tables().rowsById(pin.at(), ids, List.of("id"));
        if (!found.isEmpty()) {
          return new KeyConflict(e.tableKey().toString(), String.valueOf(found.get(0).get("id")));
        }
      }
    }
    return dev.omnigraph.api.ReadSetChanged.replannable(
        new dev.omnigraph.api.ReadSetMember.Table(e.tableKey().toString()), Optional.of(Long.toString(e.readVersion())),
        Optional.of(outcome.detail()));
  }

  /**
   * Step 3 under the gates: the recovery re-list, the token's revalidation (the latest-version
   * probe of the manifest), the accepted schema and every target's live HEAD are independent
   * reads, so they run side by side (one round trip on object storage, not four); their verdicts
   * are then applied in the write path's order.
   *
   * @return the revalidated authority (what the publish commits from)
   */
  private BranchAuthority recheck(String branch, BranchAuthority captured, AuthorityToken token,
      Optional<CommitId> ifCommit, List<TableEffect> effects) {
    Set<TableRef> refs = effects.stream().map(e -> TableRef.of(e.location(), e.target()))
        .collect(java.util.stream.Collectors.toSet());
    CompletableFuture<Void> barrier = Background.run(() -> parts.template().barrier(s -> s.concerns(branch, refs), "writing"));
    CompletableFuture<BranchAuthority> now = Background.start(() -> parts.manifest().recapture(captured));
    CompletableFuture<String> liveSchema = Background.start(parts.liveSchemaIdentity());
    List<CompletableFuture<Optional<UncoveredDrift>>> drift = effects.stream()
        .map(e -> Background.start(() -> parts.template().drift(e.tableKey(), e.landsAt(), e.firstTouch()))).toList();
    Background.join(barrier);
    BranchAuthority verified = Background.join(now);
    CommitTemplate.revalidate(verified, token, ifCommit, Background.join(liveSchema));
    for (CompletableFuture<Optional<UncoveredDrift>> d : drift) {
      Optional<UncoveredDrift> found = Background.join(d);
      if (found.isPresent()) {
        throw found.get();
      }
    }
    return verified;
  }

  private static RecoverySidecar.TableIntent intent(TableEffect e) {
    return new RecoverySidecar.TableIntent(e.tableKey(), e.identity().stableTableId(), e.identity().incarnationId(),
        e.location(), e.target().orElse(null), e.pinnedVersion(), e.readVersion(), e.uuid(), e.readVersion() + 1,
        e.rowCountAfter(), e.firstTouch(), e.firstTouch() ? e.pinnedBranch().orElse(null) : null, null);
  }

}
