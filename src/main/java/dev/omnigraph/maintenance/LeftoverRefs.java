package dev.omnigraph.maintenance;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.table.NativeBranch;
import dev.omnigraph.table.TableRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Data-table Lance refs left behind by a graph branch that no longer exists: what deleting graph
 * branch {@code B} removes, what re-creating {@code B} reclaims, what {@code repair} reports and
 * what {@code cleanup} removes.
 *
 * <p>A graph branch's first write to a table forks the table's Lance ref named after it, so a ref
 * {@code B} on a table belongs to graph branch {@code B}. Once {@code B}'s manifest branch is
 * gone, the ref is garbage unless something still needs it:
 * <ul>
 *   <li>a live graph branch's state pins it (a branch created from {@code B}: deleting {@code B}
 *       is refused while one exists, so this is a belt for older roots);</li>
 *   <li>a pending recovery sidecar names it (its recovery decides whether the ref stays);</li>
 *   <li>another Lance ref was forked from it (a merge's ref-only fork into a branch that owned no
 *       ref of the table reads the source's files; Lance itself refuses that delete, "Branch B is
 *       referenced by …"), unless that child is garbage too, in which case the child goes first.</li>
 * </ul>
 * Every caller holds the root's exclusive gates, so no writer of this process is mid-flight.
 */
final class LeftoverRefs {

  private static final Logger LOG = Logger.getLogger(LeftoverRefs.class);

  /**
   * One leftover ref.
   *
   * @param location the table's dataset key
   * @param tableKey {@code node:T}/{@code edge:T} as the newest state naming the location says
   * @param ref the Lance ref
   * @param keptBecause why it must stay (null: it may go)
   */
  record Leftover(String location, TableKey tableKey, NativeBranch ref, String keptBecause) {

    /** The leftover as the report shows it, removed or kept. */
    RepairReport.LeftoverRef reported(boolean removed) {
      return new RepairReport.LeftoverRef(ref.name(), tableKey.toString(), location, ref.parent().orElse(null),
          ref.parentVersion(), removed, keptBecause);
    }
    boolean removable() {
      return keptBecause == null;
    }
  }

  private final Maintenance m;
  private final Predicate<String> liveName;
  private final Map<String, TableKey> locations;
  private final Supplier<Set<TableRef>> livePinned;
  private Set<TableRef> pinned;

  /**
   * @param liveName whether a name is a live graph branch's (main is always live)
   * @param locations the tables to search: dataset key → table key
   * @param livePinned every (table, Lance branch) a live graph branch's state pins; asked only
   *     once a candidate ref is found (reading every branch's state is the expensive part)
   */
  LeftoverRefs(Maintenance m, Predicate<String> liveName, Map<String, TableKey> locations,
      Supplier<Set<TableRef>> livePinned) {
    this.m = m;
    this.liveName = liveName;
    this.locations = new TreeMap<>(locations);
    this.livePinned = livePinned;
  }

  /** The tables of {@code states}: dataset key → table key. */
  static Map<String, TableKey> locationsOf(Collection<ManifestState> states) {
    Map<String, TableKey> out = new TreeMap<>();
    states.forEach(s -> s.tables().values().forEach(p -> out.putIfAbsent(p.location(), p.tableKey())));
    return out;
  }

  /** Every (table, Lance branch) that {@code states} pin. */
  static Set<TableRef> pinsOf(Collection<ManifestState> states) {
    Set<TableRef> out = new HashSet<>();
    states.forEach(s -> s.tables().values().forEach(p -> out.add(
        p.ref())));
    return out;
  }

  private boolean pinnedByLiveBranch(String location, String ref) {
    if (pinned == null) {
      pinned = livePinned.get();
    }
    return pinned.contains(new TableRef(location, Optional.of(ref)));
  }

  /**
   * The leftover refs named {@code name} (or, with {@code name} empty, named after any graph branch
   * that is not live), in a safe removal order: a removable child before its parent.
   *
   * @param claimed names of refs a pending sidecar claims (kept)
   */
  List<Leftover> find(Optional<String> name, Set<String> claimed) {
    List<Leftover> out = new ArrayList<>();
    for (Map.Entry<String, TableKey> e : locations.entrySet()) {
      List<NativeBranch> refs = m.tables.branches().list(e.getKey());
      Set<String> seen = new HashSet<>();
      for (NativeBranch ref : refs) {
        boolean wanted = name.map(n -> n.equals(ref.name())).orElse(!liveName.test(ref.name()));
        if (wanted) {
          visit(e.getKey(), e.getValue(), ref, refs, claimed, seen, out);
        }
      }
    }
    return out;
  }

  /** Adds {@code ref} after its removable leftover children; returns whether it may go. */
  private boolean visit(String location, TableKey tableKey, NativeBranch ref, List<NativeBranch> all, Set<String> claimed,
      Set<String> seen, List<Leftover> out) {
    if (!seen.add(ref.name())) {
      return out.stream().anyMatch(l -> l.location().equals(location) && l.ref().name().equals(ref.name())
          && l.removable());
    }
    String kept = null;
    if (liveName.test(ref.name())) {
      kept = "graph branch '" + ref.name() + "' is live"; // its own ref: repair's unreferenced check
    } else if (pinnedByLiveBranch(location, ref.name())) {
      kept = "a live graph branch pins it";
    } else if (claimed.contains(ref.name())) {
      kept = "a pending recovery sidecar claims it";
    } else {
      List<String> needed = new ArrayList<>();
      for (NativeBranch child : all) {
        if (child.parent().equals(Optional.of(ref.name()))
            && !visit(location, tableKey, child, all, claimed, seen, out)) {
          needed.add(child.name());
        }
      }
      if (!needed.isEmpty()) {
        kept = "Lance branches " + needed + " of this table were forked from it and are still needed";
      }
    }
    if (kept != null && !liveName.test(ref.name())) {
      out.add(new Leftover(location, tableKey, ref, kept));
    } else if (kept == null) {
      out.add(new Leftover(location, tableKey, ref, null));
    }
    return kept == null;
  }

  /**
   * Deletes the removable ones, in order. A failure is logged and stops nothing: what stays is
   * found again by the next create of the name, {@code repair} and {@code cleanup}.
   *
   * @return the ones deleted
   */
  List<Leftover> remove(List<Leftover> found) {
    List<Leftover> removed = new ArrayList<>();
    for (Leftover l : found) {
      if (!l.removable()) {
        continue;
      }
      try {
        m.tables.branches().delete(TableRef.branch(l.location(), l.ref().name()));
        removed.add(l);
        LOG.infof("removed leftover Lance branch %s of %s (%s)", l.ref().name(), l.tableKey(), l.location());
      } catch (RuntimeException e) {
        LOG.warnf("leftover Lance branch %s of %s (%s) could not be removed, left for cleanup: %s", l.ref().name(),
            l.tableKey(), l.location(), e.getMessage());
      }
    }
    return removed;
  }
}
