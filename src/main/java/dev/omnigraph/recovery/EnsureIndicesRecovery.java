package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TableVersionUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settle plan of an EnsureIndices sidecar (writer kind {@value WriterKind.EnsureIndices#WIRE},
 * the v9 envelope's protocol_v8 payload), settled by {@link SettleTemplate} under the same gates as
 * every other sidecar.
 *
 * <p>Its effects have the exact shape of a mutation's: per touched table one pre-minted transaction
 * (here a mixed {@code CreateIndex}) at read version + 1, on the branch's own Lance ref or on a
 * first-touch ref the sidecar owns from before it exists. So the per-table classification and the
 * decision are a mutation's exact ones ({@link WriteSettlePlan}): {@code armed} is rollback-only (an owned effect is
 * restored to its pin and the restored pin published under the pre-minted rollback commit; an owned
 * first-touch ref is removed; nothing moved → discarded); {@code effects_confirmed} rolls forward
 * only while every effect is exactly ours and the captured authority (native branch identity, graph
 * head, accepted schema, pins) still holds; a foreign or buried commit on an owned table fails closed
 * with the sidecar kept. A restore only ever happens in full recovery: the write-entry heal (the
 * writer's roll-forward-only barrier) defers it and the writer answers {@link RecoveryRequired}.
 *
 * <p>This class supplies the protocol_v8 checks on top: the payload must name exactly the
 * envelope's tables, and from {@code effects_confirmed} on it must carry the complete fixed
 * table-pointer delta, equal to the pins the effects produce (each table at its post-commit version
 * on its native branch with its row count). A sidecar that breaks either is never rolled forward
 * or back: it is refused with {@link RecoveryRequired} and kept for an operator. Roll-forward
 * publishes exactly {@link #intent}: the delta, the fixed lineage, the original actor.
 */
public final class EnsureIndicesRecovery extends WriteSettlePlan {

  EnsureIndicesRecovery(TableEvidence evidence, SchemaContracts contracts) {
    super(evidence, contracts);
  }

  /** Why recovery refuses a protocol_v8 sidecar whose payload does not agree with its envelope. */
  @Override
  public Optional<String> malformed(RecoverySidecar s) {
    RecoverySidecar.EnsureIndicesPayload p = Objects.requireNonNull(s.protocolV8(), "protocol_v8");
    Set<TableKey> envelope = new TreeSet<>();
    s.tables().forEach(t -> envelope.add(t.tableKey()));
    if (!envelope.equals(p.indexes().keySet()) || p.indexes().values().stream().anyMatch(List::isEmpty)) {
      return Optional.of("its index work names tables " + p.indexes().keySet() + " but its effects are on "
          + envelope);
    }
    if (s.state() == RecoverySidecar.State.ARMED && p.delta() != null) {
      return Optional.of("an armed sidecar carries a confirmed pointer delta");
    }
    if (s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED) {
      if (p.delta() == null) {
        return Optional.of("it is effects_confirmed without its table-pointer delta");
      }
      if (!p.delta().equals(expectedDelta(s))) {
        return Optional.of("its confirmed delta " + p.delta() + " is not the pins its effects produce "
            + expectedDelta(s));
      }
      for (RecoverySidecar.TableIntent t : s.tables()) {
        if (t.firstTouch() && t.firstTouchRefIdentity() == null) {
          return Optional.of("first-touch ref " + t.nativeBranch() + " of " + t.tableKey()
              + " has no confirmed identity");
        }
      }
    }
    return Optional.empty();
  }

  /** The confirmed delta (verified equal to the effects' pins), fixed lineage, the original actor. */
  @Override
  public Forward forward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    return new Forward(Optional.of(intent(s)), WriteSettlePlan.forwardRows(classes));
  }

  /**
   * The complete pointer delta {@code s}'s effects produce: each table at its post-commit version on
   * its native branch, with its row count (an index changes no row). What the writer confirms.
   */
  public static List<RecoverySidecar.PointerPin> expectedDelta(RecoverySidecar s) {
    List<RecoverySidecar.PointerPin> out = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      out.add(new RecoverySidecar.PointerPin(t.tableKey(), t.stableTableId(), t.incarnationId(), t.location(),
          t.nativeBranch(), t.postCommitVersion(), t.rowCount()));
    }
    return out;
  }

  /**
   * The fixed publish of a confirmed EnsureIndices sidecar: its delta under its pre-minted commit, its
   * original actor and creation time, against its captured branch identity and graph head. The
   * writer publishes this; roll-forward publishes the same.
   */
  public static ManifestBatchPublisher.Intent intent(RecoverySidecar s) {
    RecoverySidecar.EnsureIndicesPayload p = s.protocolV8();
    if (p == null || p.delta() == null) {
      throw new IllegalStateException("sidecar " + s.operationId() + " has no confirmed delta to publish");
    }
    List<TableVersionUpdate> updates = new ArrayList<>();
    for (RecoverySidecar.PointerPin pin : p.delta()) {
      updates.add(new TableVersionUpdate(pin.tableKey(), new TableIdentity(pin.stableTableId(), pin.incarnationId()),
          pin.location(), pin.version(), Optional.ofNullable(pin.nativeBranch()), pin.rowCount()));
    }
    return new ManifestBatchPublisher.Intent(s.authority().branch(),
        Optional.ofNullable(s.authority().branchIdentity()), Optional.ofNullable(s.authority().graphHead()),
        List.of(), updates, s.lineage().commitId(), Optional.ofNullable(s.actor()), Optional.empty(),
        s.lineage().createdAtMicros());
  }
}
