package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settle plan of a mutation, load or branch merge: each table's effect is one pre-minted
 * transaction at its pin + 1 (a merge: a pre-minted chain, {@code protocol_v4}), on the branch's own
 * Lance ref or on a first-touch ref the sidecar owns from before it exists. It rolls forward only
 * from {@code effects_confirmed}, every effect exactly ours and the captured authority token (native
 * branch identity, graph head, accepted schema, pins) still live; it publishes the recorded pins
 * (a merge's pointer-only pins and merged parent with them) under the fixed lineage and the
 * original actor. Rolling back restores each table to the pin the sidecar captured, provided the
 * manifest still pins it there.
 *
 * <p>Writers whose effects have exactly this shape (a revert, an index ensure) extend it and add only
 * their own record checks and publish.
 */
class WriteSettlePlan implements SettlePlan {

  private final TableEvidence evidence;
  private final SchemaContracts contracts;

  WriteSettlePlan(TableEvidence evidence, SchemaContracts contracts) {
    this.evidence = evidence;
    this.contracts = contracts;
  }

  @Override
  public Classified classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state) {
    return Classified.published(t, evidence.classify(s, t, state));
  }

  @Override
  public String foreignEffect(RecoverySidecar s, RecoverySidecar.TableIntent foreign) {
    return "a table it owns moved by a foreign commit";
  }

  @Override
  public boolean rollsForward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    return s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED
        && classes.values().stream().allMatch(c -> c.tableClass() == TableClass.ROLLED_PAST_EXPECTED)
        && tokenHolds(s, live);
  }

  private boolean tokenHolds(RecoverySidecar s, Live live) {
    if (!live.identity().equals(Optional.ofNullable(s.authority().branchIdentity()))
        || !live.head().equals(Optional.ofNullable(s.authority().graphHead()))
        || !contracts.liveIdentity().equals(s.authority().schemaIdentity())) {
      return false;
    }
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TablePin pin = live.state().tables().get(t.tableKey());
      if (pin == null || !pin.identity().equals(identityOf(t))) {
        return false;
      }
      if (!t.firstTouch() && pin.version() != t.expectedVersion()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Forward forward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    List<TableVersionUpdate> updates = new ArrayList<>();
    List<TableOutcome> outcomes = forwardRows(classes);
    for (RecoverySidecar.TableIntent t : s.tables()) {
      updates.add(new TableVersionUpdate(t.tableKey(), identityOf(t), t.location(), t.postCommitVersion(),
          Optional.ofNullable(t.nativeBranch()), t.rowCount()));
    }
    Optional<String> mergedParent = Optional.empty();
    if (s.kind() instanceof WriterKind.BranchMerge merge) {
      // The merge lands whole: its pointer-only pins publish with its physical ones.
      for (RecoverySidecar.PointerPin p : merge.payload().pointers()) {
        updates.add(new TableVersionUpdate(p.tableKey(), new TableIdentity(p.stableTableId(), p.incarnationId()),
            p.location(), p.version(), Optional.ofNullable(p.nativeBranch()), p.rowCount()));
        outcomes.add(new TableOutcome(p.tableKey().toString(), null, "published_pointer", p.version(), p.version()));
      }
      mergedParent = Optional.of(merge.payload().mergedParent());
    }
    return new Forward(Optional.of(new ManifestBatchPublisher.Intent(s.authority().branch(),
        Optional.ofNullable(s.authority().branchIdentity()), Optional.ofNullable(s.authority().graphHead()),
        List.of(), updates, s.lineage().commitId(), Optional.ofNullable(s.actor()), mergedParent,
        s.lineage().createdAtMicros())), outcomes);
  }

  /** Each table's roll-forward row, in the sidecar's order. */
  static List<TableOutcome> forwardRows(Map<TableKey, Classified> classes) {
    List<TableOutcome> out = new ArrayList<>();
    classes.values().forEach(c -> out.add(c.forward()));
    return out;
  }

  @Override
  public Restorable restorable(RecoverySidecar s, RecoverySidecar.TableIntent t, TableClass c, Live live) {
    TablePin pin = live.state().tables().get(t.tableKey());
    if (pin == null || !pin.location().equals(t.location()) || pin.version() != t.expectedVersion()) {
      return new Restorable.Refused("cannot roll back " + t.tableKey() + ": its manifest pin moved to "
          + (pin == null ? "nothing" : pin.location() + "@" + pin.version()) + " since version "
          + t.expectedVersion() + " was captured; restoring would discard a published winner");
    }
    return new Restorable.To(new Settlement.Step.Pin(t.tableKey(), identityOf(t), pin.rowCount()));
  }

  static TableIdentity identityOf(RecoverySidecar.TableIntent t) {
    return new TableIdentity(t.stableTableId(), t.incarnationId());
  }
}
