package dev.omnigraph.write;

import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.PreconditionFailed;
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
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.util.Background;
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
import org.jboss.logging.Logger;

/**
 * The direct-publish attempt, once for every writer (seed, "Mutation/load coarse OCC", steps 1–5):
 * recovery barrier and token capture; validate and stage outside the gates; schema → branch →
 * sorted-table gates; re-list sidecars; revalidate the token and live HEAD == manifest pin; arm the
 * v9 sidecar before the first durable effect; create first-touch refs; commit each table with its
 * pre-minted uuid and zero retries; confirm; publish once through the exact-head CAS; delete the
 * sidecar. Writers supply only planning ({@link PreparedWrite}).
 *
 * <p>Outcomes: before any effect, a typed conflict, precondition or input error with nothing to
 * clean but reclaimable staged files; after the first effect, every failure is
 * {@link RecoveryRequired} and the sidecar stays for recovery to settle — never a guess.
 */
public final class WriteAttempt {

  private static final Logger LOG = Logger.getLogger(WriteAttempt.class);

  private final GateManager gates;
  private final GraphManifest manifest;
  private final Supplier<String> liveSchemaIdentity;
  private final DataTables tables;
  private final SidecarStore sidecars;
  private final ManifestBatchPublisher publisher;
  private final Recovery recovery;

  public WriteAttempt(GateManager gates, GraphManifest manifest, Supplier<String> liveSchemaIdentity,
      DataTables tables, SidecarStore sidecars, ManifestBatchPublisher publisher, Recovery recovery) {
    this.recovery = recovery;
    this.gates = gates;
    this.manifest = manifest;
    this.liveSchemaIdentity = liveSchemaIdentity;
    this.tables = tables;
    this.sidecars = sidecars;
    this.publisher = publisher;
  }

  /**
   * Runs {@code writer} on {@code branch}, repreparing a repreparable writer at most
   * {@link WriteLimits#MAX_REPREPARES} times after effect-free authority movement.
   *
   * @param ifCommit a conditional write's expected graph head
   * @param schema the accepted schema {@code writer} was planned with: the token's schema identity
   *     (a schema accepted since is a {@code ReadSetChanged}, never a replan with a stale plan)
   */
  WriteResult run(String branch, PreparedWrite writer, Optional<String> actor, Optional<String> ifCommit,
      SchemaIr schema) {
    if (!writer.repreparable()) {
      return attempts(branch, writer, actor, ifCommit, schema);
    }
    try (GateManager.Held queued = gates.queue(branch)) {
      return attempts(branch, writer, actor, ifCommit, schema);
    }
  }

  private WriteResult attempts(String branch, PreparedWrite writer, Optional<String> actor, Optional<String> ifCommit,
      SchemaIr schema) {
    Reprepare[] last = {null};
    return dev.omnigraph.util.BoundedRetry.run(REPREPARE, dev.omnigraph.util.BoundedRetry.REAL, attempt -> {
      try {
        return Optional.of(once(branch, writer, actor, ifCommit, attempt, schema));
      } catch (Reprepare moved) {
        if (!writer.repreparable() || moved.member.equals("schema")) {
          throw moved.asReadSetChanged();
        }
        last[0] = moved;
        LOG.debugf("%s on %s: %s; repreparing (attempt %d)", writer.writerKind(), branch, moved.getMessage(),
            attempt + 1);
        return Optional.empty();
      }
    }, () -> last[0].asReadSetChanged());
  }

  /**
   * Effect-free authority movement is reprepared at once (the gates already order writers of this
   * process), at most {@link WriteLimits#MAX_REPREPARES} times after the first attempt.
   */
  static final dev.omnigraph.util.BoundedRetry.Policy REPREPARE = new dev.omnigraph.util.BoundedRetry.Policy(
      "write reprepare", WriteLimits.MAX_REPREPARES + 1, java.time.Duration.ZERO, java.time.Duration.ZERO,
      java.time.Duration.ZERO);

