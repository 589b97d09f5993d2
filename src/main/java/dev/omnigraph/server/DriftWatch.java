package dev.omnigraph.server;

import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.api.maintenance.RepairReport;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * One served graph's uncovered-drift mark (readiness {@code uncovered_drift}): set by a write
 * refused with {@code UncoveredDrift} or by a drift check that finds drift, cleared only by a check
 * that finds the graph clean and that no refusal overtook. Split from {@link ServedGraph}, which
 * owns the handles the check runs on.
 */
final class DriftWatch {

  private static final Logger LOG = Logger.getLogger(DriftWatch.class);

  private final String graphId;
  /**
   * Uncovered drift was found, by a refused write or a drift check; cleared when a drift check
   * finds the graph clean.
   */
  private volatile boolean drifted;
  /** Bumped by every {@link #mark}, so a check that started before a refusal cannot clear it. */
  private final AtomicLong marks = new AtomicLong();
  /**
   * Drift checks asked for, and the last request a completed check answered; a check is due while
   * they differ. Starts due: what a root holds when the service starts is not known yet (a sidecar
   * deleted while it was stopped leaves drift that no write has met).
   */
  private final AtomicLong requests = new AtomicLong(1);
  private volatile long answered;
  /** The drifted table keys the last check found, for the log line (never the probe body). */
  private volatile String detail = "";
  private final Object checkLock = new Object();

  DriftWatch(String graphId) {
    this.graphId = graphId;
  }

  /** Records that a write on this graph was refused with uncovered drift. */
  void mark() {
    marks.incrementAndGet();
    detail = " (a write was refused with it)";
    drifted = true;
  }

  boolean drifted() {
    return drifted;
  }

  /** What readiness logs about the mark: the drifted tables the last check found, or the refusal. */
  String detail() {
    return detail;
  }

  void request() {
    requests.incrementAndGet();
  }

  boolean due() {
    return drifted || requests.get() != answered;
  }

  /**
   * Runs {@code check} and sets or clears the mark from its report. A pending sidecar leaves the
   * check due (recovery settles it first); a root with no graph has no drift.
   *
   * @throws RuntimeException when the check cannot run (e.g. storage); it stays due
   */
  void check(Supplier<RepairReport> check) {
    synchronized (checkLock) {
      long request = requests.get();
      long marksBefore = marks.get();
      Optional<RepairReport> report;
      try {
        report = Optional.of(check.get());
      } catch (RecoveryPending pending) {
        return;
      } catch (NotFound noGraph) {
        if (!"graph".equals(noGraph.kind())) {
          throw noGraph;
        }
        report = Optional.empty();
      }
      if (report.isPresent() && report.get().invariantViolations().stream().anyMatch(v -> v.liveHead() == null)) {
        // A pinned table could not be read (the store may be down): the answer is unknown, and an
        // unknown answer must neither clear a mark nor set one. The check stays due.
        LOG.warnf("graph %s: drift check inconclusive, a pinned table could not be read: %s", graphId,
            report.get().invariantViolations());
        return;
      }
      // What makes writes refuse with UncoveredDrift: drifted pins and unreferenced first-touch refs.
      // A HEAD behind its pin is an invariant violation repair only reports; it is logged, not marked.
      List<String> found = report.stream().flatMap(r -> Stream.concat(
          r.drift().stream().map(d -> d.branch() + " " + d.tableKey()),
          r.unreferencedRefs().stream().map(u -> u.branch() + " " + u.tableKey() + " (unreferenced ref)")))
          .sorted().toList();
      report.filter(r -> !r.invariantViolations().isEmpty()).ifPresent(r -> LOG.warnf(
          "graph %s: live HEAD behind the manifest pin: %s", graphId, r.invariantViolations()));
      if (!found.isEmpty()) {
        detail = " on " + String.join(", ", found);
        drifted = true;
      } else if (marks.get() == marksBefore) {
        // A write refused after the check began may have met drift that appeared since: keep its mark.
        drifted = false;
      }
      answered = request;
    }
  }
}
