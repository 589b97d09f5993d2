package dev.omnigraph.server;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Graceful drain on shutdown (SIGTERM, docs/lease.md): every graph stops admitting writes at once (503
 * with {@code Retry-After}; readiness DOWN {@code draining}, liveness stays UP), the writes already
 * running finish within {@code omnigraph.drain.grace} (default 30 s), and then the graphs close,
 * which releases each writer lease, so a standby takes over at once instead of after the TTL.
 * Reads are still served during the drain.
 */
@ApplicationScoped
class WriterDrain {

  private static final Logger LOG = Logger.getLogger(WriterDrain.class);

  @Inject GraphRegistry graphs;

  @Inject OmnigraphConfig config;
  @ConfigProperty(name = "quarkus.http.host-enabled", defaultValue = "true") boolean httpEnabled;

  private boolean drained;

  /**
   * The drain runs here, in Quarkus's pre-shutdown phase ({@code quarkus.shutdown.delay-enabled}),
   * while the HTTP server still accepts requests: that is what lets a new write get a 503 with
   * {@code Retry-After} and an in-flight write send its answer. By {@link ShutdownEvent} the
   * listener is closed (a connection would be refused).
   */
  void onShutdownStarted(@Observes io.quarkus.runtime.ShutdownDelayInitiatedEvent event) {
    drain(config.drain().grace());
  }

  /** The fallback when the pre-shutdown phase did not run (e.g. in tests): nothing left to wait for then. */
  void onStop(@Observes ShutdownEvent event) {
    drain(config.drain().grace());
  }

  /** Refuses new writes, waits up to {@code grace} for in-flight ones, then closes every graph. */
  synchronized void drain(Duration grace) {
    if (drained || !httpEnabled) {
      return;
    }
    drained = true;
    graphs.all().forEach(ServedGraph::startDrain);
    long deadline = System.nanoTime() + grace.toNanos();
    int inFlight = inFlight();
    if (inFlight > 0) {
      LOG.infof("draining: %d writes in flight, waiting up to %s", inFlight, grace);
    }
    while ((inFlight = inFlight()) > 0 && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
    }
    if (inFlight > 0) {
      LOG.warnf("drain grace %s over with %d writes still in flight; closing anyway (their sidecars settle"
          + " them at the next writer's recovery)", grace, inFlight);
    }
    graphs.all().forEach(g -> {
      try {
        g.close(); // releases the writer lease
      } catch (RuntimeException e) {
        LOG.warnf("graph %s: close at shutdown failed: %s", g.id(), e.getMessage());
      }
    });
    LOG.infof("drained: writer leases released");
  }

  private int inFlight() {
    return graphs.all().stream().mapToInt(ServedGraph::inFlightWrites).sum();
  }
}
