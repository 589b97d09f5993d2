package dev.omnigraph.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.table.TxInfo;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Settles pending recovery sidecars (seed, "Open-time recovery sweep" and "Recovery protocol").
 * One sidecar at a time, under the same schema → branch → sorted-table gates its writer held, so a
 * live writer of this process is waited for, never recovered from under (after the wait the
 * sidecar is re-read; gone means its writer finished).
 *
 * <p>Each table of a sidecar is classified from live Lance evidence — HEAD and the exact
 * transaction (uuid and read version) at the planned version — never from a numeric HEAD alone.
 * The sidecar is then settled all-or-nothing:
 * <ul>
 *   <li>already published (its pre-minted commit is visible): record and retire;
 *   <li>{@code effects_confirmed}, every table exactly our transaction and the captured authority
 *       token still live: <b>roll forward</b> by publishing the fixed lineage intent with the
 *       original actor;
 *   <li>no table moved: <b>discard</b> (an untouched first-touch ref is removed);
 *   <li>otherwise <b>roll back</b> ({@link Mode#FULL} only): restore each owned table to its pin,
 *       remove owned first-touch refs, publish the restored heads under the pre-minted rollback
 *       commit so manifest == HEAD afterwards;
 *   <li>a foreign effect on a registered table, or a HEAD behind its pin: refused loudly, the
 *       sidecar kept for an operator.
 * </ul>
 * Every completed recovery appends exactly one row to {@code _graph_commit_recoveries.lance}, then
 * deletes the sidecar, last.
 *
 * <p>Destructive steps (restore, ref removal) are safe only when no other process writes the graph:
 * the documented single-writer-process boundary.
 */
public final class Recovery {

  /** The actor of commits recovery publishes on its own behalf (rollbacks). */
  public static final String RECOVERY_ACTOR = "omnigraph:recovery";

  /** What an operator does with a sidecar recovery refuses: the CLI's exact commands. */
  static String quarantineHint(String operationId) {
    return "move it aside with omnigraph recover --quarantine " + operationId
        + ", then omnigraph repair --apply restores the tables to their published versions";
  }

  /** What a write is told when a relevant sidecar needs a rollback that live healing cannot do. */
  public static final String ROLLBACK_REQUIRED =
      "a pending recovery sidecar requires rollback — reopen the graph read-write";

  private static final Logger LOG = Logger.getLogger(Recovery.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How far a pass may go. */
  public enum Mode {
    /** Everything, restores included: read-write open and the quiesced {@code recover}. */
    FULL,
    /** Write entry: only completions that need no restore; rollback-class sidecars are deferred. */
    ROLL_FORWARD_ONLY
  }

  /** Per-table classification (the seed's names). */
  public enum TableClass {
    /** HEAD is exactly our pre-minted transaction at the planned version. */
    ROLLED_PAST_EXPECTED,
    /** HEAD is still at the pin (or a first-touch ref was never created). */
    NO_MOVEMENT,
    /** HEAD is one past the pin but the transaction there is not ours. */
    UNEXPECTED_AT_P1,
    /** HEAD moved more than one version (other than our effect plus our own compensation). */
    UNEXPECTED_MULTISTEP,
    /** HEAD is behind the manifest pin: should be impossible. */
    INVARIANT_VIOLATION,
    /** Our effect followed by a Restore to the pin: a rollback that stopped before its publish. */
    COMPENSATED,
    /**
     * Our exact transaction at the planned version and again at each version after it, nothing
     * else: our own effect committed more than once. A lost response to the commit's manifest PUT
     * does this: the object store client under Lance retries the PUT, meets its own object (412),
     * and Lance rebases the same transaction one version up (issue 48). Ours, so never foreign;
     * recovery compensates it back to the pin like any unpublished effect.
     */
    DUPLICATED,
    /**
     * A branch merge's chain landed only as a contiguous prefix of its pre-minted transactions (seed:
     * "Armed recovery accepts only a contiguous prefix"): ours, incomplete, so rollback-only.
     */
    PARTIAL_CHAIN
  }

  /** The sidecar-level verdict. */
  public enum Verdict {
    ALREADY_PUBLISHED, ROLLBACK_PUBLISHED, ROLL_FORWARD, NO_EFFECT, INCOMPLETE_PHASE_B, AUTHORITY_CHANGED,
    ORPHANED, FOREIGN_EFFECT, INVARIANT_VIOLATION
  }

  /** What happened to one sidecar. */
  public enum Action { COMPLETED, DEFERRED, SKIPPED }

  /** One table's classification and what recovery did about it. */
  public record TableOutcome(String tableKey, TableClass tableClass, String action, long fromVersion,
      long toVersion) {}

  /** The settlement of one sidecar. */
  public record Outcome(String operationId, String writerKind, String branch, Verdict verdict, Action action,
      String auditKind, List<TableOutcome> tables) {}

  private final GateManager gates;
  private final GraphManifest manifest;
  private final DataTables tables;
  private final SidecarStore sidecars;
  private final ManifestBatchPublisher publisher;
  private final RecoveryAuditTable audit;
  private final SchemaContracts contracts;
  /** Schema apply sidecars: graph-global, with creates, renames and the contract acceptance. */
  private final SchemaApplyRecovery schemaApply;
  /** Optimize sidecars: the bounded maintenance classifier (see OptimizeRecovery). */
  private final OptimizeRecovery optimize;

  public Recovery(GateManager gates, GraphManifest manifest, DataTables tables, SidecarStore sidecars,
      ManifestBatchPublisher publisher, RecoveryAuditTable audit, SchemaContracts contracts) {
    this.gates = Objects.requireNonNull(gates);
    this.manifest = Objects.requireNonNull(manifest);
    this.tables = Objects.requireNonNull(tables);
    this.sidecars = Objects.requireNonNull(sidecars);
    this.publisher = Objects.requireNonNull(publisher);
    this.audit = Objects.requireNonNull(audit);
    this.contracts = Objects.requireNonNull(contracts);
    this.schemaApply = new SchemaApplyRecovery(this, manifest, tables, publisher, contracts);
    this.optimize = new OptimizeRecovery(manifest, tables, sidecars, publisher, audit);
  }

  /**
   * Settles every pending sidecar as far as {@code mode} allows.
   *
   * @throws RecoveryRequired for a sidecar recovery refuses (foreign effect, invariant violation);
   *     it stays on disk
   * @throws UnreadableSidecar for a corrupt or pre-v9 sidecar (kept on disk)
   * @throws dev.omnigraph.storage.StorageException when {@code __recovery/} cannot be listed
   */
  public List<Outcome> sweep(Mode mode) {
    List<Outcome> outcomes = new ArrayList<>();
    for (String key : sidecars.list()) {
      Outcome o = settle(key, mode);
      if (o != null) {
        outcomes.add(o);
      }
    }
    return outcomes;
  }

  /**
   * The write-entry heal: settles what needs no restore, then refuses if a sidecar still pending
   * concerns {@code branch}.
   *
   * @return whether any sidecar was listed (false: the steady state, nothing was touched)
   * @throws RecoveryRequired with {@link #ROLLBACK_REQUIRED} when a relevant sidecar needs a rollback
   */
  public boolean heal(String branch) {
    List<String> listed = sidecars.list();
    for (String key : listed) {
      Outcome o;
      try {
        o = settle(key, Mode.ROLL_FORWARD_ONLY, branch);
      } catch (RecoveryRequired refused) {
        Optional<RecoverySidecar> s = sidecars.readIdentity(key);
        if (s.isPresent() && !s.get().authority().branch().equals(branch)
            && !RecoverySidecar.SCHEMA_APPLY.equals(s.get().writerKind())) {
          continue; // another branch's problem: its own writes and the next open report it
        }
        throw refused;
      }
      if (o != null && o.action() == Action.DEFERRED
          && (o.branch().equals(branch) || RecoverySidecar.SCHEMA_APPLY.equals(o.writerKind()))) {
        throw new RecoveryRequired(o.operationId(), ROLLBACK_REQUIRED + " (" + o.writerKind() + " on " + o.branch()
            + ": " + o.verdict() + ")");
      }
    }
    return !listed.isEmpty();
  }

  /**
   * Branch create and delete refuse while a schema apply is pending (seed: "A SchemaApply sidecar
   * remains graph-global and blocks deletion"): its recovery may still accept a schema the branch
   * would not have been made under.
   *
   * @throws RecoveryRequired naming the pending schema apply
   */
  public void refusePendingSchemaApply(String what) {
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s = sidecars.readIdentity(key);
      if (s.isPresent() && RecoverySidecar.SCHEMA_APPLY.equals(s.get().writerKind())) {
        throw new RecoveryRequired(s.get().operationId(), what + " is refused while a schema apply is pending ("
            + SidecarStore.keyOf(s.get().operationId()) + "); reopen the graph read-write to settle it");
      }
    }
  }

  /** Settles the sidecar at {@code key}; null when it was gone (its writer finished). */
  private Outcome settle(String key, Mode mode) {
    return settle(key, mode, null);
  }

  /**
   * As {@link #settle(String, Mode)}; with {@code onlyWaitFor} set, a sidecar of another branch
   * whose gates are held right now is skipped (null) instead of waited for: its writer is live
   * in this process, and that branch's own writers heal whatever it leaves, so a write never
   * queues behind another branch's.
   */
  private Outcome settle(String key, Mode mode, String onlyWaitFor) {
    // Only to choose gates; the body that recovery acts on is re-read under them.
    Optional<RecoverySidecar> listed = sidecars.readIdentity(key);
    if (listed.isEmpty()) {
      return null;
    }
    RecoverySidecar first = listed.get();
    List<String> tableKeys = first.tables().stream()
        .map(t -> GateManager.tableGate(t.tableKey(), first.authority().branch())).toList();
    List<String> branchGates = List.of(first.authority().branch());
    boolean global = RecoverySidecar.SCHEMA_APPLY.equals(first.writerKind());
    Optional<GateManager.Held> free = global
        // Graph-global: settled with the schema gate held exclusively, as its writer held it.
        ? Optional.of(gates.acquireExclusive(branchGates, tableKeys))
        : onlyWaitFor == null || first.authority().branch().equals(onlyWaitFor)
            ? Optional.of(gates.acquire(branchGates, tableKeys))
            : gates.tryAcquire(branchGates, tableKeys);
    if (free.isEmpty()) {
      return null;
    }
    try (GateManager.Held held = free.get()) {
      Optional<RecoverySidecar> reread = sidecars.read(key);
      if (reread.isEmpty()) {
        return null; // its writer was live and finished while we waited for the gates
      }
      RecoverySidecar s = reread.get();
      // --- optimize: no caller-minted transaction to prove; roll-forward-only, bounded by shape ---
      if (OptimizeRecovery.WRITER_KIND.equals(s.writerKind())) {
        return optimize.settle(s);
      }
      // --- end optimize ---
      if (RecoverySidecar.SCHEMA_APPLY.equals(s.writerKind())) {
        return schemaApply.settle(s, mode);
      }
      if (RecoverySidecar.ENSURE_INDICES.equals(s.writerKind())) {
        // protocol_v8: the payload must agree with the envelope before anything is decided; then
        // the exact single-transaction classification below applies as is (EnsureIndicesRecovery).
        EnsureIndicesRecovery.verify(s);
      }
      Assessment a = assess(s);
      LOG.infof("recovery of %s (%s on %s): %s %s", s.operationId(), s.writerKind(), s.authority().branch(),
          a.verdict, a.classes);
      return switch (a.verdict) {
        case ALREADY_PUBLISHED -> retire(s, a, "RolledForward", s.lineage().commitId(), "published");
        case ROLLBACK_PUBLISHED -> retire(s, a, "RolledBack", s.lineage().rollbackCommitId(), "restored");
        case ROLL_FORWARD -> rollForward(s, a);
        // A rollback that removed every owned ref before its audit row: nothing moved any more, but
        // it is still that rollback (the sidecar says so), not a discard.
        case NO_EFFECT -> discard(s, a, mode,
            s.state() == RecoverySidecar.State.ROLLING_BACK ? "RolledBack" : "Discarded");
        case ORPHANED -> discard(s, a, mode, "OrphanDiscarded");
        case INCOMPLETE_PHASE_B, AUTHORITY_CHANGED -> mode == Mode.FULL ? rollBack(s, a) : deferred(s, a);
        case FOREIGN_EFFECT -> throw new RecoveryRequired(s.operationId(), "recovery refuses " + s.writerKind()
            + " on " + s.authority().branch() + ": a table it owns moved by a foreign commit " + a.classes
            + "; the sidecar " + SidecarStore.keyOf(s.operationId()) + " is kept for an operator: "
            + quarantineHint(s.operationId()));
        case INVARIANT_VIOLATION -> throw new RecoveryRequired(s.operationId(), "invariant violation: a table's "
            + "Lance HEAD is behind its manifest pin " + a.classes + "; the sidecar "
            + SidecarStore.keyOf(s.operationId()) + " is kept for an operator");
      };
    }
  }

  /**
   * Why recovery refuses to settle the sidecar of {@code operationId}, decided from the same
   * evidence {@code settle} would use but without acting on it: a foreign commit on a table it
   * owns, or a HEAD behind its pin. Empty when recovery would settle it (or the sidecar is gone),
   * and for optimize and schema-apply sidecars, whose recoveries decide as they act.
   *
   * @throws UnreadableSidecar when the sidecar cannot be read
   */
  public Optional<String> refusal(String operationId) {
    Optional<RecoverySidecar> read = sidecars.read(SidecarStore.keyOf(operationId));
    if (read.isEmpty() || RecoverySidecar.SCHEMA_APPLY.equals(read.get().writerKind())
        || OptimizeRecovery.WRITER_KIND.equals(read.get().writerKind())) {
      return Optional.empty();
    }
    RecoverySidecar s = read.get();
    if (RecoverySidecar.ENSURE_INDICES.equals(s.writerKind())) {
      EnsureIndicesRecovery.verify(s);
    }
    Assessment a = assess(s);
    return switch (a.verdict) {
      case FOREIGN_EFFECT -> Optional.of("a table it owns moved by a foreign commit " + a.classes);
      case INVARIANT_VIOLATION -> Optional.of("a table's Lance HEAD is behind its manifest pin " + a.classes);
      default -> Optional.empty();
    };
  }

  /** A classification of one sidecar against live state. */
  private record Assessment(Verdict verdict, Map<String, TableClass> classes, ManifestState state,
      Optional<String> liveIdentity, Optional<String> liveHead) {}

  private Assessment assess(RecoverySidecar s) {
    String branch = s.authority().branch();
    Optional<String> identity = Optional.empty();
    if (!branch.equals(ManifestState.MAIN)) {
      Optional<NativeBranch> nb = manifest.branches().stream().filter(b -> b.name().equals(branch)).findFirst();
      if (nb.isEmpty() || (s.authority().branchIdentity() != null
          && !nb.get().identifier().equals(s.authority().branchIdentity()))) {
        // The authority that made this intent reachable is gone (seed, "Branch-delete orphaning").
        Map<String, TableClass> classes = new LinkedHashMap<>();
        for (RecoverySidecar.TableIntent t : s.tables()) {
          // Only first-touch refs matter now: everything else hangs off the unreachable branch.
          classes.put(t.tableKey(), t.firstTouch() ? classify(t, null) : TableClass.NO_MOVEMENT);
        }
        return new Assessment(Verdict.ORPHANED, classes, null, Optional.empty(), Optional.empty());
      }
      identity = Optional.of(nb.get().identifier());
    }
    BranchAuthority authority = manifest.capture(branch);
    ManifestState state = authority.state();
    Optional<String> head = authority.head();
    // Either commit, if published, is newer than the head the writer prepared against.
    java.util.Set<String> landed = manifest.landedSince(authority,
        java.util.Set.of(s.lineage().commitId(), s.lineage().rollbackCommitId()),
        Optional.ofNullable(s.authority().graphHead()));
    if (landed.contains(s.lineage().commitId())) {
      return new Assessment(Verdict.ALREADY_PUBLISHED, Map.of(), state, identity, head);
    }
    if (landed.contains(s.lineage().rollbackCommitId())) {
      return new Assessment(Verdict.ROLLBACK_PUBLISHED, Map.of(), state, identity, head);
    }
    Map<String, TableClass> classes = classify(s, state);
    Verdict verdict;
    if (classes.containsValue(TableClass.INVARIANT_VIOLATION)) {
      verdict = Verdict.INVARIANT_VIOLATION;
    } else if (classes.values().stream().allMatch(c -> c == TableClass.NO_MOVEMENT)) {
      verdict = Verdict.NO_EFFECT;
    } else if (s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED
        && classes.values().stream().allMatch(c -> c == TableClass.ROLLED_PAST_EXPECTED)
        && tokenHolds(s, state, identity, head)) {
      verdict = Verdict.ROLL_FORWARD;
    } else if (s.tables().stream().anyMatch(t -> !t.firstTouch() && isForeign(classes.get(t.tableKey())))) {
      verdict = Verdict.FOREIGN_EFFECT;
    } else {
      verdict = s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED ? Verdict.AUTHORITY_CHANGED
          : Verdict.INCOMPLETE_PHASE_B;
    }
    return new Assessment(verdict, classes, state, identity, head);
  }

  private static boolean isForeign(TableClass c) {
    return c == TableClass.UNEXPECTED_AT_P1 || c == TableClass.UNEXPECTED_MULTISTEP;
  }

  private boolean tokenHolds(RecoverySidecar s, ManifestState state, Optional<String> identity,
      Optional<String> head) {
    if (!identity.equals(Optional.ofNullable(s.authority().branchIdentity()))
        || !head.equals(Optional.ofNullable(s.authority().graphHead()))
        || !contracts.liveIdentity().equals(s.authority().schemaIdentity())) {
      return false;
    }
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TablePin pin = state.tables().get(t.tableKey());
      if (pin == null || !pin.identity().equals(identityOf(t))) {
        return false;
      }
      if (!t.firstTouch() && pin.version() != t.expectedVersion()) {
        return false;
      }
    }
    return true;
  }

  /** Classifies every table of {@code s}; {@code state} is null for an orphaned branch. */
  private Map<String, TableClass> classify(RecoverySidecar s, ManifestState state) {
    Map<String, TableClass> out = new LinkedHashMap<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      out.put(t.tableKey(), s.protocolV4() == null ? classify(t, state)
          : classifyChain(t, s.protocolV4().chains().getOrDefault(t.tableKey(), List.of()), state));
    }
    return out;
  }

  /**
   * A branch merge table (protocol_v4): the live history after the pin must be exactly a
   * contiguous prefix of the pre-minted chain — each version {@code expected + i + 1} our
   * transaction {@code i}, read at {@code expected + i} — optionally followed by our own
   * compensating Restore to the pin. Anything else (a foreign, unreadable or out-of-order
   * transaction) is foreign, and recovery fails closed instead of restoring through it. A ref-only
   * fork (an empty chain) is ours once its created ref's identity was bound at confirmation.
   */
  private TableClass classifyChain(RecoverySidecar.TableIntent t, List<RecoverySidecar.ChainStep> chain,
      ManifestState state) {
    Optional<String> nb = Optional.ofNullable(t.nativeBranch());
    if (t.firstTouch()) {
      Optional<String> ref = tables.branches().identity(t.location(), t.nativeBranch());
      if (ref.isEmpty()) {
        return TableClass.NO_MOVEMENT;
      }
      if (t.firstTouchRefIdentity() != null && !ref.get().equals(t.firstTouchRefIdentity())) {
        return TableClass.UNEXPECTED_MULTISTEP;
      }
    }
    long head = tables.head(t.location(), nb);
    if (state != null && !t.firstTouch()) {
      TablePin pin = state.tables().get(t.tableKey());
      if (pin != null && pin.location().equals(t.location()) && pin.nativeBranch().equals(nb)
          && head < pin.version()) {
        return TableClass.INVARIANT_VIOLATION;
      }
    }
    long expected = t.expectedVersion();
    if (head < expected) {
      return TableClass.INVARIANT_VIOLATION;
    }
    if (chain.isEmpty()) {
      if (head != expected) {
        return TableClass.UNEXPECTED_MULTISTEP;
      }
      return t.firstTouch() && t.firstTouchRefIdentity() != null ? TableClass.ROLLED_PAST_EXPECTED
          : TableClass.NO_MOVEMENT;
    }
    if (head == expected) {
      return TableClass.NO_MOVEMENT;
    }
    int prefix = 0;
    for (long v = expected + 1; v <= Math.min(head, expected + chain.size()); v++) {
      RecoverySidecar.ChainStep step = chain.get((int) (v - expected - 1));
      Optional<TxInfo> tx = tables.transactionAt(t.location(), nb, v);
      if (tx.isEmpty() || !tx.get().uuid().equals(step.uuid()) || tx.get().readVersion() != step.readVersion()) {
        break;
      }
      prefix++;
    }
    if (prefix == head - expected) {
      return prefix == chain.size() ? TableClass.ROLLED_PAST_EXPECTED : TableClass.PARTIAL_CHAIN;
    }
    if (prefix >= 1 && prefix < head - expected) {
      // The last step that landed, landed again (a lost commit response, see DUPLICATED): the chain
      // stopped there, so whatever follows the copies can only be our own compensation.
      String again = chain.get(prefix - 1).uuid();
      long v = expected + prefix + 1;
      while (v <= head && tables.transactionAt(t.location(), nb, v).map(tx -> tx.uuid().equals(again))
          .orElse(false)) {
        v++;
      }
      if (v > expected + prefix + 1) {
        if (v > head) {
          return TableClass.DUPLICATED;
        }
        Optional<TxInfo> last = tables.transactionAt(t.location(), nb, head);
        if (v == head && last.isPresent() && last.get().operation().equals("Restore")
            && last.get().restoredVersion().equals(java.util.OptionalLong.of(expected))) {
          return TableClass.COMPENSATED;
        }
        return TableClass.UNEXPECTED_MULTISTEP;
      }
    }
    if (prefix >= 1 && prefix == head - expected - 1) {
      Optional<TxInfo> last = tables.transactionAt(t.location(), nb, head);
      if (last.isPresent() && last.get().operation().equals("Restore")
          && last.get().restoredVersion().equals(java.util.OptionalLong.of(expected))) {
        return TableClass.COMPENSATED;
      }
    }
    return TableClass.UNEXPECTED_MULTISTEP;
  }

  TableClass classify(RecoverySidecar.TableIntent t, ManifestState state) {
    Optional<String> nb = Optional.ofNullable(t.nativeBranch());
    if (t.firstTouch()) {
      Optional<String> ref = tables.branches().identity(t.location(), t.nativeBranch());
      if (ref.isEmpty()) {
        return TableClass.NO_MOVEMENT;
      }
      if (t.firstTouchRefIdentity() != null && !ref.get().equals(t.firstTouchRefIdentity())) {
        return TableClass.UNEXPECTED_MULTISTEP; // a different incarnation of the ref: not ours
      }
    }
    long head = tables.head(t.location(), nb);
    if (state != null && !t.firstTouch()) {
      TablePin pin = state.tables().get(t.tableKey());
      if (pin != null && pin.location().equals(t.location()) && pin.nativeBranch().equals(nb)
          && head < pin.version()) {
        return TableClass.INVARIANT_VIOLATION;
      }
    }
    if (head < t.expectedVersion()) {
      return TableClass.INVARIANT_VIOLATION;
    }
    if (head == t.expectedVersion()) {
      return TableClass.NO_MOVEMENT;
    }
    boolean ours = tables.transactionAt(t.location(), nb, t.postCommitVersion())
        .map(tx -> tx.uuid().equals(t.uuid()) && tx.readVersion() == t.readVersion()).orElse(false);
    if (head == t.postCommitVersion()) {
      return ours ? TableClass.ROLLED_PAST_EXPECTED : TableClass.UNEXPECTED_AT_P1;
    }
    if (ours) {
      // Past our own version: further copies of our transaction (DUPLICATED), possibly ended by the
      // Restore to the pin a rollback made before its publish (COMPENSATED).
      long v = t.postCommitVersion() + 1;
      while (v <= head && tables.transactionAt(t.location(), nb, v).map(tx -> tx.uuid().equals(t.uuid()))
          .orElse(false)) {
        v++;
      }
      if (v > head) {
        return TableClass.DUPLICATED;
      }
      if (v == head) {
        Optional<TxInfo> last = tables.transactionAt(t.location(), nb, head);
        if (last.isPresent() && last.get().operation().equals("Restore")
            && last.get().restoredVersion().equals(java.util.OptionalLong.of(t.expectedVersion()))) {
          return TableClass.COMPENSATED;
        }
      }
    }
    return TableClass.UNEXPECTED_MULTISTEP;
  }

  private Outcome rollForward(RecoverySidecar s, Assessment a) {
    if (RecoverySidecar.ENSURE_INDICES.equals(s.writerKind())) {
      // The fixed publish: the confirmed delta (verified equal to the effects' pins), fixed lineage,
      // the original actor.
      publisher.publish(EnsureIndicesRecovery.intent(s));
      Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
      List<TableOutcome> outcomes = s.tables().stream().map(t -> new TableOutcome(t.tableKey(),
          a.classes.get(t.tableKey()), "published", t.expectedVersion(), t.postCommitVersion())).toList();
      return record(s, a.verdict, "RolledForward", s.lineage().commitId(), outcomes);
    }
    List<TableVersionUpdate> updates = new ArrayList<>();
    List<TableOutcome> outcomes = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      updates.add(new TableVersionUpdate(t.tableKey(), identityOf(t), t.location(), t.postCommitVersion(),
          Optional.ofNullable(t.nativeBranch()), t.rowCount()));
      outcomes.add(new TableOutcome(t.tableKey(), a.classes.get(t.tableKey()), "published", t.expectedVersion(),
          t.postCommitVersion()));
    }
    Optional<String> mergedParent = Optional.empty();
    if (s.protocolV4() != null) {
      // The merge lands whole: its pointer-only pins publish with its physical ones.
      for (RecoverySidecar.PointerPin p : s.protocolV4().pointers()) {
        updates.add(new TableVersionUpdate(p.tableKey(), new TableIdentity(p.stableTableId(), p.incarnationId()),
            p.location(), p.version(), Optional.ofNullable(p.nativeBranch()), p.rowCount()));
        outcomes.add(new TableOutcome(p.tableKey(), null, "published_pointer", p.version(), p.version()));
      }
      mergedParent = Optional.of(s.protocolV4().mergedParent());
    }
    publisher.publish(new ManifestBatchPublisher.Intent(s.authority().branch(),
        Optional.ofNullable(s.authority().branchIdentity()), Optional.ofNullable(s.authority().graphHead()),
        List.of(), updates, s.lineage().commitId(), Optional.ofNullable(s.actor()), mergedParent,
        s.lineage().createdAtMicros()));
    Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    return record(s, a.verdict, "RolledForward", s.lineage().commitId(), outcomes);
  }

  private Outcome rollBack(RecoverySidecar s, Assessment a) {
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
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = a.classes.get(t.tableKey());
      Optional<String> nb = Optional.ofNullable(t.nativeBranch());
      if (t.firstTouch()) {
        // The manifest never referenced this ref: removing our ref is the whole rollback. A foreign
        // ref (or foreign commits on ours) is left untouched and never adopted.
        String action = "none";
        if (c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED || c == TableClass.PARTIAL_CHAIN
            || c == TableClass.DUPLICATED || (c == TableClass.NO_MOVEMENT && tables.branches().exists(t.location(), t.nativeBranch()))) {
          tables.branches().delete(t.location(), t.nativeBranch());
          action = "ref_removed";
        } else if (isForeign(c)) {
          action = "foreign_ref_left";
        }
        outcomes.add(new TableOutcome(t.tableKey(), c, action, t.expectedVersion(), t.expectedVersion()));
        continue;
      }
      TablePin pin = a.state.tables().get(t.tableKey());
      switch (c) {
        case ROLLED_PAST_EXPECTED, PARTIAL_CHAIN, DUPLICATED -> {
          requirePinnedAtExpected(s, t, pin);
          long v = tables.versions().restore(t.location(), nb, t.expectedVersion());
          Failpoints.hit(Failpoint.RECOVERY_AFTER_RESTORE);
          restored.add(new TableVersionUpdate(t.tableKey(), identityOf(t), t.location(), v, nb, pin.rowCount()));
          outcomes.add(new TableOutcome(t.tableKey(), c, "restored", t.postCommitVersion(), t.expectedVersion()));
        }
        case COMPENSATED -> {
          requirePinnedAtExpected(s, t, pin);
          // The restore is the live head: after a single commit (postCommit + 1) or after a merge
          // chain's prefix, wherever that prefix ended.
          restored.add(new TableVersionUpdate(t.tableKey(), identityOf(t), t.location(), tables.head(t.location(), nb),
              nb, pin.rowCount()));
          outcomes.add(new TableOutcome(t.tableKey(), c, "restored", t.postCommitVersion(), t.expectedVersion()));
        }
        default -> outcomes.add(new TableOutcome(t.tableKey(), c, "none", t.expectedVersion(),
            t.expectedVersion()));
      }
    }
    String commit = null;
    if (!restored.isEmpty()) {
      // Publish the restored heads (same content as the pins) so manifest == HEAD afterwards.
      publisher.publish(new ManifestBatchPublisher.Intent(s.authority().branch(), a.liveIdentity, a.liveHead,
          List.of(), restored, s.lineage().rollbackCommitId(), Optional.of(RECOVERY_ACTOR), Optional.empty(),
          micros()));
      commit = s.lineage().rollbackCommitId();
      Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    }
    return record(s, a.verdict, "RolledBack", commit, outcomes);
  }

  private static void requirePinnedAtExpected(RecoverySidecar s, RecoverySidecar.TableIntent t, TablePin pin) {
    if (pin == null || !pin.location().equals(t.location()) || pin.version() != t.expectedVersion()) {
      throw new RecoveryRequired(s.operationId(), "cannot roll back " + t.tableKey() + ": its manifest pin moved to "
          + (pin == null ? "nothing" : pin.location() + "@" + pin.version()) + " since version "
          + t.expectedVersion() + " was captured; restoring would discard a published winner");
    }
  }

  private Outcome discard(RecoverySidecar s, Assessment a, Mode mode, String kind) {
    List<TableOutcome> outcomes = new ArrayList<>();
    List<RecoverySidecar.TableIntent> refs = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = a.classes.get(t.tableKey());
      boolean ownedRef = t.firstTouch() && tables.branches().exists(t.location(), t.nativeBranch())
          && (c == TableClass.NO_MOVEMENT || c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED
          || c == TableClass.DUPLICATED);
      if (ownedRef) {
        refs.add(t);
      }
      outcomes.add(new TableOutcome(t.tableKey(), c, ownedRef ? "ref_removed" : "none", t.expectedVersion(),
          t.expectedVersion()));
    }
    if (!refs.isEmpty() && mode != Mode.FULL) {
      return deferred(s, a); // another handle may still own an untouched first-touch ref
    }
    for (RecoverySidecar.TableIntent t : refs) {
      tables.branches().delete(t.location(), t.nativeBranch());
    }
    return record(s, a.verdict, kind, null, outcomes);
  }

  private Outcome retire(RecoverySidecar s, Assessment a, String kind, String commitId, String action) {
    List<TableOutcome> outcomes = s.tables().stream().map(t -> new TableOutcome(t.tableKey(), null, action,
        t.expectedVersion(), kind.equals("RolledForward") ? t.postCommitVersion() : t.expectedVersion())).toList();
    return record(s, a.verdict, kind, commitId, outcomes);
  }

  private Outcome deferred(RecoverySidecar s, Assessment a) {
    return deferred(s, a.verdict, a.classes);
  }

  Outcome deferred(RecoverySidecar s, Verdict verdict, Map<String, TableClass> classes) {
    List<TableOutcome> outcomes = s.tables().stream().map(t -> new TableOutcome(t.tableKey(),
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
        s.authority().branch(), commitId, micros(), json));
    try {
      sidecars.delete(s.operationId());
    } catch (RuntimeException e) {
      // The recovery is complete and audited; the next pass finds it settled and retires the file.
      LOG.warnf(e, "recovery of %s completed but its sidecar could not be deleted", s.operationId());
    }
    return new Outcome(s.operationId(), s.writerKind(), s.authority().branch(), verdict, Action.COMPLETED, kind,
        outcomes);
  }

  private static TableIdentity identityOf(RecoverySidecar.TableIntent t) {
    return new TableIdentity(t.stableTableId(), t.incarnationId());
  }

  static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  /** The sidecar keys pending now. */
  public List<String> pending() {
    return sidecars.list();
  }

  /**
   * The pending sidecars that claim anything named after graph branch {@code branch}: an intent on
   * that branch, or one that writes a table's Lance ref of that name. Unresolved ownership of what
   * a branch-name reuse would reclaim (seed, "Branch-delete orphaning exception": create still
   * rejects relevant unresolved ownership).
   *
   * @return their operation ids (a sidecar that finished between list and read is left out)
   */
  public List<String> claimsOnBranchName(String branch) {
    List<String> out = new ArrayList<>();
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s = sidecars.readIdentity(key);
      if (s.isPresent() && (s.get().authority().branch().equals(branch)
          || s.get().tables().stream().anyMatch(t -> branch.equals(t.nativeBranch())))) {
        out.add(s.get().operationId());
      }
    }
    return out;
  }

  /** Every name a pending sidecar claims: its branch and the Lance refs its tables write. */
  public List<String> claimedBranchNames() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (String key : sidecars.list()) {
      sidecars.readIdentity(key).ifPresent(s -> {
        out.add(s.authority().branch());
        s.tables().stream().map(RecoverySidecar.TableIntent::nativeBranch).filter(Objects::nonNull).forEach(out::add);
      });
    }
    return List.copyOf(out);
  }
}
