package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.InvariantViolation;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TxInfo;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * {@code repair}: finds uncovered drift (what writers refuse as {@code UncoveredDrift}, pointing to
 * repair; docs/maintenance.md, "repair") and, with apply, resolves it the way recovery rolls back —
 * Lance restore to the pin, then one publish of the restored heads per graph branch — so that
 * afterwards manifest pin == live HEAD with the pinned content. Drift is never adopted into the
 * manifest: no recovery intent vouches for it.
 *
 * <p>Only a pin on the table branch its graph branch owns (main's tables for main, Lance branch
 * {@code B} for graph branch {@code B}) can drift: a pin inherited from a parent branch lags that
 * parent's HEAD by design once the parent writes on.
 */
final class Repair {

  private static final Logger LOG = Logger.getLogger(Repair.class);

  private final Maintenance m;

  Repair(Maintenance m) {
    this.m = m;
  }

  /** A drifted pin and what the report says about it. */
  private record Drift(String branch, TablePin pin, long liveHead, List<RepairReport.Transaction> transactions) {}

  /** An unreferenced ref and why it must stay (null: it may go). */
  private record Unreferenced(String branch, TablePin pin, NativeBranch ref, long head,
      List<RepairReport.Transaction> transactions, String keptBecause) {}

  private record Inspection(int pinsChecked, List<Drift> drift, List<Unreferenced> refs,
      List<RepairReport.HeadBehindPin> violations, List<LeftoverRefs.Leftover> leftovers,
      List<RepairReport.Residue> residue) {}

  RepairReport run(boolean apply) {
    return run(apply, true);
  }

  /**
   * @param explain whether to read each drifted version's Lance transaction; without it the
   *     inspection costs one HEAD probe per table pin (plus, on a named branch, one branch listing
   *     per inherited pin), whatever the length of the drift or the history
   */
  RepairReport run(boolean apply, boolean explain) {
    m.requireNoPendingRecovery("repair");
    try (GateManager.Held held = m.acquireAll()) {
      // A writer may have armed a sidecar while this waited for the gates.
      m.requireNoPendingRecovery("repair");
      Inspection found = inspect(explain);
      if (!found.violations().isEmpty()) {
        LOG.errorf("repair: invariant violation, live HEAD behind the manifest pin: %s", found.violations());
      }
      if (!apply) {
        return report(false, found, Map.of(), Set.of(), List.of(), List.of());
      }
      if (!found.violations().isEmpty()) {
        throw new InvariantViolation("repair --apply", found.violations().stream().map(v -> v.branch() + " "
            + v.tableKey() + " (" + v.location() + " " + v.nativeBranch() + ") pinned at " + v.pinnedVersion()
            + ": " + v.detail()).toList());
      }
      return apply(found);
    }
  }

  private Inspection inspect(boolean explain) {
    int checked = 0;
    List<Drift> drift = new ArrayList<>();
    List<Unreferenced> refs = new ArrayList<>();
    List<RepairReport.HeadBehindPin> violations = new ArrayList<>();
    Set<TableRef> livePinned = new HashSet<>();
    Map<String, ManifestState> states = new LinkedHashMap<>();
    for (String branch : m.liveBranches()) {
      ManifestState state = m.manifest.state(branch);
      states.put(branch, state);
      state.tables().values().forEach(p -> livePinned.add(p.ref()));
    }
    for (Map.Entry<String, ManifestState> e : states.entrySet()) {
      String branch = e.getKey();
      Optional<String> own = Maintenance.ownTableBranch(branch);
      for (TablePin pin : e.getValue().tables().values()) {
        checked++;
        long head;
        try {
          head = m.tables.head(pin.ref());
        } catch (RuntimeException unreadable) {
          violations.add(violation(branch, pin, null, "the pinned table branch cannot be read: "
              + unreadable.getMessage()));
          continue;
        }
        if (head < pin.version()) {
          violations.add(violation(branch, pin, head, "live HEAD " + head + " is behind the pin " + pin.version()));
        } else if (head > pin.version() && pin.nativeBranch().equals(own)) {
          drift.add(new Drift(branch, pin, head, explain
              ? transactions(pin.ref(), pin.version() + 1, head)
              : List.of()));
        } else if (own.isPresent() && !pin.nativeBranch().equals(own)) {
          unreferenced(branch, pin, livePinned, explain).ifPresent(refs::add);
        }
      }
    }
    // Only the thorough run looks for them: one branch listing per table, and they block nothing,
    // so the readiness check (explain off) leaves them out.
    List<LeftoverRefs.Leftover> leftovers = explain ? m.leftoverRefs() : List.of();
    // Residue likewise blocks nothing and costs listings of the layout: the thorough run only. It is
    // reported, never repaired; cleanup removes what it can prove safe.
    List<RepairReport.Residue> residue = explain ? m.residueScan().find() : List.of();
    return new Inspection(checked, drift, refs, violations, leftovers, residue);
  }

