package dev.omnigraph.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.table.CompactionOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.RecoveryAuditTable;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Recovery of an interrupted Optimize (writer kind {@value #WRITER_KIND}), called by
 * {@link Recovery} under the same gates as every other sidecar. The seed gives Optimize a bounded
 * maintenance payload with "no exact caller-minted transaction confirmation boundary": Lance mints
 * the compaction's uuid, so ownership cannot be proven by identity. It is bounded instead by shape:
 * a table's history after its pin may only be compaction transactions ({@code ReserveFragments},
 * {@code Rewrite}) planned on that pin, at most two versions, ending at the confirmed version when
 * the sidecar recorded one ({@link CompactionOutcome#classify}).
 *
 * <p>Per table: HEAD == pin → no effect; a compaction chain → compacted (content equals the pin's,
 * so publishing it changes no row); anything else → foreign, and the whole sidecar is refused
 * ({@link RecoveryRequired}, kept for an operator). A pin that already moved to (or past) the
 * confirmed version is converged and omitted, as the seed's monotonic maintenance publish says.
 * Per sidecar: commit already visible → retire; nothing moved → discard; otherwise roll forward by
 * publishing the compacted pins under the pre-minted commit id with actor
 * {@code omnigraph:optimize}, against the branch's live head (a compaction never changes content,
 * so it is safe on any head whose pins for these tables are still the compacted-from versions).
 * Roll-forward needs no restore, so the write-entry heal does it too. One audit row, then the
 * sidecar is deleted.
 *
 * <p>Within the seed's single-writer-process recovery model only: the shape bound is not a proof
 * against another process compacting the same table at the same pin.
 */
public final class OptimizeRecovery {

  /** The writer kind of an Optimize sidecar. */
  public static final String WRITER_KIND = "optimize";

  private static final Logger LOG = Logger.getLogger(OptimizeRecovery.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final GraphManifest manifest;
  private final DataTables tables;
  private final SidecarStore sidecars;
  private final ManifestBatchPublisher publisher;
  private final RecoveryAuditTable audit;

  OptimizeRecovery(GraphManifest manifest, DataTables tables, SidecarStore sidecars, ManifestBatchPublisher publisher,
      RecoveryAuditTable audit) {
    this.manifest = manifest;
    this.tables = tables;
    this.sidecars = sidecars;
    this.publisher = publisher;
    this.audit = audit;
  }

  /** Settles {@code s} (an optimize sidecar); the caller holds its gates. */
  Recovery.Outcome settle(RecoverySidecar s) {
    String branch = s.authority().branch();
    Optional<String> identity = Optional.empty();
    if (!branch.equals(ManifestState.MAIN)) {
      Optional<NativeBranch> nb = manifest.branches().stream().filter(b -> b.name().equals(branch)).findFirst();
      if (nb.isEmpty() || (s.authority().branchIdentity() != null
          && !nb.get().identifier().equals(s.authority().branchIdentity()))) {
        // The branch is gone: the compacted refs hang off an unreachable branch; nothing to publish.
        return record(s, Recovery.Verdict.ORPHANED, "OrphanDiscarded", null, s.tables().stream()
            .map(t -> new Recovery.TableOutcome(t.tableKey(), Recovery.TableClass.NO_MOVEMENT, "none",
                t.expectedVersion(), t.expectedVersion())).toList());
      }
      identity = Optional.of(nb.get().identifier());
    }
    BranchAuthority authority = manifest.capture(branch);
    ManifestState state = authority.state();
    if (manifest.landedSince(authority, java.util.Set.of(s.lineage().commitId()),
        Optional.ofNullable(s.authority().graphHead())).contains(s.lineage().commitId())) {
      return record(s, Recovery.Verdict.ALREADY_PUBLISHED, "RolledForward", s.lineage().commitId(),
          s.tables().stream().map(t -> new Recovery.TableOutcome(t.tableKey(), null, "published",
              t.expectedVersion(), t.postCommitVersion())).toList());
    }
    Map<String, Recovery.TableClass> classes = new LinkedHashMap<>();
    List<TableVersionUpdate> updates = new ArrayList<>();
    List<Recovery.TableOutcome> outcomes = new ArrayList<>();
    boolean converged = false;
    for (RecoverySidecar.TableIntent t : s.tables()) {
      Optional<String> nb = Optional.ofNullable(t.nativeBranch());
      TablePin pin = state.tables().get(t.tableKey());
      boolean samePin = pin != null && pin.identity().equals(identityOf(t)) && pin.location().equals(t.location())
          && pin.nativeBranch().equals(nb);
      boolean confirmed = s.state() == RecoverySidecar.State.EFFECTS_CONFIRMED;
      if (samePin && confirmed && t.postCommitVersion() > t.expectedVersion()
          && pin.version() >= t.postCommitVersion()) {
        // Already published at or beyond the achieved version: converged, omitted.
        classes.put(t.tableKey(), Recovery.TableClass.ROLLED_PAST_EXPECTED);
        outcomes.add(new Recovery.TableOutcome(t.tableKey(), Recovery.TableClass.ROLLED_PAST_EXPECTED, "converged",
            t.expectedVersion(), pin.version()));
        converged = true;
        continue;
      }
      if (!samePin || pin.version() != t.expectedVersion()) {
        classes.put(t.tableKey(), Recovery.TableClass.UNEXPECTED_MULTISTEP);
        outcomes.add(new Recovery.TableOutcome(t.tableKey(), Recovery.TableClass.UNEXPECTED_MULTISTEP, "none",
            t.expectedVersion(), pin == null ? -1 : pin.version()));
        continue;
      }
      CompactionOutcome since = tables.compaction().compactionSince(t.location(), nb, t.expectedVersion());
      Recovery.TableClass c = switch (since.kind()) {
        case NOT_COMPACTED -> Recovery.TableClass.NO_MOVEMENT;
        case COMPACTED, RESERVED_ONLY -> confirmed && t.postCommitVersion() != since.version()
            ? Recovery.TableClass.UNEXPECTED_MULTISTEP : Recovery.TableClass.ROLLED_PAST_EXPECTED;
        case BEHIND -> Recovery.TableClass.INVARIANT_VIOLATION;
        case FOREIGN -> since.version() == t.expectedVersion() + 1 ? Recovery.TableClass.UNEXPECTED_AT_P1
            : Recovery.TableClass.UNEXPECTED_MULTISTEP;
      };
      classes.put(t.tableKey(), c);
      if (c == Recovery.TableClass.ROLLED_PAST_EXPECTED) {
        updates.add(new TableVersionUpdate(t.tableKey(), identityOf(t), t.location(), since.version(), nb,
            pin.rowCount()));
        outcomes.add(new Recovery.TableOutcome(t.tableKey(), c, "published", t.expectedVersion(), since.version()));
      } else {
        outcomes.add(new Recovery.TableOutcome(t.tableKey(), c, "none", t.expectedVersion(), t.expectedVersion()));
      }
    }
    LOG.infof("recovery of %s (optimize on %s): %s", s.operationId(), branch, classes);
    if (classes.containsValue(Recovery.TableClass.INVARIANT_VIOLATION)) {
      throw new RecoveryRequired(s.operationId(), "invariant violation: a table's Lance HEAD is behind its manifest "
          + "pin " + classes + "; the sidecar " + SidecarStore.keyOf(s.operationId()) + " is kept for an operator");
    }
    if (classes.containsValue(Recovery.TableClass.UNEXPECTED_AT_P1)
        || classes.containsValue(Recovery.TableClass.UNEXPECTED_MULTISTEP)) {
      throw new RecoveryRequired(s.operationId(), "recovery refuses optimize on " + branch + ": a table moved by "
          + "something other than its compaction " + classes + "; the sidecar " + SidecarStore.keyOf(s.operationId())
          + " is kept for an operator");
    }
    if (updates.isEmpty()) {
      return record(s, converged ? Recovery.Verdict.ALREADY_PUBLISHED : Recovery.Verdict.NO_EFFECT,
          converged ? "RolledForward" : "Discarded", null, outcomes);
    }
    // Monotonic maintenance publish: against the live head, which a compaction cannot invalidate.
    Optional<String> head = authority.head();
    publisher.publish(new ManifestBatchPublisher.Intent(branch, identity, head, List.of(), updates,
        s.lineage().commitId(), Optional.ofNullable(s.actor()), Optional.empty(), s.lineage().createdAtMicros()));
    Failpoints.hit(Failpoint.RECOVERY_AFTER_PUBLISH);
    return record(s, Recovery.Verdict.ROLL_FORWARD, "RolledForward", s.lineage().commitId(), outcomes);
  }

  /** Appends the audit row (at most once per operation), then deletes the sidecar, last. */
  private Recovery.Outcome record(RecoverySidecar s, Recovery.Verdict verdict, String kind, String commitId,
      List<Recovery.TableOutcome> outcomes) {
    Failpoints.hit(Failpoint.RECOVERY_RECORD_AUDIT);
    String json;
    try {
      json = JSON.writeValueAsString(outcomes);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    audit.appendOnce(new RecoveryAuditTable.Entry(Ulid.next(), s.operationId(), kind, s.actor(), s.writerKind(),
        s.authority().branch(), commitId, dev.omnigraph.util.Micros.now(), json));
    try {
      sidecars.delete(s.operationId());
    } catch (RuntimeException e) {
      LOG.warnf(e, "recovery of %s completed but its sidecar could not be deleted", s.operationId());
    }
    return new Recovery.Outcome(s.operationId(), s.writerKind(), s.authority().branch(), verdict,
        Recovery.Action.COMPLETED, kind, outcomes);
  }

  private static TableIdentity identityOf(RecoverySidecar.TableIntent t) {
    return new TableIdentity(t.stableTableId(), t.incarnationId());
  }

}
