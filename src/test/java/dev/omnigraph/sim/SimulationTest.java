package dev.omnigraph.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.sim.History.Failure;
import dev.omnigraph.sim.History.Step;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the write path: seeded histories, each checked
 * after every step ({@link History}), on two tiers.
 *
 * <ul>
 *   <li>{@link #failpointTier}: {@code sim.local.histories} (CI: 500) histories of the {@code local}
 *       scenario ({@link LocalSim}: local filesystem, crashes and errors at the typed failpoints);
 *   <li>{@link #wireTier}: {@code sim.s3.histories} (CI: 1) histories of {@code write-path} on the
 *       simulated S3 ({@link SimS3}: latency, transient errors, timeouts, lost responses, crashes on
 *       the wire that Lance and the SDK both go through).
 * </ul>
 *
 * {@link #soak} ({@code -Psoak}) runs each tier for {@code sim.seconds} instead of a fixed count. Every
 * history has {@code sim.steps} (20) operations and at least one crash. A failing history is shrunk
 * ({@link Shrinker}) and reported with its seed, step, violation, the shrunk steps and a one-line
 * replay ({@link #replay}).
 */
class SimulationTest {

  private static final int STEPS = Integer.getInteger("sim.steps", 20);
  /**
   * The failpoint tier's histories in CI, issue 42's floor: 500 cost about 45 s more CPU than 275 did,
   * paid for by the @QuarkusTest classes' single application start (docs/testing.md, 'Deterministic
   * simulation', Run).
   */
  static final int CI_LOCAL_HISTORIES = 500;

  @Test
  void failpointTier() throws Exception {
    runTier(Scenario.LOCAL, Integer.getInteger("sim.local.histories", CI_LOCAL_HISTORIES));
  }

  @Test
  void wireTier() throws Exception {
    runTier(Scenario.WRITE_PATH, Integer.getInteger("sim.s3.histories", 1));
  }

  /**
   * The simulation soak, only under {@code -Psoak} (tag {@code soak}): each tier for
   * {@code sim.seconds} (default 600) from {@code sim.seed.first}. Run it alone with
   * {@code ./mvnw -B -Psoak test -Dtest='SimulationTest#soak' -Dsim.seconds=28800}.
   */
  @Test
  @Tag("soak")
  void soak() throws Exception {
    long seconds = Long.getLong("sim.seconds", 600);
    long first = Long.getLong("sim.seed.first", 1);
    System.out.println(runSeeds(Scenario.LOCAL, first, 0, seconds));
    System.out.println(runSeeds(Scenario.WRITE_PATH, first, 0, seconds));
  }

  /**
   * Replays one history: {@code -Dsim.scenario=S -Dsim.seed=N} ({@code -Dsim.steps}) draws it again,
   * {@code -Dsim.plan=...} runs exactly the given (e.g. shrunk) steps. Skipped without {@code sim.seed}.
   */
  @Test
  void replay() throws Exception {
    String seed = System.getProperty("sim.seed");
    Assumptions.assumeTrue(seed != null, "replays a history named by -Dsim.seed (and -Dsim.plan or -Dsim.steps)");
    Scenario scenario = Scenario.named(System.getProperty("sim.scenario", "local"));
    String plan = System.getProperty("sim.plan");
    History history = plan == null ? new History(scenario, Long.parseLong(seed), STEPS)
        : new History(scenario, Long.parseLong(seed), History.parsePlan(plan));
    System.out.println("simulation replay (" + scenario.name() + ", " + seed + "): " + history.run());
  }

  /** Replaying one (scenario, seed) must give the identical trace, compared by hash. */
  @Test
  void aSeedReplaysToTheSameTraceHash() throws Exception {
    sameTraceTwice(Scenario.LOCAL, 7, STEPS);
    sameTraceTwice(Scenario.WRITE_PATH, 7, Integer.getInteger("sim.replay.steps", 4));
  }

  private static void sameTraceTwice(Scenario scenario, long seed, int steps) throws Exception {
    History.Result a = new History(scenario, seed, steps).run();
    History.Result b = new History(scenario, seed, steps).run();
    System.out.println("simulation replay check (" + scenario.name() + ", " + seed + "): " + a.requests()
        + " requests, trace " + a.traceHash() + ", faults " + a.faults());
    assertThat(a.crashes()).isGreaterThanOrEqualTo(1);
    if (!b.traceHash().equals(a.traceHash())) {
      java.nio.file.Path dir = java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "sim-traces"));
      java.nio.file.Files.write(dir.resolve("replay-" + scenario.name() + "-" + seed + "-a.trace"), a.trace());
      java.nio.file.Files.write(dir.resolve("replay-" + scenario.name() + "-" + seed + "-b.trace"), b.trace());
    }
    assertThat(b.traceHash()).as("trace hash of the replay (both traces in target/sim-traces)")
        .isEqualTo(a.traceHash());
  }

  /** Runs the tier's histories (a count, or {@code sim.seconds}); a failure is shrunk, then rethrown. */
  static Tally runTier(Scenario scenario, int histories) throws Exception {
    Tally t = runSeeds(scenario, Long.getLong("sim.seed.first", 1), histories, 0);
    System.out.println(t);
    return t;
  }

  /**
   * Runs seeds {@code first, first+1, ...}: {@code count} of them, or for {@code seconds} when that is
   * positive. Throws the first failure, shrunk.
   */
  static Tally runSeeds(Scenario scenario, long first, int count, long seconds) throws Exception {
    Tally t = new Tally(scenario, first);
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    for (long seed = first; seconds > 0 ? System.nanoTime() < deadline : seed < first + count; seed++) {
      History.Result r;
      try {
        r = new History(scenario, seed, STEPS).run();
      } catch (Failure f) {
        t.stop();
        System.out.println(t);
        throw shrunk(f);
      }
      t.add(r);
      assertThat(r.crashes()).as("crashes in history %d", seed).isGreaterThanOrEqualTo(1);
      assertThat(r.operations()).isEqualTo(STEPS);
    }
    t.stop();
    return t;
  }

  /** {@code f} with its history shrunk: the shortest plan found that fails with the same violation. */
  static Failure shrunk(Failure f) {
    long start = System.nanoTime();
    Shrinker.Shrunk<Step> s = History.shrink(f, Integer.getInteger("sim.shrink.tries", 200));
    Failure again = History.failureOf(f.scenario, f.seed, s.steps());
    System.out.printf("simulation shrank (%s, %d) from %d to %d steps in %d tries, %.1f s%n", f.scenario.name(),
        f.seed, f.plan.size(), s.steps().size(), s.tries(), (System.nanoTime() - start) / 1e9);
    Failure out = again != null ? again : f;
    if (again != null) {
      again.addSuppressed(f); // the unshrunk history and its step
    }
    return out;
  }

  /** What a tier ran, as the CI log prints it. */
  static final class Tally {
    final Scenario scenario;
    final long first;
    final long start = System.nanoTime();
    long end;
    int histories;
    int operations;
    int failed;
    int crashes;
    int requests;
    long setupNanos;
    long opNanos;
    long settleNanos;
    long checkNanos;
    long closeNanos;
    History.CheckSplit checkSplit = History.CheckSplit.NONE;
    /** The whole JVM's CPU time while the tier ran: less sensitive than wall time to a busy machine. */
    final long cpuStart = cpuNanos();
    long cpuEnd;
    final Map<FaultPlan.Fault, Integer> faults = new EnumMap<>(FaultPlan.Fault.class);

    Tally(Scenario scenario, long first) {
      this.scenario = scenario;
      this.first = first;
    }

    void add(History.Result r) {
      histories++;
      operations += r.operations();
      failed += r.failed();
      crashes += r.crashes();
      requests += r.requests();
      setupNanos += r.setupNanos();
      closeNanos += r.closeNanos();
      opNanos += r.opNanos();
      settleNanos += r.settleNanos();
      checkNanos += r.checkNanos();
      checkSplit = checkSplit.plus(r.checkSplit());
      r.faults().forEach((f, n) -> faults.merge(f, n, Integer::sum));
    }

    void stop() {
      end = System.nanoTime();
      cpuEnd = cpuNanos();
    }

    private static long cpuNanos() {
      return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
          .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    double seconds() {
      return ((end == 0 ? System.nanoTime() : end) - start) / 1e9;
    }

    @Override
    public String toString() {
      return String.format("simulation (%s): %d histories (seeds %d..%d), %d operations (%d failed or in doubt), "
          + "%d crashes, %d %s, faults %s in %.1f s, %.1f s CPU (%.2f histories/s; setup %.1f s (template %.1f, copies %.1f, "
          + "first opens %.1f), operations %.1f s, "
          + "recovery %.1f s, checks %.1f s (heads %.1f, branch reads %.1f, reads at a commit %.1f, sidecar probes %.1f, "
          + "repair %.1f), close %.1f s)", scenario.name(), histories, first, first + histories - 1,
          operations, failed, crashes, requests, scenario.local() ? "failpoint hits" : "requests", faults, seconds(),
          ((cpuEnd == 0 ? cpuNanos() : cpuEnd) - cpuStart) / 1e9, histories / seconds(), setupNanos / 1e9,
          checkSplit.templateNanos() / 1e9, checkSplit.copyNanos() / 1e9, checkSplit.openNanos() / 1e9, opNanos / 1e9, settleNanos / 1e9, checkNanos / 1e9,
          checkSplit.headNanos() / 1e9, checkSplit.branchReadNanos() / 1e9, checkSplit.commitReadNanos() / 1e9,
          checkSplit.sidecarNanos() / 1e9, checkSplit.repairNanos() / 1e9, closeNanos / 1e9);
    }
  }
}
