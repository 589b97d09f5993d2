package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import dev.omnigraph.table.CompactionOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settle plan of an interrupted Optimize (writer kind {@value WriterKind.Optimize#WIRE}), settled by
 * {@link SettleTemplate} under the same gates as every other sidecar. Optimize has a bounded
 * maintenance payload with "no exact caller-minted transaction confirmation boundary": Lance mints
 * the compaction's uuid, so ownership cannot be proven by identity. It is bounded instead by shape:
 * a table's history after its pin may only be compaction transactions ({@code ReserveFragments},
 * {@code Rewrite}) planned on that pin, at most two versions, ending at the confirmed version when
 * the sidecar recorded one ({@link CompactionOutcome#classify}).
 *
 * <p>Per table: HEAD == pin → no effect; a compaction chain → compacted (content equals the pin's,
 * so publishing it changes no row); anything else → foreign, and the whole sidecar is refused
 * ({@link RecoveryRequired}, kept for an operator). A pin that already moved to (or past) the
 * confirmed version is converged and omitted, as the write path's monotonic maintenance publish says.
 * Per sidecar: commit already visible → retire; branch gone → discard; nothing moved → discard;
 * otherwise roll forward by
 * publishing the compacted pins under the pre-minted commit id with actor
 * {@code omnigraph:optimize}, against the branch's live head (a compaction never changes content,
 * so it is safe on any head whose pins for these tables are still the compacted-from versions).
 * Roll-forward needs no restore, so the write-entry heal does it too. One audit row, then the
 * sidecar is deleted.
 *
 * <p>Within the write path's single-writer-process recovery model only: the shape bound is not a proof
 * against another process compacting the same table at the same pin.
 */
public final class OptimizeRecovery implements SettlePlan {

  private final DataTables tables;

  OptimizeRecovery(DataTables tables) {
    this.tables = tables;
  }

  /** Maintenance never rolls back: a compaction changes no content. */
  @Override
  public boolean rollsBack() {
    return false;
  }

  @Override
  public Classified classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state) {
    Optional<String> nb = Optional.ofNullable(t.nativeBranch());
    TablePin pin = state.tables().get(t.tableKey());
    boolean samePin = pin != null && pin.identity().equals(WriteSettlePlan.identityOf(t))
        && pin.location().equals(t.location()) && pin.nativeBranch().equals(nb);
    boolean confirmed = s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED;
    if (samePin && confirmed && t.postCommitVersion() > t.expectedVersion()
        && pin.version() >= t.postCommitVersion()) {
      // Already published at or beyond the achieved version: converged, omitted.
      return classified(t, TableClass.ROLLED_PAST_EXPECTED, "converged", pin.version());
    }
    if (!samePin || pin.version() != t.expectedVersion()) {
      return classified(t, TableClass.UNEXPECTED_MULTISTEP, "none", pin == null ? -1 : pin.version());
    }
    CompactionOutcome since = tables.compaction().compactionSince(TableAt.of(t.location(), nb, t.expectedVersion()));
    TableClass c = switch (since.kind()) {
      case NOT_COMPACTED -> TableClass.NO_MOVEMENT;
      case COMPACTED, RESERVED_ONLY -> confirmed && t.postCommitVersion() != since.version()
          ? TableClass.UNEXPECTED_MULTISTEP : TableClass.ROLLED_PAST_EXPECTED;
      case BEHIND -> TableClass.INVARIANT_VIOLATION;
      case FOREIGN -> since.version() == t.expectedVersion() + 1 ? TableClass.UNEXPECTED_AT_P1
          : TableClass.UNEXPECTED_MULTISTEP;
    };
    return c == TableClass.ROLLED_PAST_EXPECTED ? classified(t, c, "published", since.version())
        : classified(t, c, "none", t.expectedVersion());
  }

  private static Classified classified(RecoverySidecar.TableIntent t, TableClass c, String action, long to) {
    return new Classified(c, new TableOutcome(t.tableKey().toString(), c, action, t.expectedVersion(), to));
  }

  @Override
  public String foreignEffect(RecoverySidecar s, RecoverySidecar.TableIntent foreign) {
    return "a table moved by something other than its compaction";
  }

  /** Armed or confirmed alike, once some table compacted and none moved otherwise. */
  @Override
  public boolean rollsForward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    return classes.values().stream().anyMatch(c -> c.tableClass() == TableClass.ROLLED_PAST_EXPECTED)
        && classes.values().stream().noneMatch(c -> SettleTemplate.isForeign(c.tableClass()));
  }

  /**
   * The compacted pins under the pre-minted commit, against the live head: a monotonic maintenance
   * publish, which a compaction cannot invalidate. Nothing when every table already converged.
   */
  @Override
  public Forward forward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live) {
    List<TableVersionUpdate> updates = new ArrayList<>();
    for (RecoverySidecar.TableIntent t : s.tables()) {
      TableOutcome row = classes.get(t.tableKey()).forward();
      if (row.action().equals("published")) {
        long rows = live.state().tables().get(t.tableKey()).rowCount(); // a compaction changes no row
        updates.add(new TableVersionUpdate(t.tableKey(), WriteSettlePlan.identityOf(t), t.location(),
            row.toVersion(), Optional.ofNullable(t.nativeBranch()), rows));
      }
    }
    Optional<ManifestBatchPublisher.Intent> publish = updates.isEmpty() ? Optional.empty()
        : Optional.of(new ManifestBatchPublisher.Intent(s.authority().branch(), live.identity(), live.head(),
            List.of(), updates, s.lineage().commitId(), Optional.ofNullable(s.actor()), Optional.empty(),
            s.lineage().createdAtMicros()));
    return new Forward(publish, WriteSettlePlan.forwardRows(classes));
  }

  @Override
  public Restorable restorable(RecoverySidecar s, RecoverySidecar.TableIntent t, TableClass c, Live live) {
    throw new IllegalStateException("an optimize is never rolled back");
  }
}