  /**
   * A table's Lance branch named after graph branch {@code branch}, which the branch's pin does not
   * reference: the write path refuses the branch's first write to that table while it exists.
   */
  private Optional<Unreferenced> unreferenced(String branch, TablePin pin, Set<TableRef> livePinned,
      boolean explain) {
    List<NativeBranch> all = m.tables.branches().list(pin.location());
    Optional<NativeBranch> ref = all.stream().filter(b -> b.name().equals(branch)).findFirst();
    if (ref.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> name = Optional.of(branch);
    TableRef leftover = TableRef.of(pin.location(), name);
    long head = m.tables.head(leftover);
    String kept = null;
    if (livePinned.contains(leftover)) {
      kept = "a live graph branch pins it";
    } else {
      List<String> children = all.stream().filter(b -> b.parent().equals(name)).map(NativeBranch::name).toList();
      if (!children.isEmpty()) {
        kept = "Lance branches were forked from it: " + children;
      }
    }
    return Optional.of(new Unreferenced(branch, pin, ref.get(), head,
        explain ? transactions(TableRef.of(pin.location(), name), ref.get().parentVersion() + 1, head) : List.of(), kept));
  }

  private RepairReport apply(Inspection found) {
    Map<String, List<TableVersionUpdate>> updates = new LinkedHashMap<>();
    Map<Drift, Long> restored = new LinkedHashMap<>();
    for (Drift d : found.drift()) {
      TablePin pin = d.pin();
      long head = m.tables.versions().restore(pin.ref(), pin.version());
      Failpoints.hit(Failpoint.REPAIR_AFTER_RESTORE);
      long rows = m.tables.countRows(pin.ref().at(head));
      if (rows != pin.rowCount()) {
        // A restore must reproduce the pinned content; publishing anything else would adopt drift.
        throw new IllegalStateException("repair of " + pin.tableKey() + " on " + d.branch() + ": the restore of "
            + "version " + pin.version() + " landed as version " + head + " with " + rows + " rows, but the pin "
            + "records " + pin.rowCount() + "; not publishing it");
      }
      restored.put(d, head);
      updates.computeIfAbsent(d.branch(), b -> new ArrayList<>()).add(new TableVersionUpdate(pin.tableKey(),
          pin.identity(), pin.location(), head, pin.nativeBranch(), pin.rowCount()));
    }
    List<RepairReport.RepairCommit> commits = new ArrayList<>();
    for (Map.Entry<String, List<TableVersionUpdate>> e : updates.entrySet()) {
      String branch = e.getKey();
      // The branch's identity and effective head as they are now, under every gate: a repair
      // commit descends from whatever the branch last published.
      BranchAuthority authority = m.manifest.capture(branch);
      ManifestBatchPublisher.Published published = m.publisher.publish(new ManifestBatchPublisher.Intent(branch,
          authority.nativeIdentity(), authority.head(), List.of(), e.getValue(), Ulid.next(),
          Optional.of(Maintenance.REPAIR_ACTOR), Optional.empty(), dev.omnigraph.util.Micros.now()));
      commits.add(new RepairReport.RepairCommit(branch, published.commitId(), published.manifestVersion(),
          e.getValue().stream().map(u -> u.tableKey().toString()).toList()));
      LOG.infof("repair: published restored heads of %s on %s as commit %s", e.getValue().stream()
          .map(TableVersionUpdate::tableKey).toList(), branch, published.commitId());
    }
    Set<Unreferenced> removed = new HashSet<>();
    for (Unreferenced u : found.refs()) {
      if (u.keptBecause() == null) {
        m.tables.branches().delete(TableRef.branch(u.pin().location(), u.branch()));
        removed.add(u);
        LOG.infof("repair: deleted unreferenced Lance branch %s of %s", u.branch(), u.pin().tableKey());
      }
    }
    List<LeftoverRefs.Leftover> gone = m.removeLeftovers(found.leftovers());
    return report(true, found, restored, removed, commits, gone);
  }

  private static RepairReport report(boolean applied, Inspection found, Map<Drift, Long> restored,
      Set<Unreferenced> removed, List<RepairReport.RepairCommit> commits, List<LeftoverRefs.Leftover> gone) {
    List<RepairReport.TableDrift> drift = found.drift().stream().map(d -> new RepairReport.TableDrift(d.branch(),
        d.pin().tableKey().toString(), d.pin().location(), d.pin().nativeBranch().orElse(null), d.pin().version(), d.liveHead(),
        d.transactions(), restored.get(d))).toList();
    List<RepairReport.UnreferencedRef> refs = found.refs().stream().map(u -> new RepairReport.UnreferencedRef(
        u.branch(), u.pin().tableKey().toString(), u.pin().location(), u.ref().name(), u.ref().parentVersion(), u.head(),
        u.transactions(), removed.contains(u), applied ? u.keptBecause() : null)).toList();
    List<RepairReport.LeftoverRef> leftovers = found.leftovers().stream()
        .map(l -> l.reported(gone.contains(l))).toList();
    return new RepairReport(applied, found.pinsChecked(), drift, refs, found.violations(), leftovers, commits,
        found.residue());
  }

  /** The Lance transactions of versions {@code from … to} of a table branch, oldest first. */
  private List<RepairReport.Transaction> transactions(TableRef branch, long from, long to) {
    List<RepairReport.Transaction> out = new ArrayList<>();
    for (long v = from; v <= to; v++) {
      try {
        Optional<TxInfo> tx = m.tables.transactionAt(branch.at(v));
        if (tx.isEmpty()) {
          out.add(new RepairReport.Transaction(v, null, null, null, null, null, "no recorded transaction"));
        } else {
          TxInfo t = tx.get();
          out.add(new RepairReport.Transaction(v, t.uuid(), t.readVersion(), t.operation(), t.properties(),
              t.restoredVersion().isPresent() ? t.restoredVersion().getAsLong() : null, null));
        }
      } catch (RuntimeException unreadable) {
        // E.g. a version a cleanup removed: report it, the rest of the chain is still useful.
        out.add(new RepairReport.Transaction(v, null, null, null, null, null, String.valueOf(unreadable.getMessage())));
      }
    }
    return out;
  }

  private static RepairReport.HeadBehindPin violation(String branch, TablePin pin, Long head, String detail) {
    return new RepairReport.HeadBehindPin(branch, pin.tableKey().toString(), pin.location(), pin.nativeBranch().orElse(null),
        pin.version(), head, detail);
  }

}
