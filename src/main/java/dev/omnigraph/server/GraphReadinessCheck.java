package dev.omnigraph.server;

import dev.omnigraph.storage.StorageException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of every served graph, named {@code omnigraph-graphs}. For each graph {@code <id>} it
 * lists the pending recovery sidecars now ({@code <id>.pending_recovery}: operation ids,
 * {@code <id>.pending_recovery_sidecars}: their number) and the write-blocking ones
 * ({@code <id>.write_blocking}, see {@link ServedGraph#writeBlocking}). DOWN while any graph has a
 * write-blocking sidecar or cannot be listed; {@link RecoveryReconciler} clears it without a restart.
 * Listing never opens a graph.
 */
@Readiness
@ApplicationScoped
class GraphReadinessCheck implements HealthCheck {

  static final String NAME = "omnigraph-graphs";

  @Inject GraphRegistry graphs;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder b = HealthCheckResponse.named(NAME);
    boolean up = true;
    for (ServedGraph g : graphs.all()) {
      b.withData(g.id() + ".uri", g.uri());
      b.withData(g.id() + ".open", g.openHandle().isPresent());
      try {
        List<String> pending = g.pendingOperations();
        Set<String> blocking = new TreeSet<>(g.writeBlocking(pending));
        b.withData(g.id() + ".pending_recovery", String.join(",", pending));
        b.withData(g.id() + ".pending_recovery_sidecars", pending.size());
        b.withData(g.id() + ".write_blocking", String.join(",", blocking));
        up &= blocking.isEmpty();
      } catch (StorageException e) {
        b.withData(g.id() + ".error", e.kind() + ": " + e.getMessage());
        up = false;
      }
    }
    return b.status(up).build();
  }
}