  private WriteResult once(String branch, PreparedWrite writer, Optional<String> actor, Optional<String> ifCommit,
      int attempt, SchemaIr schema) {
    // Step 1: heal what needs no restore (refusing on a relevant rollback-class sidecar), then
    // capture the token and the table snapshot from one manifest scan.
    // The capture runs beside the heal's listing; it is kept only when the heal found nothing to
    // settle (the steady state), since settling may publish on this branch.
    CompletableFuture<BranchAuthority> speculative = Background.start(() -> manifest.capture(branch));
    boolean healed;
    try {
      healed = recovery.heal(branch);
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
      authority = manifest.capture(branch);
    } else {
      authority = Background.join(speculative);
    }
    ManifestState state = authority.state();
    AuthorityToken token = authority.token(schema.identity());
    Optional<String> identity = token.branchIdentity();
    Optional<String> head = token.graphHead();
    if (ifCommit.isPresent() && !head.equals(ifCommit)) {
      throw new PreconditionFailed(ifCommit.get(), head);
    }

    // Step 2: validate and stage outside the gates.
    List<TableEffect> effects = new ArrayList<>(writer.prepare(new PrepareContext(token, state, schema, tables)));
    if (effects.isEmpty()) {
      return new WriteResult(Optional.empty(), state.manifestVersion(), Map.of(), attempt, Map.of(), 0,
          Optional.empty());
    }
    effects.sort(Comparator.comparing(TableEffect::tableKey));
    Failpoints.hit("write.after_prepare");
    List<String> tableKeys = effects.stream().map(e -> GateManager.tableGate(e.tableKey(), branch)).toList();

    // Step 3: gates, re-list, revalidate.
    try (GateManager.Held held = gates.acquire(List.of(branch), tableKeys)) {
      BranchAuthority verified = recheck(branch, authority, token, ifCommit, effects);

      // Step 5: arm, effect, confirm, publish.
      String operationId = Ulid.next();
      String commitId = Ulid.next();
      long createdAt = dev.omnigraph.util.Micros.now();
      RecoverySidecar sidecar = new RecoverySidecar(RecoverySidecar.FORMAT_VERSION, writer.writerKind(), operationId,
          actor.orElse(null),
          new RecoverySidecar.Authority(branch, identity.orElse(null), head.orElse(null), token.schemaIdentity()),
          effects.stream().map(WriteAttempt::intent).toList(),
          RecoverySidecar.State.ARMED,
          new RecoverySidecar.Lineage(commitId, head.orElse(null), createdAt, Ulid.next()),
          createdAt);
      // A failed arm aborts with no effect: nothing below has happened yet.
      sidecars.arm(sidecar);
      try {
        Failpoints.hit("write.after_arm");
      } catch (RuntimeException failure) {
        sidecars.deleteQuietly(operationId); // nothing landed: finalize as effect-free
        throw failure;
      }
      return effectAndPublish(writer, verified, token, effects, sidecar, actor, attempt);
    }
  }

