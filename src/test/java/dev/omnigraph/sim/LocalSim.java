package dev.omnigraph.sim;

import dev.omnigraph.sim.FaultPlan.Fault;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.testing.TestFiles;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.FailpointControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The failpoint tier of the simulation: the graph on the local filesystem (tmpfs where
 * there is one), faults and crashes thrown at the write path's typed {@link Failpoint}s instead of
 * on the wire. Many cheap histories with the same workload and checker as {@link SimS3}'s fewer,
 * slower ones.
 *
 * <p>Every hit of a failpoint while the operation runs (faults on) is drawn from (scenario, seed,
 * step, point, its occurrence in the step), never from arrival order: an injected error
 * ({@link Scenario#transientShare}; the operation fails, the process lives, {@code recover} runs),
 * or, in a step armed for a crash, the crash point ({@link Scenario#crashShare}). A crash throws there
 * and at every later hit until {@link #restart}, so the dying writer passes no further phase
 * boundary; the driver then drops the handle and opens a new one (recovery runs). What the thrown
 * writer's own error handling still writes on the way out is the one thing a kill -9 would not do;
 * the wire tier and the child-JVM crash tests cover that.
 *
 * <p>Failpoints are hit on the writer's thread, in order, so the trace (the hits of each step with
 * their fate) is deterministic as it stands.
 */
final class LocalSim implements SimStore {
  private static final Path BASE = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
      : Path.of(System.getProperty("java.io.tmpdir"));

  /** The store of the history running now (one at a time per JVM): what an injected bug acts on. */
  private static volatile LocalSim current;

  /** The initialised graph every history of this JVM copies (init is not what a history tests). */
  private static StorageConfig template;

  private final Scenario scenario;
  private final long seed;
  private final Path dir;
  private final List<AutoCloseable> enabled = new ArrayList<>();
  private final List<String> log = new ArrayList<>();
  private final Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
  private final Map<Failpoint, Integer> occurrences = new EnumMap<>(Failpoint.class);
  private int step;
  private boolean faultsOn;
  private boolean crashArmed;
  private volatile boolean down;

  LocalSim(Scenario scenario, long seed) throws IOException {
    this.scenario = scenario;
    this.seed = seed;
    this.dir = Files.createTempDirectory(BASE, "omnigraph-sim-");
    current = this;
    for (Failpoint p : Failpoint.values()) {
      if (!FailpointControl.isEnabled(p)) { // a point a test enabled (an injected bug) stays the test's
        enabled.add(FailpointControl.enable(p, () -> hit(p)));
      }
    }
  }

  @Override
  public StorageConfig freshRoot(String label) throws IOException {
    Path root = Files.createTempDirectory(dir, label + "-");
    return StorageConfig.local(root);
  }

  /**
   * Builds, once per JVM and before any store enables its failpoints (so no history's trace sees
   * it), the graph {@code init} makes, in a directory of its own deleted at exit.
   */
  static void prepareTemplate(RootTemplates.Builder init) throws Exception {
    synchronized (LocalSim.class) {
      if (template == null) {
        Path d = Files.createTempDirectory(BASE, "omnigraph-sim-template-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TestFiles.deleteTree(d)));
        StorageConfig t = StorageConfig.local(Files.createDirectories(d.resolve("graph")));
        init.build(t);
        template = t;
      }
    }
  }

  /** A fresh root holding a file-by-file copy of the {@link #prepareTemplate template}. */
  @Override
  public StorageConfig initialised() throws IOException {
    StorageConfig root = freshRoot("sim");
    RootTemplates.copy(template, root);
    return root;
  }

  @Override
  public synchronized void step(int n) {
    step = n;
    occurrences.clear();
    crashArmed = false;
  }

  @Override
  public synchronized void faults(boolean on) {
    faultsOn = on;
  }

  @Override
  public synchronized void armCrash() {
    crashArmed = true;
  }

  @Override
  public boolean crashed() {
    return down;
  }

  @Override
  public synchronized void crashNow() {
    down = true;
    faults.merge(Fault.CRASH, 1, Integer::sum);
    log.add(step + " after-answer CRASH");
  }

  @Override
  public synchronized void restart() {
    down = false;
    crashArmed = false;
  }

  @Override
  public synchronized Map<Fault, Integer> faultCounts() {
    return Map.copyOf(faults);
  }

  @Override
  public synchronized int requests() {
    return log.size();
  }

  @Override
  public synchronized List<String> trace() {
    return List.copyOf(log);
  }

  private void hit(Failpoint point) {
    Fault fault;
    synchronized (this) {
      if (down) {
        throw new FailpointControl.Injected(point); // the process is gone: no further phase runs
      }
      int n = occurrences.merge(point, 1, Integer::sum) - 1;
      fault = Fault.NONE;
      if (faultsOn) {
        SplittableRandom r = new SplittableRandom(FaultPlan.hash(scenario.name() + "|" + seed + "|" + step + "|"
            + point.wireName() + "#" + n));
        double u = r.nextDouble();
        if (crashArmed && r.nextDouble() < scenario.crashShare()) {
          fault = Fault.CRASH;
          down = true;
        } else if (u < scenario.transientShare() && point != Failpoint.RECOVERY_SIDECAR_DELETE) {
          // A failed sidecar delete is swallowed by design and healed by the next recovery; the
          // checker counts a sidecar left behind by a write that answered as a fault, so that point
          // only crashes.
          fault = Fault.INJECTED_ERROR;
        }
      }
      log.add(step + " " + point.wireName() + "#" + n + " " + fault);
      if (fault != Fault.NONE) {
        faults.merge(fault, 1, Integer::sum);
      }
    }
    if (fault != Fault.NONE) {
      throw new FailpointControl.Injected(point);
    }
  }

  private final java.util.Set<String> fired = new java.util.HashSet<>();

  /** True the first time a history asks with {@code what}: an injected bug that strikes once per history. */
  synchronized boolean firstTime(String what) {
    return fired.add(what);
  }

  /** The store of the history running now. */
  static LocalSim current() {
    return current;
  }

  /**
   * For an injected bug: deletes every recovery sidecar under this store's roots, as a writer's
   * error path that wrongly retired its sidecar would. Returns how many it deleted.
   */
  int deleteSidecars() {
    try (var files = Files.walk(dir)) {
      List<Path> sidecars = files.filter(f -> f.getParent() != null
          && f.getParent().getFileName().toString().equals("__recovery") && Files.isRegularFile(f)).toList();
      for (Path f : sidecars) {
        Files.delete(f);
      }
      return sidecars.size();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    for (AutoCloseable e : enabled) {
      try {
        e.close();
      } catch (Exception ex) {
        throw new IllegalStateException(ex);
      }
    }
    TestFiles.deleteTree(dir);
    if (current == this) {
      current = null;
    }
  }

  @Override
  public String toString() {
    return "(" + scenario.name() + ", " + seed + ")";
  }
}
