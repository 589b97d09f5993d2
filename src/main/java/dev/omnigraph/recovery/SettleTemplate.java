package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.api.recovery.Action;
import dev.omnigraph.recovery.Recovery.Mode;
import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import dev.omnigraph.api.recovery.Verdict;
import dev.omnigraph.recovery.Settlement.Step;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Micros;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Settles one sidecar of any writer, written once (docs/recovery.md, "The settle template"): reads
 * and classifies its evidence through the writer's {@link SettlePlan}, decides a
 * {@link Settlement}, then acts on it. Only this class publishes a recovery's commit, restores or
 * removes what a writer left, appends the audit row and deletes a settled sidecar (an ArchUnit rule
 * holds that, beside {@code write.CommitTemplate}).
 *
 * <p>The decision, in this order, for every writer:
 * <ol>
 *   <li>a payload that disagrees with its envelope: refuse;
 *   <li>the branch was deleted or re-created: discard ({@code ORPHANED}; owned first-touch refs go);
 *   <li>its commit visible: record it rolled forward; its rollback commit visible: record it rolled back;
 *   <li>a table's HEAD behind its pin: refuse;
 *   <li>the plan says it rolls forward (e.g. {@code effects_confirmed}, every effect exactly ours and
 *       the captured authority live): publish the recorded intent with the original actor;
 *   <li>nothing moved: discard;
 *   <li>a foreign effect on a table the manifest references: refuse;
 *   <li>otherwise roll back: full recovery restores each owned effect to its pin, removes owned
 *       first-touch refs and publishes the restored pins under the pre-minted rollback commit; the
 *       write-entry heal defers it.
 * </ol>
 * A refusal throws {@link RecoveryRequired} and keeps the sidecar; every completed settlement
 * appends one audit row, then deletes the sidecar, last.
 */
final class SettleTemplate {