  private WriteResult effectAndPublish(PreparedWrite writer, BranchAuthority verified, AuthorityToken token,
      List<TableEffect> effects, RecoverySidecar sidecar, Optional<String> actor, int attempt) {
    String op = sidecar.operationId();
    // First-touch refs and their branch-local stages, in table order, before any commit.
    boolean refs = false;
    List<StagedWrite> staged = new ArrayList<>();
    for (TableEffect e : effects) {
      try {
        if (e.firstTouch()) {
          // A failed ref creation may still have cloned part of a tree: count it as an effect so
          // the sidecar stays and recovery reclaims it.
          refs = true;
          tables.createBranch(e.location(), e.target().orElseThrow(), e.pinnedBranch(), e.pinnedVersion());
          Failpoints.hit("write.after_ref_create");
          staged.add(e.stager().stage(e.pinnedVersion(), e.uuid()));
        } else {
          staged.add(e.staged().orElseThrow());
        }
      } catch (RuntimeException failure) {
        throw afterArm(op, refs, "could not prepare " + e.tableKey() + " on its new branch", failure);
      }
    }
    // Every table's commit at once: separate datasets, so one commit's round trips, not one per
    // table. Outcomes are then judged together, in table order; any subset of landed commits is
    // what the armed sidecar already covers.
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
    Map<String, Long> versions = new LinkedHashMap<>();
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
          // Effect-free: finalize the attempt as if it never armed.
          sidecars.deleteQuietly(op);
          throw effectFreeConflict(writer, token, e, c.outcome());
        }
        case REBASED -> throw new RecoveryRequired(op, "Lance rebased the commit of " + e.tableKey()
            + " over a foreign commit (" + c.outcome().detail() + "); not adopting it");
      }
    }
    RecoverySidecar confirmed;
    try {
      Failpoints.hit("write.after_commits");
      confirmed = sidecar.withTables(sidecar.tables().stream().map(t -> t.firstTouch()
          ? t.withRefIdentity(tables.branchIdentity(t.location(), t.nativeBranch()).orElseThrow(
              () -> new IllegalStateException("first-touch ref " + t.nativeBranch() + " of " + t.tableKey()
                  + " vanished after its commit")))
          : t).toList()).withState(RecoverySidecar.State.EFFECTS_CONFIRMED);
      sidecars.update(confirmed);
      Failpoints.hit("write.after_confirm");
    } catch (RuntimeException failure) {
      throw new RecoveryRequired(op, "could not record confirmed effects", failure);
    }
    List<TableVersionUpdate> updates = new ArrayList<>();
    Map<String, Long> rowCounts = new LinkedHashMap<>();
    Map<String, Long> affected = new LinkedHashMap<>();
    for (TableEffect e : effects) {
      updates.add(new TableVersionUpdate(e.tableKey(), e.identity(), e.location(), versions.get(e.tableKey()),
          e.target(), e.rowCountAfter()));
      rowCounts.put(e.tableKey(), e.rowCountAfter());
      affected.put(e.tableKey(), e.rowsAffected());
    }
    ManifestBatchPublisher.Published published;
    try {
      Failpoints.hit("write.before_publish");
      published = publisher.publish(new ManifestBatchPublisher.Intent(token.branch(), token.branchIdentity(),
          token.graphHead(), List.of(), updates, sidecar.lineage().commitId(), actor, Optional.empty(),
          sidecar.lineage().createdAtMicros()), verified);
    } catch (RuntimeException failure) {
      throw new RecoveryRequired(op, "publish failed after the table effects landed", failure);
    }
    try {
      Failpoints.hit("write.after_publish");
      // Phase D leaves the acknowledgement path: the write is durable now.
      sidecars.retire(op);
    } catch (RuntimeException failure) {
      // Same as a failed delete: the write is durable, so it is reported as done.
      LOG.warnf(failure, "sidecar %s kept after a published write; recovery will retire it", op);
    }
    return new WriteResult(Optional.of(published.commitId()), published.manifestVersion(), rowCounts, attempt,
        affected, published.attempts(), Optional.of(published.commit()));
  }

  /**
   * One table's commit as run beside the others: its outcome (null when the call ended in an
   * unknown state) and the failure that ended it, or that followed a landed commit.
   */
  private record Committed(TableEffect effect, CommitOutcome outcome, RuntimeException failure) {}

  private Committed commitOne(TableEffect e, StagedWrite write) {
    CommitOutcome outcome;
    try {
      outcome = tables.commit(write);
    } catch (RuntimeException failure) {
      return new Committed(e, null, failure);
    }
    if (outcome.kind() == CommitOutcome.Kind.LANDED) {
      try {
        Failpoints.hit("write.after_table_commit");
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
      ManifestState fresh = manifest.capture(token.branch()).state();
      TablePin pin = fresh.tables().get(e.tableKey());
      if (pin != null) {
        List<Map<String, Object>> found = tables.rowsById(pin.location(), pin.nativeBranch(), pin.version(), ids,
            List.of("id"));
        if (!found.isEmpty()) {
          return new KeyConflict(e.tableKey(), String.valueOf(found.get(0).get("id")));
        }
      }
    }
    return new Reprepare("table:" + e.tableKey(), Optional.of(Long.toString(e.readVersion())),
        Optional.of(outcome.detail()));
  }

  /**
   * Step 3 under the gates: the recovery re-list, the token's revalidation (the latest-version
   * probe of the manifest), the accepted schema and every target's live HEAD are independent
   * reads, so they run side by side (one round trip on object storage, not four); their verdicts
   * are then applied in the seed's order.
   *
   * @return the revalidated authority (what the publish commits from)
   */
  private BranchAuthority recheck(String branch, BranchAuthority captured, AuthorityToken token,
      Optional<String> ifCommit, List<TableEffect> effects) {
    Set<String> refs = effects.stream().map(e -> RecoverySidecar.ref(e.location(), e.target()))
        .collect(java.util.stream.Collectors.toSet());
    CompletableFuture<Void> barrier = Background.run(() -> barrier(branch, refs));
    CompletableFuture<BranchAuthority> now = Background.start(() -> manifest.recapture(captured));
    CompletableFuture<String> liveSchema = Background.start(liveSchemaIdentity);
    List<CompletableFuture<Optional<UncoveredDrift>>> drift = effects.stream()
        .map(e -> Background.start(() -> drift(e))).toList();
    Background.join(barrier);
    BranchAuthority verified = Background.join(now);
    revalidate(verified, token, ifCommit, Background.join(liveSchema));
    for (CompletableFuture<Optional<UncoveredDrift>> d : drift) {
      Optional<UncoveredDrift> found = Background.join(d);
      if (found.isPresent()) {
        throw found.get();
      }
    }
    return verified;
  }

  /**
   * Any unresolved sidecar on this branch or on the Lance refs this write commits to blocks it; a
   * live writer's intent on another branch of the same table does not.
   */
  private void barrier(String branch, Set<String> refs) {
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s = sidecars.readIdentity(key); // branch and refs only: never change
      if (s.isEmpty()) {
        continue; // finished between list and read
      }
      RecoverySidecar pending = s.get();
      if (pending.concerns(branch, refs)) {
        throw new RecoveryRequired(pending.operationId(), "a pending recovery sidecar (" + pending.writerKind()
            + " on " + pending.authority().branch() + ") must be resolved before writing; reopen the graph read-write");
      }
    }
  }

  /** The cheapest exact check: an unchanged manifest version stamp and identity is the same token. */
  private static void revalidate(BranchAuthority now, AuthorityToken token, Optional<String> ifCommit,
      String liveSchema) {
    Optional<String> identity = now.nativeIdentity();
    if (!identity.equals(token.branchIdentity())) {
      throw new Reprepare("branch_identity:" + token.branch(), token.branchIdentity(), identity);
    }
    Optional<String> head = now.head();
    if (ifCommit.isPresent() && !head.equals(ifCommit)) {
      throw new PreconditionFailed(ifCommit.get(), head);
    }
    if (!head.equals(token.graphHead())) {
      throw new Reprepare("graph_head:" + token.branch(), token.graphHead(), head);
    }
    if (!liveSchema.equals(token.schemaIdentity())) {
      throw new Reprepare("schema", Optional.of(token.schemaIdentity()), Optional.of(liveSchema));
    }
  }

  /** A target whose live HEAD is not its manifest pin (or a first-touch ref that already exists). */
  private Optional<UncoveredDrift> drift(TableEffect e) {
    if (e.firstTouch()) {
      if (tables.branchExists(e.location(), e.target().orElseThrow())) {
        return Optional.of(new UncoveredDrift(e.tableKey(), "native branch " + e.target().get()
            + " exists but the manifest does not reference it"));
      }
      return Optional.empty();
    }
    long live = tables.head(e.location(), e.target(), e.pinnedVersion());
    if (live != e.pinnedVersion()) {
      return Optional.of(new UncoveredDrift(e.tableKey(), "live HEAD is version " + live + " but the manifest pins "
          + e.pinnedVersion()));
    }
    return Optional.empty();
  }

  private RecoveryRequired afterArm(String op, boolean effected, String what, RuntimeException failure) {
    if (!effected) {
      sidecars.deleteQuietly(op);
    }
    return new RecoveryRequired(op, what, failure);
  }


  private static RecoverySidecar.TableIntent intent(TableEffect e) {
    return new RecoverySidecar.TableIntent(e.tableKey(), e.identity().stableTableId(), e.identity().incarnationId(),
        e.location(), e.target().orElse(null), e.pinnedVersion(), e.readVersion(), e.uuid(), e.readVersion() + 1,
        e.rowCountAfter(), e.firstTouch(), e.firstTouch() ? e.pinnedBranch().orElse(null) : null, null);
  }

}
