package dev.omnigraph.recovery;

import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.Recovery.Mode;
import dev.omnigraph.recovery.Recovery.Outcome;
import dev.omnigraph.recovery.Recovery.TableClass;
import dev.omnigraph.recovery.Recovery.TableOutcome;
import dev.omnigraph.recovery.Recovery.Verdict;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TxInfo;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Settles a schema apply sidecar (seed: the v9 envelope's protocol_v7 SchemaApply payload), under
 * the schema gate held exclusively. Its effects are exact: each rewritten table's Overwrite at its
 * pin + 1 and each new type's version-one create, each with its pre-minted uuid; its manifest delta
 * (registrations, renames, pins, tombstones) is fixed in the payload. Then:
 * <ul>
 *   <li>its commit visible: complete the acceptance of the staged schema (and any hard drop);
 *   <li>{@code effects_confirmed}, every effect exactly ours and main's head and accepted schema as
 *       captured: roll forward (publish the fixed commit, then accept);
 *   <li>nothing moved: discard (the old schema and data stay);
 *   <li>otherwise, in full recovery: roll back — restore each rewritten table to its pin, remove each
 *       version-one dataset of ours that no registration names, publish the restored pins; a
 *       foreign commit on a rewritten table is refused (never restored through), a foreign dataset
 *       at a new type's path is left alone.
 * </ul>
 * Tables are found by identity, not key: a renamed type's effect is recorded under its new key.
 */
public final class SchemaApplyRecovery {

  private static final Logger LOG = Logger.getLogger(SchemaApplyRecovery.class);
  private static final String MAIN = ManifestState.MAIN;

  private final Recovery recovery;
  private final GraphManifest manifest;
  private final DataTables tables;
  private final ManifestBatchPublisher publisher;
  private final SchemaContracts contracts;

  SchemaApplyRecovery(Recovery recovery, GraphManifest manifest, DataTables tables, ManifestBatchPublisher publisher,
      SchemaContracts contracts) {
    this.recovery = recovery;
    this.manifest = manifest;
    this.tables = tables;
    this.publisher = publisher;
    this.contracts = contracts;
  }

  Outcome settle(RecoverySidecar s, Mode mode) {
    RecoverySidecar.SchemaApplyPayload p = s.protocolV7();
    BranchAuthority authority = manifest.capture(MAIN);
    ManifestState state = authority.state();
    Set<String> landed = manifest.landedSince(authority, Set.of(s.lineage().commitId(), s.lineage().rollbackCommitId()),
        Optional.ofNullable(s.authority().graphHead()));
    if (landed.contains(s.lineage().commitId())) {
      long version = manifest.findCommit(s.lineage().commitId()).orElseThrow().manifestVersion();
      complete(s, version);
      return recovery.record(s, Verdict.ALREADY_PUBLISHED, "RolledForward", s.lineage().commitId(),
          outcomes(s, Map.of(), "published"));
    }
    if (landed.contains(s.lineage().rollbackCommitId())) {
      return recovery.record(s, Verdict.ROLLBACK_PUBLISHED, "RolledBack", s.lineage().rollbackCommitId(),
          outcomes(s, Map.of(), "restored"));
    }
    Map<String, TableClass> classes = new LinkedHashMap<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      classes.put(t.tableKey(), p.creates().contains(t.tableKey()) ? classifyCreate(t) : recovery.classify(t, state));
    }
    LOG.infof("recovery of %s (schema apply %s -> %s): %s", s.operationId(), p.acceptedIdentity(), p.targetIdentity(),
        classes);
    if (classes.containsValue(TableClass.INVARIANT_VIOLATION)) {
      throw new RecoveryRequired(s.operationId(), "invariant violation: a table's Lance HEAD is behind its manifest"
          + " pin " + classes + "; the sidecar " + SidecarStore.keyOf(s.operationId()) + " is kept for an operator");
    }
    if (s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED
        && classes.values().stream().allMatch(c -> c == TableClass.ROLLED_PAST_EXPECTED)
        && tokenHolds(s, authority)) {
      return rollForward(s, classes);
    }
    if (classes.values().stream().allMatch(c -> c == TableClass.NO_MOVEMENT)) {
      contracts.unstage(p.targetIdentity());
      return recovery.record(s, Verdict.NO_EFFECT, s.state() == RecoverySidecar.State.ROLLING_BACK ? "RolledBack"
          : "Discarded", null, outcomes(s, classes, "none"));
    }
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = classes.get(t.tableKey());
      if (!p.creates().contains(t.tableKey())
          && (c == TableClass.UNEXPECTED_AT_P1 || c == TableClass.UNEXPECTED_MULTISTEP)) {
        throw new RecoveryRequired(s.operationId(), "recovery refuses schema apply: table " + t.tableKey()
            + " moved by a foreign commit " + classes + "; the sidecar " + SidecarStore.keyOf(s.operationId())
            + " is kept for an operator");
      }
    }
    Verdict verdict = s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED ? Verdict.AUTHORITY_CHANGED
        : Verdict.INCOMPLETE_PHASE_B;
    if (mode != Mode.FULL) {
      return recovery.deferred(s, verdict, classes);
    }
    return rollBack(s, verdict, classes, authority);
  }

  /** A new type's create: absent, exactly ours (version 1, our uuid), or someone else's. */
  private TableClass classifyCreate(RecoverySidecar.TableIntent t) {
    if (!tables.datasetExists(t.location())) {
      return TableClass.NO_MOVEMENT;
    }
    long head;
    Optional<TxInfo> first;
    try {
      head = tables.head(t.location(), Optional.empty());
      first = tables.transactionAt(t.location(), Optional.empty(), 1);
    } catch (RuntimeException unreadable) {
      // Files but no version: a create that stopped before Lance wrote its manifest.
      return TableClass.COMPENSATED;
    }
    boolean ours = first.map(tx -> tx.uuid().equals(t.uuid()) && tx.readVersion() == 0).orElse(false);
    if (!ours) {
      return TableClass.UNEXPECTED_AT_P1;
    }
    return head == 1 ? TableClass.ROLLED_PAST_EXPECTED : TableClass.UNEXPECTED_MULTISTEP;
  }

  private boolean tokenHolds(RecoverySidecar s, BranchAuthority authority) {
    if (!authority.head().equals(Optional.ofNullable(s.authority().graphHead()))
        || !contracts.liveIdentity().equals(s.protocolV7().acceptedIdentity())) {
      return false;
    }
    for (RecoverySidecar.TableIntent t : s.tables()) {
      if (s.protocolV7().creates().contains(t.tableKey())) {
        continue;
      }
      Optional<TablePin> pin = pinOf(authority.state(), t.stableTableId(), t.incarnationId());
      if (pin.isEmpty() || pin.get().version() != t.expectedVersion()) {
        return false;
      }
    }
    return true;
  }

  /** The pin of an identity, live or retired (a revived type's rewrite starts from its retired pin). */
  private static Optional<TablePin> pinOf(ManifestState state, long stable, long incarnation) {
    TableIdentity id = new TableIdentity(stable, incarnation);
    Optional<TablePin> live = state.tables().values().stream().filter(pin -> pin.identity().equals(id)).findFirst();
    return live.isPresent() ? live : Optional.ofNullable(state.retired().get(id));
  }

  private Outcome rollForward(RecoverySidecar s, Map<String, TableClass> classes) {
    ManifestBatchPublisher.Published published = publisher.publish(intent(s));
    Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    complete(s, published.manifestVersion());
    return recovery.record(s, Verdict.ROLL_FORWARD, "RolledForward", s.lineage().commitId(),
        outcomes(s, classes, "published"));
  }

  /** The fixed publish of a schema apply: what its writer publishes, and what roll-forward publishes. */
  public static ManifestBatchPublisher.Intent intent(RecoverySidecar s) {
    RecoverySidecar.SchemaApplyPayload p = s.protocolV7();
    List<TableVersionUpdate> updates = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      updates.add(new TableVersionUpdate(t.tableKey(), new TableIdentity(t.stableTableId(), t.incarnationId()),
          t.location(), t.postCommitVersion(), Optional.empty(), t.rowCount()));
    }
    for (RecoverySidecar.PointerPin pin : p.pointers()) {
      updates.add(new TableVersionUpdate(pin.tableKey(), new TableIdentity(pin.stableTableId(), pin.incarnationId()),
          pin.location(), pin.version(), Optional.ofNullable(pin.nativeBranch()), pin.rowCount()));
    }
    return new ManifestBatchPublisher.Intent(MAIN, Optional.empty(), Optional.ofNullable(s.authority().graphHead()),
        refs(p.registrations()), updates, s.lineage().commitId(), Optional.ofNullable(s.actor()), Optional.empty(),
        s.lineage().createdAtMicros(), refs(p.tombstones()));
  }

  private static List<ManifestBatchPublisher.TableRegistration> refs(List<RecoverySidecar.TableRef> refs) {
    return refs.stream().map(r -> new ManifestBatchPublisher.TableRegistration(r.tableKey(),
        new TableIdentity(r.stableTableId(), r.incarnationId()), r.location())).toList();
  }

  /**
   * After the apply's commit is visible: accept the staged schema, then run the hard drops (each
   * idempotent, so a crash between them is completed by the next recovery).
   */
  private void complete(RecoverySidecar s, long manifestVersion) {
    contracts.accept(s.protocolV7().targetIdentity(), manifestVersion);
    hardDrops(tables, s.protocolV7().hardDrops());
  }

  /** Runs a schema apply's hard drops: irreversible, so only once its commit is visible and accepted. */
  public static void hardDrops(DataTables tables, List<RecoverySidecar.HardDrop> drops) {
    for (RecoverySidecar.HardDrop d : drops) {
      Failpoints.hit(Failpoint.SCHEMA_APPLY_BEFORE_HARD_DROP);
      if (d.whole()) {
        tables.versions().deleteDataset(d.location());
      } else {
        tables.versions().removeVersionsBefore(d.location(), d.keepFrom());
      }
    }
  }

  private Outcome rollBack(RecoverySidecar s, Verdict verdict, Map<String, TableClass> classes,
      BranchAuthority authority) {
    RecoverySidecar.SchemaApplyPayload p = s.protocolV7();
    ManifestState state = authority.state();
    List<TableVersionUpdate> restored = new ArrayList<>();
    List<TableOutcome> outcomes = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableClass c = classes.get(t.tableKey());
      if (p.creates().contains(t.tableKey())) {
        TableIdentity id = new TableIdentity(t.stableTableId(), t.incarnationId());
        boolean registered = state.registered().containsValue(id);
        String action = "none";
        if (!registered && (c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED)) {
          action = tables.versions().dropOwnCreate(t.location(), t.uuid()) ? "dataset_removed" : "foreign_dataset_left";
        } else if (c == TableClass.UNEXPECTED_AT_P1 || c == TableClass.UNEXPECTED_MULTISTEP) {
          action = "foreign_dataset_left";
        }
        outcomes.add(new TableOutcome(t.tableKey(), c, action, 0, 0));
        continue;
      }
      TablePin pin = pinOf(state, t.stableTableId(), t.incarnationId()).orElse(null);
      switch (c) {
        case ROLLED_PAST_EXPECTED -> {
          if (pin == null || pin.version() != t.expectedVersion()) {
            throw new RecoveryRequired(s.operationId(), "cannot roll back schema apply on " + t.tableKey()
                + ": its manifest pin moved since version " + t.expectedVersion() + " was captured");
          }
          long v = tables.versions().restore(t.location(), Optional.empty(), t.expectedVersion());
          Failpoints.hit(Failpoint.RECOVERY_AFTER_RESTORE);
          restored.add(new TableVersionUpdate(pin.tableKey(), pin.identity(), t.location(), v, Optional.empty(),
              pin.rowCount()));
          outcomes.add(new TableOutcome(t.tableKey(), c, "restored", t.postCommitVersion(), t.expectedVersion()));
        }
        case COMPENSATED -> {
          restored.add(new TableVersionUpdate(pin.tableKey(), pin.identity(), t.location(),
              tables.head(t.location(), Optional.empty()), Optional.empty(), pin.rowCount()));
          outcomes.add(new TableOutcome(t.tableKey(), c, "restored", t.postCommitVersion(), t.expectedVersion()));
        }
        default -> outcomes.add(new TableOutcome(t.tableKey(), c, "none", t.expectedVersion(), t.expectedVersion()));
      }
    }
    contracts.unstage(p.targetIdentity());
    String commit = null;
    if (!restored.isEmpty()) {
      publisher.publish(new ManifestBatchPublisher.Intent(MAIN, Optional.empty(), authority.head(), List.of(),
          restored, s.lineage().rollbackCommitId(), Optional.of(Recovery.RECOVERY_ACTOR), Optional.empty(),
          Recovery.micros()));
      commit = s.lineage().rollbackCommitId();
      Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    }
    return recovery.record(s, verdict, "RolledBack", commit, outcomes);
  }

  private static List<TableOutcome> outcomes(RecoverySidecar s, Map<String, TableClass> classes, String action) {
    return s.tables().stream().map(t -> new TableOutcome(t.tableKey(), classes.get(t.tableKey()), action,
        t.expectedVersion(), action.equals("published") ? t.postCommitVersion() : t.expectedVersion())).toList();
  }
}