  private static final Logger LOG = Logger.getLogger(SettleTemplate.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final GraphManifest manifest;
  private final DataTables tables;
  private final SidecarStore sidecars;
  private final ManifestBatchPublisher publisher;
  private final RecoveryAuditTable audit;

  SettleTemplate(GraphManifest manifest, DataTables tables, SidecarStore sidecars, ManifestBatchPublisher publisher,
      RecoveryAuditTable audit) {
    this.manifest = Objects.requireNonNull(manifest);
    this.tables = Objects.requireNonNull(tables);
    this.sidecars = Objects.requireNonNull(sidecars);
    this.publisher = Objects.requireNonNull(publisher);
    this.audit = Objects.requireNonNull(audit);
  }

  /** Decides and acts on {@code s}; the caller holds its writer's gates. */
  Outcome settle(RecoverySidecar s, SettlePlan plan, Mode mode) {
    Settlement decided = decide(s, plan);
    LOG.infof("recovery of %s (%s on %s): %s %s", s.operationId(), s.writerKind(), s.authority().branch(),
        decided.getClass().getSimpleName(), decided.classes());
    if (decided instanceof Settlement.Refuse refuse) {
      throw new RecoveryRequired(s.operationId(), refuse.message());
    }
    if (decided instanceof Settlement.RollForward forward) {
      Optional<ManifestBatchPublisher.Published> published = forward.publish().map(publisher::publish);
      if (published.isPresent()) {
        Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
      }
      plan.completed(s, published.map(p -> OptionalLong.of(p.manifestVersion())).orElse(OptionalLong.empty()));
      return record(s, forward.verdict(), "RolledForward", forward.commitId(), forward.tables());
    }
    if (decided instanceof Settlement.Discard discard) {
      List<Step> refs = discard.steps().stream().filter(Step.RemoveRef.class::isInstance).toList();
      if (!refs.isEmpty() && mode != Mode.FULL) {
        return deferred(s, discard.verdict(), discard.classes()); // another handle may still own such a ref
      }
      List<TableOutcome> outcomes = new ArrayList<>();
      for (Step step : discard.steps()) {
        outcomes.add(undo(step, new ArrayList<>()));
      }
      plan.abandoned(s);
      return record(s, discard.verdict(), discard.auditKind(), null, outcomes);
    }
    Settlement.RollBack back = (Settlement.RollBack) decided;
    if (back.landed()) {
      return record(s, back.verdict(), "RolledBack", s.lineage().rollbackCommitId(), rows(s, "restored"));
    }
    return mode == Mode.FULL ? rollBack(s, plan, back) : deferred(s, back.verdict(), back.classes());
  }

  /**
   * What recovery would do with {@code s}, from live evidence, changing nothing (see the class
   * comment for the order).
   */
  Settlement decide(RecoverySidecar s, SettlePlan plan) {
    Optional<String> malformed = plan.malformed(s);
    if (malformed.isPresent()) {
      return refuse(s, Map.of(), malformed.get());
    }
    Optional<SettlePlan.Live> found = live(s);
    if (found.isEmpty()) {
      // The authority that made this intent reachable is gone: only first-touch refs matter now,
      // everything else hangs off the unreachable branch.
      Map<TableKey, TableClass> classes = new LinkedHashMap<>();
      for (RecoverySidecar.TableIntent t : s.tables()) {
        classes.put(t.tableKey(), t.firstTouch() ? plan.classify(s, t, null).tableClass() : TableClass.NO_MOVEMENT);
      }
      return discard(s, Verdict.ORPHANED, classes, "OrphanDiscarded");
    }
    SettlePlan.Live live = found.get();
    String commit = s.lineage().commitId();
    String rollback = s.lineage().rollbackCommitId();
    // Either commit, if published, is newer than the head the writer prepared against.
    Set<String> landed = manifest.landedSince(live.authority(), plan.rollsBack() ? Set.of(commit, rollback)
        : Set.of(commit), Optional.ofNullable(s.authority().graphHead()));
    if (landed.contains(commit)) {
      return new Settlement.RollForward(Verdict.ALREADY_PUBLISHED, Map.of(), Optional.empty(), commit,
          rows(s, "published"));
    }
    if (landed.contains(rollback)) {
      return new Settlement.RollBack(Verdict.ROLLBACK_PUBLISHED, Map.of(), live, true);
    }
    Map<TableKey, SettlePlan.Classified> classified = new LinkedHashMap<>();
    Map<TableKey, TableClass> classes = new LinkedHashMap<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      SettlePlan.Classified c = plan.classify(s, t, live.state());
      classified.put(t.tableKey(), c);
      classes.put(t.tableKey(), c.tableClass());
    }
    if (classes.containsValue(TableClass.INVARIANT_VIOLATION)) {
      String why = "a table's Lance HEAD is behind its manifest pin " + classes;
      return new Settlement.Refuse(classes, "invariant violation: " + why + "; the sidecar "
          + SidecarStore.keyOf(s.operationId()) + " is kept for an operator", why);
    }
    if (plan.rollsForward(s, classified, live)) {
      SettlePlan.Forward forward = plan.forward(s, classified, live);
      return forward.publish().isPresent()
          ? new Settlement.RollForward(Verdict.ROLL_FORWARD, classes, forward.publish(), commit, forward.tables())
          // Every table already converged: nothing left to publish.
          : new Settlement.RollForward(Verdict.ALREADY_PUBLISHED, classes, Optional.empty(), null, forward.tables());
    }
    if (classes.values().stream().allMatch(c -> c == TableClass.NO_MOVEMENT)) {
      // A rollback that removed every owned ref before its audit row: nothing moved any more, but
      // it is still that rollback (the sidecar says so), not a discard.
      return discard(s, Verdict.NO_EFFECT, classes,
          s.state() == RecoverySidecar.State.ROLLING_BACK ? "RolledBack" : "Discarded");
    }
    for (RecoverySidecar.TableIntent t : s.tables()) {
      if (!plan.outsideManifest(s, t) && isForeign(classes.get(t.tableKey()))) {
        return refuse(s, classes, plan.foreignEffect(s, t) + " " + classes);
      }
    }
    if (!plan.rollsBack()) {
      throw new IllegalStateException("recovery of " + s.operationId() + " found neither a roll-forward nor a "
          + "refusal for a writer that never rolls back: " + classes);
    }
    return new Settlement.RollBack(s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED ? Verdict.AUTHORITY_CHANGED
        : Verdict.INCOMPLETE_PHASE_B, classes, live, false);
  }

  /** The live authority of the sidecar's branch; empty when the branch was deleted or re-created. */
  private Optional<SettlePlan.Live> live(RecoverySidecar s) {
    String branch = s.authority().branch();
    Optional<String> identity = Optional.empty();
    if (!branch.equals(ManifestState.MAIN)) {
      Optional<NativeBranch> nb = manifest.branches().stream().filter(b -> b.name().equals(branch)).findFirst();
      if (nb.isEmpty() || (s.authority().branchIdentity() != null
          && !nb.get().identifier().equals(s.authority().branchIdentity()))) {
        return Optional.empty();
      }
      identity = Optional.of(nb.get().identifier());
    }
    BranchAuthority authority = manifest.capture(branch);
    return Optional.of(new SettlePlan.Live(authority, identity));
  }

