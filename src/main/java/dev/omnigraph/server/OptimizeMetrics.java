package dev.omnigraph.server;

import dev.omnigraph.engine.OptimizeRun;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The Optimize meters (docs/maintenance.md, "optimize"), registered on every served graph at start:
 * <ul>
 *   <li>{@code omnigraph.optimize.runs} (graph, branch, trigger, outcome): every Optimize run,
 *       {@code trigger} {@code auto} or {@code explicit}, {@code outcome} {@code compacted},
 *       {@code noop} or the error label;
 *   <li>{@code omnigraph.optimize.compacted.fragments} (graph, branch): fragments removed.
 * </ul>
 * Prometheus names: {@code omnigraph_optimize_runs_total}, {@code omnigraph_optimize_compacted_fragments_total}.
 */
@ApplicationScoped
class OptimizeMetrics {

  @Inject GraphRegistry graphs;
  @Inject MeterRegistry registry;

  void onStart(@Observes StartupEvent event) {
    for (ServedGraph g : graphs.all()) {
      g.onOptimize(run -> record(g.id(), run));
    }
  }

  void record(String graph, OptimizeRun run) {
    Counter.builder("omnigraph.optimize.runs").description("Optimize runs by trigger and outcome")
        .tag("graph", graph).tag("branch", run.branch()).tag("trigger", run.automatic() ? "auto" : "explicit")
        .tag("outcome", run.outcome()).register(registry).increment();
    Counter.builder("omnigraph.optimize.compacted.fragments").description("Fragments removed by Optimize")
        .tag("graph", graph).tag("branch", run.branch()).register(registry).increment(run.compactedFragments());
  }
}
