package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TxInfo;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The settle plan of a schema apply sidecar (the v9 envelope's protocol_v7 SchemaApply payload),
 * settled by {@link SettleTemplate} under the schema gate held exclusively. Its effects are exact:
 * each rewritten table's Overwrite at its pin + 1 and each new type's version-one create, each with
 * its pre-minted uuid; its manifest delta
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
public final class SchemaApplyRecovery implements SettlePlan {

  private static final String MAIN = ManifestState.MAIN;

  private final TableEvidence evidence;
  private final GraphManifest manifest;
  private final DataTables tables;
  private final SchemaContracts contracts;

  SchemaApplyRecovery(TableEvidence evidence, GraphManifest manifest, DataTables tables, SchemaContracts contracts) {
    this.evidence = evidence;
    this.manifest = manifest;
    this.tables = tables;
    this.contracts = contracts;
  }

  @Override
  public Classified classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state) {
    return Classified.published(t, creates(s, t) ? classifyCreate(t) : evidence.classify(t, state));
  }

  private static boolean creates(RecoverySidecar s, RecoverySidecar.TableIntent t) {
    return s.protocolV7().creates().contains(t.tableKey());
  }

  /** A new type's create: absent, exactly ours (version 1, our uuid), or someone else's. */
  private TableClass classifyCreate(RecoverySidecar.TableIntent t) {
    if (!tables.datasetExists(t.location())) {
      return TableClass.NO_MOVEMENT;
    }
    long head;
    Optional<TxInfo> first;
    try {
      head = tables.head(TableRef.main(t.location()));
      first = tables.transactionAt(TableRef.main(t.location()).at(1));
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

  /** A new type's dataset: the manifest never referenced it, so a foreign one is left alone. */
  @Override
  public boolean outsideManifest(RecoverySidecar s, RecoverySidecar.TableIntent t) {
    return creates(s, t);
  }

  @Override
  public String foreignEffect(RecoverySidecar s, RecoverySidecar.TableIntent foreign) {
    return "table " + foreign.tableKey() + " moved by a foreign commit";
  }

  /** Confirmed, every effect exactly ours, main's head and accepted schema as captured. */
  @Override
  public boolean rollsForward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    return s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED
        && classes.values().stream().allMatch(c -> c.tableClass() == TableClass.ROLLED_PAST_EXPECTED)
        && tokenHolds(s, live.authority());
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

  @Override
  public Forward forward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    return new Forward(Optional.of(intent(s)), WriteSettlePlan.forwardRows(classes));
  }

  /** A rewrite is restored only from exactly its own Overwrite. */
  @Override
  public Set<TableClass> restores() {
    return EnumSet.of(TableClass.ROLLED_PAST_EXPECTED);
  }

  @Override
  public Restorable restorable(RecoverySidecar s, RecoverySidecar.TableIntent t, TableClass c, Live live) {
    TablePin pin = pinOf(live.state(), t.stableTableId(), t.incarnationId()).orElse(null);
    if (c == TableClass.ROLLED_PAST_EXPECTED && (pin == null || pin.version() != t.expectedVersion())) {
      return new Restorable.Refused("cannot roll back schema apply on " + t.tableKey()
          + ": its manifest pin moved since version " + t.expectedVersion() + " was captured");
    }
    return new Restorable.To(new Settlement.Step.Pin(pin.tableKey(), pin.identity(), pin.rowCount()));
  }

  /**
   * A new type's version-one dataset is removed when it is exactly ours and no registration names
   * it; a foreign dataset at its path is left untouched, never adopted.
   */
  @Override
  public Optional<Settlement.Step> undoOutsideManifest(RecoverySidecar s, RecoverySidecar.TableIntent t,
      TableClass c, Live live) {
    boolean registered = live.state().registered().containsValue(WriteSettlePlan.identityOf(t));
    if (!registered && (c == TableClass.ROLLED_PAST_EXPECTED || c == TableClass.COMPENSATED)) {
      return Optional.of(new Settlement.Step.DropCreate(t, c));
    }
    String action = SettleTemplate.isForeign(c) ? "foreign_dataset_left" : "none";
    return Optional.of(new Settlement.Step.Leave(new TableOutcome(t.tableKey().toString(), c, action, 0, 0)));
  }

  /**
   * Once the apply's commit is visible: accept the staged schema, then run the hard drops (each
   * idempotent, so a crash between them is completed by the next recovery).
   */
  @Override
  public void completed(RecoverySidecar s, OptionalLong publishedAt) {
    long version = publishedAt.isPresent() ? publishedAt.getAsLong()
        : manifest.findCommit(s.lineage().commitId()).orElseThrow().manifestVersion();
    contracts.accept(s.protocolV7().targetIdentity(), version);
    hardDrops(tables, s.protocolV7().hardDrops());
  }

  /** A discarded or rolled-back apply's staged schema is removed; the accepted one stays. */
  @Override
  public void abandoned(RecoverySidecar s) {
    contracts.unstage(s.protocolV7().targetIdentity());
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
}
