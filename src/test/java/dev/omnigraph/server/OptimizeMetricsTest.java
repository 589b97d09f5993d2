package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.engine.OptimizeRun;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The optimize meters: runs by trigger and outcome, compacted fragments. */
class OptimizeMetricsTest {

  @Test
  void runsAndCompactedFragmentsAreCounted() {
    OptimizeMetrics metrics = new OptimizeMetrics();
    metrics.registry = new SimpleMeterRegistry();
    metrics.record("g", new OptimizeRun("main", true, "compacted", 31, 1));
    metrics.record("g", new OptimizeRun("main", true, "compacted", 40, 2));
    metrics.record("g", new OptimizeRun("main", false, "noop", 0, 0));
    metrics.record("g", new OptimizeRun("main", true, "recovery_required", 0, 0));
    assertThat(metrics.registry.get("omnigraph.optimize.runs").tags("graph", "g", "branch", "main", "trigger", "auto",
        "outcome", "compacted").counter().count()).isEqualTo(2.0);
    assertThat(metrics.registry.get("omnigraph.optimize.runs").tags("trigger", "explicit", "outcome", "noop")
        .counter().count()).isEqualTo(1.0);
    assertThat(metrics.registry.get("omnigraph.optimize.runs").tags("outcome", "recovery_required").counter().count())
        .isEqualTo(1.0);
    assertThat(metrics.registry.get("omnigraph.optimize.compacted.fragments").tags("graph", "g", "branch", "main")
        .counter().count()).isEqualTo(71.0);
  }
}
