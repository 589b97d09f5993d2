package dev.omnigraph.maintenance;

import dev.omnigraph.table.TableRef;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.api.maintenance.OptimizeReport;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.OptimizeRecovery;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.WriterKind;
import dev.omnigraph.write.WriterParts;
import dev.omnigraph.write.CommitPlan;
import dev.omnigraph.write.CommitTemplate;
import dev.omnigraph.table.CompactionOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableHeadMoved;
import dev.omnigraph.table.TableStats;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import dev.omnigraph.api.UncoveredDrift;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The Optimize writer, compaction half (its sidecar: docs/recovery.md, "Optimize
 * sidecars"): compacts the data tables of one graph branch
 * whose fragment or deletion-file counts passed the {@link OptimizeSettings} thresholds and
 * publishes the compacted versions as one maintenance commit (actor {@value #ACTOR}).
 *
 * <p>Per run: roll-forward-only recovery barrier; schema → branch → sorted-table gates; re-list
 * sidecars under the gates (a pending one on this branch or these tables is
 * {@link RecoveryRequired}); one fresh manifest snapshot (authority and pins); per candidate table
 * whose pin lives on the branch's own Lance ref (main's tables for {@code main}; a pin a branch still
 * inherits is never forked by maintenance), the fragment statistics of the pinned version and live
 * HEAD == pin ({@link UncoveredDrift} otherwise); arm one v9 sidecar of writer kind
 * {@value WriterKind.Optimize#WIRE} naming every productive table; compact each; confirm the
 * achieved versions; publish once through {@link ManifestBatchPublisher#publish} with the exact
 * captured head; delete the sidecar.
 *
 * <p>Outcomes: before the arm, typed and effect-free ({@link UncoveredDrift},
 * {@link RecoveryRequired} for a pending sidecar); after it, every failure is
 * {@link RecoveryRequired} with the sidecar kept — recovery then rolls the compactions forward (a
 * compaction never changes content) or discards an effect-free intent ({@link OptimizeRecovery}).
 */
public final class Optimize {

  /** The actor of the maintenance commits Optimize publishes. */
  public static final String ACTOR = "omnigraph:optimize";

  /** Whether a table with {@code stats} is due for compaction under {@code settings}. */
  public static boolean due(OptimizeSettings settings, TableStats stats) {
    return settings.due(stats.fragments(), stats.fragmentsWithDeletions(), stats.unindexedFragments());
  }

  private static final Logger LOG = Logger.getLogger(Optimize.class);

  private final WriterParts parts;

  public Optimize(WriterParts parts) {
    this.parts = Objects.requireNonNull(parts);
  }

  /**
   * Compacts the tables of {@code branch} that are due under {@code settings}' thresholds.
   *
   * @param candidates table keys to consider; empty: every table of the branch
   * @param force compact every candidate with more than one fragment or any deletion file,
   *     regardless of the thresholds (the explicit {@code omnigraph optimize})
   * @param progress told as each planned table's compaction begins, with its pinned row count (the
   *     rows the compaction rewrites at most)
   * @return what was compacted and the maintenance commit, if one was published
   * @throws UncoveredDrift when a due table's live HEAD is not its manifest pin (nothing written)
   * @throws RecoveryRequired for a pending sidecar on this branch or these tables, or any failure
   *     after the sidecar was armed (kept for recovery)
   */
  public OptimizeReport run(String branch, Collection<TableKey> candidates, OptimizeSettings settings, boolean force,
      ProgressListener progress) {
    // Take a turn in the branch's writer queue like an appender: queued appenders then do not have
    // to reprepare around the maintenance commit (the queue is taken before the gates, as they do).
    try (GateManager.Held queued = parts.gates().queue(branch)) {
      return runQueued(branch, candidates, settings, force, progress);
    }
  }

  private OptimizeReport runQueued(String branch, Collection<TableKey> candidates, OptimizeSettings settings,
      boolean force, ProgressListener progress) {
    // Entry barrier: settle what needs no restore; a rollback-class sidecar here refuses.
    parts.recovery().heal(branch);
    Set<TableKey> keys = new TreeSet<>(candidates.isEmpty() ? parts.manifest().state(branch).tables().keySet() : candidates);
    List<String> tableGates = keys.stream().map(k -> GateManager.tableGate(k, branch)).toList();
    try (GateManager.Held held = parts.gates().acquire(List.of(branch), tableGates)) {
      BranchAuthority authority = parts.manifest().capture(branch);
      ManifestState state = authority.state();
      List<TablePin> pins = new ArrayList<>();
      for (TableKey key : keys) {
        TablePin pin = state.tables().get(key);
        if (pin != null) {
          pins.add(pin);
        }
      }
      Set<TableRef> refs = new java.util.HashSet<>();
      pins.forEach(p -> refs.add(p.ref()));
      parts.template().barrier(s -> s.concerns(branch, refs), "optimizing");
      Optional<String> identity = authority.nativeIdentity();
      Optional<String> head = authority.head();
      Optional<String> own = branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch);

      List<Planned> planned = new ArrayList<>();
      List<String> skipped = new ArrayList<>();
      for (TablePin pin : pins) {
        if (!pin.nativeBranch().equals(own)) {
          skipped.add(pin.tableKey() + ": inherited from " + pin.nativeBranch().orElse("main"));
          continue;
        }
        TableStats stats = parts.tables().compaction().stats(pin.ref(), OptionalLong.of(pin.version()));
        // Explicit runs also take a table whose only work is an index fold (or a missing key index):
        // "every index current" is part of what an explicit optimize promises. Missing property
        // indexes are not work here (EnsureIndices builds them), so they never make a table due.
        boolean due = force
            ? stats.fragments() > 1 || stats.fragmentsWithDeletions() > 0 || stats.unindexedFragments() > 0
            : due(settings, stats);
        if (!due) {
          skipped.add(pin.tableKey() + ": " + stats.fragments() + " fragments, " + stats.fragmentsWithDeletions()
              + " with deletions");
          continue;
        }
        long live = parts.tables().head(pin.ref());
        if (live != pin.version()) {
          throw new UncoveredDrift(pin.tableKey().toString(), "live HEAD is version " + live + " but the manifest pins "
              + pin.version());
        }
        planned.add(new Planned(pin, stats));
      }
      if (planned.isEmpty()) {
        return new OptimizeReport(branch, Optional.empty(), List.of(), skipped);
      }
      return parts.template().commit(new Plan(branch, identity, head, planned, skipped, progress));
    }
  }

  private record Planned(TablePin pin, TableStats stats) {}

  /**
   * Optimize's plan: compact each planned table in turn (Lance mints each compaction, so the record
   * is the bounded maintenance payload: read versions, achieved versions once confirmed).
   */
  private final class Plan implements CommitPlan<List<OptimizeReport.Table>, OptimizeReport> {
    private final String branch;
    private final Optional<String> identity;
    private final Optional<String> head;
    private final List<Planned> planned;
    private final List<String> skipped;
    private final ProgressListener progress;
    private final RecoverySidecar sidecar;

    Plan(String branch, Optional<String> identity, Optional<String> head, List<Planned> planned, List<String> skipped,
        ProgressListener progress) {
      this.branch = branch;
      this.identity = identity;
      this.head = head;
      this.planned = planned;
      this.skipped = skipped;
      this.progress = progress;
      long createdAt = dev.omnigraph.util.Micros.now();
      this.sidecar = new RecoverySidecar(new WriterKind.Optimize(), Ulid.next(), ACTOR,
          new RecoverySidecar.Authority(branch, identity.orElse(null), head.orElse(null), parts.acceptedIdentity()),
          planned.stream().map(p -> Optimize.intent(p.pin, p.pin.version())).toList(),
          RecoverySidecar.State.ARMED,
          new RecoverySidecar.Lineage(Ulid.next(), head.orElse(null), createdAt, Ulid.next()),
          createdAt);
    }

    @Override
    public Header header() {
      // Maintenance publishes from the publisher's own read of the authority.
      return new Header(Failpoint.WriterPhases.OPTIMIZE, "optimize of " + branch, Optional.of(sidecar), Optional.empty());
    }

    @Override
    public List<OptimizeReport.Table> effect(CommitTemplate.Armed armed) {
      String operationId = sidecar.operationId();
      List<OptimizeReport.Table> done = new ArrayList<>();
      for (Planned p : planned) {
        TablePin pin = p.pin;
        progress.step(pin.tableKey().toString(), done.size(), planned.size(), pin.rowCount());
        CompactionOutcome out;
        try {
          out = parts.tables().compaction().compact(pin.at());
        } catch (TableHeadMoved moved) {
          if (!armed.effected()) {
            throw new CommitTemplate.EffectFree(() -> new UncoveredDrift(pin.tableKey().toString(), moved.getMessage()));
          }
          throw new RecoveryRequired(operationId, "optimize of " + branch + ": " + moved.getMessage(), moved);
        }
        if (out.moved()) {
          armed.effecting();
        }
        if (!out.contentPreserving()) {
          throw new RecoveryRequired(operationId, "optimize of " + branch + " found a foreign commit on "
              + pin.tableKey() + ": " + out.detail());
        }
        done.add(new OptimizeReport.Table(pin.tableKey().toString(), pin.location(), pin.nativeBranch().orElse(null),
            pin.version(), out.version(), out.before().fragments(), out.after().fragments(),
            out.before().fragmentsWithDeletions(), out.after().fragmentsWithDeletions(),
            out.after().staleIndexes()));
        if (!out.after().staleIndexes().isEmpty()) {
          LOG.warnf("optimize of %s: %s still leaves fragments outside %s (reads scan them; the next optimize"
              + " tries again)", branch, pin.tableKey(), out.after().staleIndexes());
        }
        Failpoints.hit(Failpoint.OPTIMIZE_AFTER_COMPACT);
      }
      return done;
    }

    /** Nothing reported a move: still every HEAD at its pin (an unreadable one is not proof). */
    @Override
    public boolean untouched() {
      try {
        for (Planned p : planned) {
          if (parts.tables().head(p.pin.ref()) != p.pin.version()) {
            return false;
          }
        }
        return true;
      } catch (RuntimeException unreadable) {
        return false;
      }
    }

    @Override
    public boolean publishes(List<OptimizeReport.Table> done) {
      return done.stream().anyMatch(t -> t.toVersion() > t.fromVersion());
    }

    @Override
    public RecoverySidecar confirmed(RecoverySidecar armed, List<OptimizeReport.Table> done) {
      return armed.withTables(armed.tables().stream().map(t -> {
        long achieved = done.stream().filter(d -> d.tableKey().equals(t.tableKey().toString())).findFirst()
            .map(OptimizeReport.Table::toVersion).orElse(t.expectedVersion());
        return withPostCommitVersion(t, achieved);
      }).toList());
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, List<OptimizeReport.Table> done) {
      List<TableVersionUpdate> updates = new ArrayList<>();
      for (Planned p : planned) {
        done.stream().filter(t -> t.tableKey().equals(p.pin.tableKey().toString()) && t.toVersion() > t.fromVersion())
            .findFirst().ifPresent(t -> updates.add(new TableVersionUpdate(p.pin.tableKey(), p.pin.identity(),
                p.pin.location(), t.toVersion(), p.pin.nativeBranch(), p.pin.rowCount())));
      }
      return new ManifestBatchPublisher.Intent(branch, identity, head, List.of(), updates,
          sidecar.lineage().commitId(), Optional.of(ACTOR), Optional.empty(), sidecar.lineage().createdAtMicros());
    }

    @Override
    public OptimizeReport result(List<OptimizeReport.Table> done,
        Optional<ManifestBatchPublisher.Published> published) {
      if (published.isEmpty()) {
        return new OptimizeReport(branch, Optional.empty(), done, skipped);
      }
      LOG.infof("optimize of %s: compacted %s, maintenance commit %s", branch,
          done.stream().filter(t -> t.toVersion() > t.fromVersion()).map(t -> t.tableKey() + " v" + t.fromVersion()
              + "->v" + t.toVersion() + " (" + t.fragmentsBefore() + "->" + t.fragmentsAfter() + " fragments)")
              .toList(), published.get().commitId());
      return new OptimizeReport(branch, Optional.of(published.get().commitId()), done, skipped);
    }
  }

  private static RecoverySidecar.TableIntent intent(TablePin pin, long postCommitVersion) {
    // No caller-minted transaction: Lance mints the compaction's uuid (bounded maintenance
    // payload). read_version = the pin; post_commit_version is the pin until confirmed.
    return new RecoverySidecar.TableIntent(pin.tableKey(), pin.identity().stableTableId(),
        pin.identity().incarnationId(), pin.location(), pin.nativeBranch().orElse(null), pin.version(), pin.version(),
        null, postCommitVersion, pin.rowCount(), false, null, null);
  }

  private static RecoverySidecar.TableIntent withPostCommitVersion(RecoverySidecar.TableIntent t, long v) {
    return new RecoverySidecar.TableIntent(t.tableKey(), t.stableTableId(), t.incarnationId(), t.location(),
        t.nativeBranch(), t.expectedVersion(), t.readVersion(), t.uuid(), v, t.rowCount(), t.firstTouch(),
        t.firstTouchFrom(), t.firstTouchRefIdentity());
  }


}