  private static Settlement.Refuse refuse(RecoverySidecar s, Map<TableKey, TableClass> classes, String why) {
    return new Settlement.Refuse(classes, "recovery refuses " + s.writerKind() + " on " + s.authority().branch()
        + ": " + why + "; the sidecar " + SidecarStore.keyOf(s.operationId()) + " is kept for an operator: "
        + Recovery.quarantineHint(s.operationId()), why);
  }

  /** A discard: each first-touch ref the sidecar owns and that still exists is removed. */
  private Settlement.Discard discard(RecoverySidecar s, Verdict verdict, Map<TableKey, TableClass> classes,
      String kind) {
    List<Step> steps = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = classes.get(t.tableKey());
      boolean ownedRef = t.firstTouch() && tables.branches().exists(t.ref())
          && (c == TableClass.NO_MOVEMENT || c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED
          || c == TableClass.DUPLICATED);
      steps.add(ownedRef ? new Step.RemoveRef(t, c) : leave(t, c, "none"));
    }
    return new Settlement.Discard(verdict, classes, kind, steps);
  }

  private Outcome rollBack(RecoverySidecar s, SettlePlan plan, Settlement.RollBack back) {
    List<Step> steps = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = back.classes().get(t.tableKey());
      Step step = plan.outsideManifest(s, t) ? plan.undoOutsideManifest(s, t, c, back.live())
          .orElseGet(() -> removeOwnedRef(t, c)) : restoreStep(s, plan, t, c, back.live());
      steps.add(step);
    }
    if (s.state() != RecoverySidecar.State.ROLLING_BACK
        && s.tables().stream().anyMatch(RecoverySidecar.TableIntent::firstTouch)) {
      // Removing a first-touch ref destroys the only evidence of its effect, and a rollback of
      // first-touch tables alone publishes no commit: record the decision first, so a crash before
      // the audit row is still recorded as this rollback on restart.
      s = s.withState(RecoverySidecar.State.ROLLING_BACK);
      sidecars.update(s);
    }
    List<TableVersionUpdate> restored = new ArrayList<>();
    List<TableOutcome> outcomes = new ArrayList<>();
    for (Step step : steps) {
      outcomes.add(undo(step, restored));
    }
    plan.abandoned(s);
    String commit = null;
    if (!restored.isEmpty()) {
      // Publish the restored heads (same content as the pins) so manifest == HEAD afterwards.
      publisher.publish(new ManifestBatchPublisher.Intent(s.authority().branch(), back.live().identity(),
          back.live().head(), List.of(), restored, s.lineage().rollbackCommitId(),
          Optional.of(Recovery.RECOVERY_ACTOR), Optional.empty(), Micros.now()));
      commit = s.lineage().rollbackCommitId();
      Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    }
    return record(s, back.verdict(), "RolledBack", commit, outcomes);
  }

  /**
   * A first-touch ref: the manifest never referenced it, so removing our ref is the whole rollback.
   * A foreign ref (or foreign commits on ours) is left untouched and never adopted.
   */
  private Step removeOwnedRef(RecoverySidecar.TableIntent t, TableClass c) {
    if (c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED || c == TableClass.PARTIAL_CHAIN
        || c == TableClass.DUPLICATED || (c == TableClass.NO_MOVEMENT && tables.branches().exists(t.ref()))) {
      return new Step.RemoveRef(t, c);
    }
    return leave(t, c, isForeign(c) ? "foreign_ref_left" : "none");
  }

  /** A table the manifest references: restored to its pin when an effect of ours is on it. */
  private static Step restoreStep(RecoverySidecar s, SettlePlan plan, RecoverySidecar.TableIntent t, TableClass c,
      SettlePlan.Live live) {
    boolean compensated = c == TableClass.COMPENSATED;
    if (!compensated && !plan.restores().contains(c)) {
      return leave(t, c, "none");
    }
    SettlePlan.Restorable to = plan.restorable(s, t, c, live);
    if (to instanceof SettlePlan.Restorable.Refused refused) {
      throw new RecoveryRequired(s.operationId(), refused.message());
    }
    Step.Pin pin = ((SettlePlan.Restorable.To) to).pin();
    return compensated ? new Step.Restored(t, c, pin) : new Step.Restore(t, c, pin);
  }

  /** Carries out one step; a restored table's republished pin is added to {@code restored}. */
  private TableOutcome undo(Step step, List<TableVersionUpdate> restored) {
    if (step instanceof Step.Leave leave) {
      return leave.outcome();
    }
    if (step instanceof Step.RemoveRef ref) {
      RecoverySidecar.TableIntent t = ref.table();
      tables.branches().delete(t.ref());
      return new TableOutcome(t.tableKey().toString(), ref.tableClass(), "ref_removed", t.expectedVersion(), t.expectedVersion());
    }
    if (step instanceof Step.DropCreate create) {
      RecoverySidecar.TableIntent t = create.table();
      boolean ours = tables.versions().dropOwnCreate(t.location(), t.uuid());
      return new TableOutcome(t.tableKey().toString(), create.tableClass(), ours ? "dataset_removed" : "foreign_dataset_left",
          0, 0);
    }
    RecoverySidecar.TableIntent t;
    TableClass c;
    Step.Pin pin;
    long version;
    Optional<String> nb;
    if (step instanceof Step.Restore restore) {
      t = restore.table();
      c = restore.tableClass();
      pin = restore.pin();
      nb = Optional.ofNullable(t.nativeBranch());
      version = tables.versions().restore(TableRef.of(t.location(), nb), t.expectedVersion());
      Failpoints.hit(Failpoint.RECOVERY_AFTER_RESTORE);
    } else {
      // The restore is the live head: after a single commit (postCommit + 1) or after a merge
      // chain's prefix, wherever that prefix ended.
      Step.Restored compensated = (Step.Restored) step;
      t = compensated.table();
      c = compensated.tableClass();
      pin = compensated.pin();
      nb = Optional.ofNullable(t.nativeBranch());
      version = tables.head(TableRef.of(t.location(), nb));
    }
    restored.add(new TableVersionUpdate(pin.tableKey(), pin.identity(), t.location(), version, nb, pin.rowCount()));
    return new TableOutcome(t.tableKey().toString(), c, "restored", t.postCommitVersion(), t.expectedVersion());
  }

  private static Step.Leave leave(RecoverySidecar.TableIntent t, TableClass c, String action) {
    return new Step.Leave(new TableOutcome(t.tableKey().toString(), c, action, t.expectedVersion(), t.expectedVersion()));
  }

  static boolean isForeign(TableClass c) {
    return c == TableClass.UNEXPECTED_AT_P1 || c == TableClass.UNEXPECTED_MULTISTEP;
  }

  /** The rows of a sidecar whose commit (or rollback) was already visible. */
  private static List<TableOutcome> rows(RecoverySidecar s, String action) {
    return s.tables().stream().map(t -> new TableOutcome(t.tableKey().toString(), null, action, t.expectedVersion(),
        action.equals("published") ? t.postCommitVersion() : t.expectedVersion())).toList();
  }

  static Outcome deferred(RecoverySidecar s, Verdict verdict, Map<TableKey, TableClass> classes) {
    List<TableOutcome> outcomes = s.tables().stream().map(t -> new TableOutcome(t.tableKey().toString(),
        classes.get(t.tableKey()), "deferred", t.expectedVersion(), t.expectedVersion())).toList();
    return new Outcome(s.operationId(), s.writerKind(), s.authority().branch(), verdict, Action.DEFERRED, null,
        outcomes);
  }

  /** Appends the audit row (at most once per operation), then deletes the sidecar, last. */
  Outcome record(RecoverySidecar s, Verdict verdict, String kind, String commitId,
      List<TableOutcome> outcomes) {
    Failpoints.hit(Failpoint.RECOVERY_RECORD_AUDIT);
    String json;
    try {
      json = JSON.writeValueAsString(outcomes);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    audit.appendOnce(new RecoveryAuditTable.Entry(Ulid.next(), s.operationId(), kind, s.actor(), s.writerKind(),
        s.authority().branch(), commitId, Micros.now(), json));
    try {
      sidecars.delete(s.operationId());
    } catch (RuntimeException e) {
      // The recovery is complete and audited; the next pass finds it settled and retires the file.
      LOG.warnf(e, "recovery of %s completed but its sidecar could not be deleted", s.operationId());
    }
    return new Outcome(s.operationId(), s.writerKind(), s.authority().branch(), verdict, Action.COMPLETED, kind,
        outcomes);
  }
}
