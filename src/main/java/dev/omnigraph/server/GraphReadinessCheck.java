package dev.omnigraph.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of every served graph, named {@code omnigraph-graphs}: DOWN while writes to any graph
 * are blocked ({@link ServedGraph#writeBlock}), and {@link RecoveryReconciler} clears what it can
 * without a restart. The probe is unauthenticated, so per graph {@code <id>} it carries states
 * only: {@code <id>.state} ({@code up} or {@code down}), {@code <id>.open} (handle opened) and, when
 * down, {@code <id>.reason} (a {@link ServedGraph.WriteBlock} code such as {@code pending_sidecar}).
 * Storage locations, operation ids and storage error text go to the log, never into the body. A
 * graph whose root holds no graph yet is {@code down} with reason {@code no_graph}; it takes the
 * whole service DOWN only when no served graph holds one (a {@code serve --store DIR} on
 * an empty directory answered 404 everywhere while readiness said UP).
 * Probing never opens a graph and reads no table: drift is what the last drift check found
 * ({@link RecoveryReconciler}, {@link ServedGraph#checkDrift}), not probed per request.
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
    boolean serving = graphs.all().isEmpty();
    for (ServedGraph g : graphs.all()) {
      Optional<ServedGraph.WriteBlock> block = g.writeBlock();
      b.withData(g.id() + ".state", block.isEmpty() ? "up" : "down");
      b.withData(g.id() + ".open", g.openHandle().isPresent());
      block.ifPresent(r -> b.withData(g.id() + ".reason", r.code()));
      if (block.isPresent() && block.get() == ServedGraph.WriteBlock.NO_GRAPH) {
        continue; // its routes answer 404 either way; it takes the service down only if nothing else is served
      }
      serving = true;
      up &= block.isEmpty();
    }
    return b.status(up && serving).build();
  }
}
