package dev.omnigraph.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.sim.History.Failure;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.FailpointControl;
import org.junit.jupiter.api.Test;

/**
 * A bug injected into the write path is caught by the simulation within the CI
 * seed budget, and the shrinker cuts its history down. The bug, enabled through
 * {@link FailpointControl} only (no production change): the first write of a history whose table
 * commits landed loses its recovery sidecar and fails, as an error path that retired the sidecar of a
 * write it should have left to recovery would. Recovery then cannot know the table commits are
 * there, unpublished.
 */
class InjectedBugTest {

  @Test
  void aWriteThatLosesItsSidecarAfterItsCommitsIsCaughtAndShrunk() throws Exception {
    int budget = Integer.getInteger("sim.local.histories", SimulationTest.CI_LOCAL_HISTORIES);
    Failure f;
    try (AutoCloseable bug = FailpointControl.enable(Failpoint.WRITE_AFTER_COMMITS, () -> {
      LocalSim sim = LocalSim.current();
      if (sim != null && sim.firstTime("lost-sidecar")) {
        sim.deleteSidecars();
        throw new FailpointControl.Injected(Failpoint.WRITE_AFTER_COMMITS);
      }
    })) {
      f = catchThrowableOfType(Failure.class, () -> SimulationTest.runSeeds(Scenario.LOCAL, 1, budget, 0));
    }
    assertThat(f).as("the simulation finds the lost sidecar within %d histories", budget).isNotNull();
    System.out.println("injected bug caught and shrunk: " + f.getMessage());
    assertThat(f.getSuppressed()).as("the unshrunk failure rides along").hasSize(1);
    Failure full = (Failure) f.getSuppressed()[0];
    System.out.printf("injected bug: seed %d, step %d, %s; history of %d steps shrunk to %d%n", full.seed, full.step,
        full.violation, full.plan.size(), f.plan.size());
    assertThat(f.violation).isEqualTo(full.violation);
    assertThat(f.plan.size()).isLessThan(full.plan.size()).isLessThanOrEqualTo(3);
  }
}
