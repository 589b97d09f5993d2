package dev.omnigraph.recovery;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.recovery.Action;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.RecoveryAuditTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Settles pending recovery sidecars (docs/recovery.md, "When it runs" and "The settle template").
 * One sidecar at a time, under the same schema → branch → sorted-table gates its writer held, so a
 * live writer of this process is waited for, never recovered from under (after the wait the
 * sidecar is re-read; gone means its writer finished). What happens to it is decided and done by
 * {@link SettleTemplate} with its writer kind's {@link SettlePlan}: roll forward, roll back,
 * discard, or refuse loudly with the sidecar kept for an operator. Every completed recovery
 * appends exactly one row to {@code _graph_commit_recoveries.lance}, then deletes the sidecar, last.
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

  /** How far a pass may go. */
  public enum Mode {
    /** Everything, restores included: read-write open and the quiesced {@code recover}. */
    FULL,
    /** Write entry: only completions that need no restore; rollback-class sidecars are deferred. */
    ROLL_FORWARD_ONLY
  }

  private final GateManager gates;
  private final SidecarStore sidecars;
  /** Decides and acts for every writer kind: publish, restore, retire, audit. */
  private final SettleTemplate template;
  /** Mutations, loads and branch merges. */
  private final WriteSettlePlan write;
  /** Index ensures: a mutation's plan with protocol_v8's checks and fixed publish. */
  private final EnsureIndicesRecovery ensureIndices;
  /** Schema apply sidecars: graph-global, with creates, renames and the contract acceptance. */
  private final SchemaApplyRecovery schemaApply;
  /** Optimize sidecars: roll-forward only, bounded by shape (see OptimizeRecovery). */
  private final OptimizeRecovery optimize;
  /** Reverts: a mutation's plan over pre-minted restores. */
  private final RevertRecovery revert;
  /** Blob cell writes: one upsert of one row, a mutation's shape. */
  private final BlobWriteRecovery blobWrite;

  public Recovery(GateManager gates, GraphManifest manifest, DataTables tables, SidecarStore sidecars,
      ManifestBatchPublisher publisher, RecoveryAuditTable audit, SchemaContracts contracts) {
    this.gates = Objects.requireNonNull(gates);
    this.sidecars = Objects.requireNonNull(sidecars);
    Objects.requireNonNull(contracts);
    TableEvidence evidence = new TableEvidence(tables);
    this.template = new SettleTemplate(manifest, tables, sidecars, publisher, audit);
    this.write = new WriteSettlePlan(evidence, contracts);
    this.ensureIndices = new EnsureIndicesRecovery(evidence, contracts);
    this.schemaApply = new SchemaApplyRecovery(evidence, manifest, tables, contracts);
    this.optimize = new OptimizeRecovery(tables);
    this.revert = new RevertRecovery(evidence, contracts);
    this.blobWrite = new BlobWriteRecovery(evidence, contracts);
  }

  /**
   * Settles every pending sidecar as far as {@code mode} allows.
   *
   * @throws RecoveryRequired for a sidecar recovery refuses (foreign effect, invariant violation);
   *     it stays on disk
   * @throws UnreadableSidecar for a corrupt or pre-v9 sidecar (kept on disk)
   * @throws dev.omnigraph.api.storage.StorageException when {@code __recovery/} cannot be listed
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
            && !s.get().kind().graphGlobal()) {
          continue; // another branch's problem: its own writes and the next open report it
        }
        throw refused;
      }
      if (o != null && o.action() == Action.DEFERRED
          && (o.branch().equals(branch) || WriterKind.SchemaApply.WIRE.equals(o.writerKind()))) {
        throw new RecoveryRequired(o.operationId(), ROLLBACK_REQUIRED + " (" + o.writerKind() + " on " + o.branch()
            + ": " + o.verdict() + ")");
      }
    }
    return !listed.isEmpty();
  }

  /**
   * Branch create and delete refuse while a schema apply is pending (a schema apply's sidecar is
   * graph-wide): its recovery may still accept a schema the branch
   * would not have been made under.
   *
   * @throws RecoveryRequired naming the pending schema apply
   */
  public void refusePendingSchemaApply(String what) {
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s = sidecars.readIdentity(key);
      if (s.isPresent() && s.get().kind() instanceof WriterKind.SchemaApply) {
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
    boolean global = first.kind().graphGlobal();
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
      return template.settle(s, planFor(s), mode);
    }
  }

  /**
   * Why recovery refuses to settle the sidecar of {@code operationId}: the settle template's own
   * decision from the same evidence {@code settle} would use, without acting on it (a payload that
   * disagrees with its envelope, a foreign commit on a table it owns, a HEAD behind its pin). Empty
   * when recovery would settle it, or the sidecar is gone.
   *
   * @throws UnreadableSidecar when the sidecar cannot be read
   */
  public Optional<String> refusal(String operationId) {
    Optional<RecoverySidecar> read = sidecars.read(SidecarStore.keyOf(operationId));
    if (read.isEmpty()) {
      return Optional.empty();
    }
    Settlement decided = template.decide(read.get(), planFor(read.get()));
    return decided instanceof Settlement.Refuse refuse ? Optional.of(refuse.why()) : Optional.empty();
  }

  /** The settle plan of {@code s}'s writer kind. */
  private SettlePlan planFor(RecoverySidecar s) {
    WriterKind kind = s.kind();
    if (kind instanceof WriterKind.Optimize) {
      return optimize;
    } else if (kind instanceof WriterKind.SchemaApply) {
      return schemaApply;
    } else if (kind instanceof WriterKind.EnsureIndices) {
      return ensureIndices;
    } else if (kind instanceof WriterKind.Revert) {
      return revert;
    } else if (kind instanceof WriterKind.BlobWrite) {
      return blobWrite;
    }
    return write; // mutation, load, branch merge
  }

  /** The sidecar keys pending now. */
  public List<String> pending() {
    return sidecars.list();
  }

  /**
   * The pending sidecars that claim anything named after graph branch {@code branch}: an intent on
   * that branch, or one that writes a table's Lance ref of that name. Unresolved ownership of what
   * a branch-name reuse would reclaim (docs/maintenance.md, "Branch names, deleted
   * and used again").
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
