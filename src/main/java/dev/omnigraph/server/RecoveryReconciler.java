package dev.omnigraph.server;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.engine.Omnigraph;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Settles pending recovery sidecars in the background, so a write-blocking one clears without a
 * restart. Every {@code omnigraph.recovery.reconcile-interval} (first run one interval after start),
 * for each graph with a sidecar listed:
 * <ol>
 *   <li>not open yet: open it read-write, whose full recovery settles everything it can;
 *   <li>open: the roll-forward-only heal (waits for a live writer, never restores); sidecars listed
 *       before and after it are write-blocking, so then a quiesced full {@link Omnigraph#recover()}.
 * </ol>
 * What was listed before and is still listed after is recorded as write-blocking for readiness (a
 * sidecar recovery refuses stays there for an operator). Then every graph with a drift check due
 * ({@link ServedGraph#driftCheckDue}: not checked since start or open, a write's outcome unknown, or
 * marked drifted) gets the drift check, which sets or clears readiness's {@code uncovered_drift}; a
 * drift check also runs once right at start, so a graph that drifted while the service was stopped
 * reads DOWN before any write meets the drift. A single daemon thread; started only when HTTP is
 * enabled, so CLI commands never run it.
 */
@ApplicationScoped
class RecoveryReconciler {

  private static final Logger LOG = Logger.getLogger(RecoveryReconciler.class);

  @Inject GraphRegistry graphs;
  @Inject ServiceMetrics metrics;

  @Inject OmnigraphConfig config;
  @ConfigProperty(name = "quarkus.http.host-enabled", defaultValue = "true") boolean httpEnabled;

  private ScheduledExecutorService executor;

  void onStart(@Observes StartupEvent event) {
    if (!httpEnabled) {
      return;
    }
    graphs.all().forEach(metrics::pendingGauge);
    // The writer lease of every writer graph at start (docs/lease.md): held, or standing by for it.
    graphs.all().forEach(this::claimLease);
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "omnigraph-recovery-reconciler");
      t.setDaemon(true);
      return t;
    });
    // Drift only, and at once: recovery of pending sidecars keeps its first-interval delay.
    executor.execute(() -> graphs.all().forEach(this::checkDriftLogged));
    long millis = Math.max(100, config.recovery().reconcileInterval().toMillis());
    executor.scheduleWithFixedDelay(this::reconcileAll, millis, millis, TimeUnit.MILLISECONDS);
  }

  void onStop(@Observes ShutdownEvent event) {
    if (executor != null) {
      executor.shutdownNow();
      try {
        executor.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void reconcileAll() {
    for (ServedGraph g : graphs.all()) {
      if (g.readOnly()) {
        // A read replica recovers nothing and holds no lease; it picks up schema applies.
        try {
          g.openHandle().ifPresent(h -> {
            if (h.refreshSchema()) {
              LOG.infof("graph %s: schema changed by the writer; serving %s", g.id(), h.schemaIdentity());
            }
          });
        } catch (RuntimeException e) {
          LOG.warnf("graph %s: schema refresh failed, retried next pass: %s", g.id(), e.getMessage());
        }
        continue;
      }
      claimLease(g);
      try {
        reconcile(g);
      } catch (RuntimeException e) {
        // Never let one graph's failure stop the schedule; readiness reports what is still pending.
        LOG.warnf("recovery reconcile of graph %s failed: %s", g.id(), e.getMessage());
      }
      checkDriftLogged(g);
    }
  }

  /**
   * Takes or keeps the graph's writer lease (a standby asks on every pass, so it takes over within
   * the lease TTL plus one pass after the holder dies). The handle still opens on first use or at
   * this pass's recovery of pending sidecars: either way its full recovery runs before any write.
   */
  void claimLease(ServedGraph g) {
    try {
      g.claimLease();
    } catch (RuntimeException e) {
      LOG.warnf("graph %s: writer lease claim failed, retried next pass: %s", g.id(), e.getMessage());
    }
  }

  /** One pass over one graph (see the class comment). */
  void reconcile(ServedGraph g) {
    List<String> before = g.pendingOperations();
    if (before.isEmpty()) {
      return;
    }
    Optional<Omnigraph> open = g.openHandle();
    if (open.isEmpty()) {
      settle(g, () -> g.handle().openRecovery());
    } else {
      settle(g, open.get()::heal);
      if (!survivors(before, g.pendingOperations()).isEmpty()) {
        settle(g, open.get()::recover);
      }
    }
    // Whatever failed above (a refusal, an unreadable sidecar, storage), what is still listed blocks.
    Set<String> blocking = survivors(before, g.pendingOperations());
    g.settleBlocking(Set.copyOf(before), blocking);
    if (!blocking.isEmpty()) {
      LOG.warnf("graph %s: recovery sidecars still pending after reconcile: %s", g.id(), blocking);
    }
  }

  /**
   * The drift check of one graph when one is due (see the class comment), so its cost (one HEAD probe
   * per table pin, under every gate) is paid at start, after an open or an unknown write outcome, and
   * while the graph is already DOWN for drift, never on every pass or request. A marked graph is
   * unmarked once an operator's {@code omnigraph repair --apply} leaves nothing to repair.
   */
  void checkDriftLogged(ServedGraph g) {
    if (!g.driftCheckDue()) {
      return;
    }
    boolean before = g.drifted();
    try {
      g.checkDrift();
    } catch (RuntimeException e) {
      LOG.warnf("graph %s: drift check failed, retried next pass: %s", g.id(), e.getMessage());
      return;
    }
    if (before && !g.drifted()) {
      LOG.infof("graph %s: no uncovered drift left", g.id());
    }
  }

  private void settle(ServedGraph g, Supplier<List<Outcome>> pass) {
    try {
      metrics.recovered(g, pass.get());
    } catch (RecoveryRequired refused) {
      metrics.refused(g);
      LOG.warnf("graph %s: %s", g.id(), refused.getMessage());
    } catch (RuntimeException e) {
      LOG.warnf("graph %s: recovery pass failed: %s", g.id(), e.getMessage());
    }
  }

  private static Set<String> survivors(List<String> before, List<String> after) {
    Set<String> out = new HashSet<>(before);
    out.retainAll(after);
    return out;
  }
}
