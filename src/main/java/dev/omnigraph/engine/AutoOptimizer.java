package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.maintenance.Optimize;
import dev.omnigraph.api.maintenance.OptimizeReport;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.api.WriteResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Automatic compaction after writes (docs/maintenance.md, "optimize"): once a write has published, the tables it touched
 * on its branch are checked against the {@link OptimizeSettings} thresholds from their pinned
 * version's manifest (no data read), and when one is due the Optimize writer runs for the due
 * tables. The write's own result is settled before this starts and never changes because of it: an
 * automatic run that fails is logged and reported to listeners, never thrown to the writer.
 *
 * <p>The check is sampled: a table's statistics are read at the first write to it through this
 * handle and then once every {@link #checkEvery()} writes (every 4th with the defaults), so most
 * writes of a long-lived handle add no I/O at all, and a one-write CLI process still checks.
 *
 * <p>Inline (default for a library handle) the pass runs on the writer's thread after the publish;
 * with {@link OptimizeSettings#background()} (the service) it runs on one daemon thread per handle,
 * so the write's response does not wait for it.
 */
final class AutoOptimizer implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(AutoOptimizer.class);

  private final OptimizeSettings settings;
  private final Optimize optimize;
  private final GraphManifest manifest;
  private final DataTables tables;
  private final List<Consumer<OptimizeRun>> listeners = new CopyOnWriteArrayList<>();
  private final ExecutorService background;

  AutoOptimizer(OptimizeSettings settings, Optimize optimize, GraphManifest manifest, DataTables tables) {
    this.settings = settings;
    this.optimize = optimize;
    this.manifest = manifest;
    this.tables = tables;
    this.background = settings.autoEnabled() && settings.background()
        ? Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "omnigraph-auto-optimize");
          t.setDaemon(true);
          return t;
        })
        : null;
  }

  /** Writes per (branch, table) since its statistics were last read by this handle. */
  private final java.util.concurrent.ConcurrentHashMap<String, Integer> writesSinceCheck =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How many writes to a table pass between two statistics reads: a quarter of the smaller threshold. */
  int checkEvery() {
    int smallest = Math.min(settings.fragmentThreshold(),
        Math.min(settings.deletionThreshold() + 1, settings.indexThreshold() + 1));
    return Math.max(1, smallest / 4);
  }

  OptimizeSettings settings() {
    return settings;
  }

  void listen(Consumer<OptimizeRun> listener) {
    listeners.add(listener);
  }

  /** After a write on {@code branch} returned {@code result}: compact its due tables. */
  void afterWrite(String branch, WriteResult result) {
    if (!settings.autoEnabled() || result.commitId().isEmpty() || result.rowCounts().isEmpty()) {
      return;
    }
    List<TableKey> touched = new ArrayList<>();
    for (String stored : result.rowCounts().keySet()) {
      TableKey key = TableKey.parse(stored);
      // Sampled: a table's statistics are read every checkEvery() writes to it through this handle,
      // so most writes pay nothing (overshoot past a threshold: at most checkEvery() - 1 fragments).
      // The first write to a table through this handle is always checked, so short-lived handles
      // (one CLI write per process) still trigger compaction.
      boolean[] check = {false};
      writesSinceCheck.compute(branch + "\u0000" + key, (k, prev) -> {
        if (prev == null || prev + 1 >= checkEvery()) {
          check[0] = true;
          return 0;
        }
        return prev + 1;
      });
      if (check[0]) {
        touched.add(key);
      }
    }
    if (touched.isEmpty()) {
      return;
    }
    if (background != null) {
      background.execute(() -> check(branch, touched));
    } else {
      check(branch, touched);
    }
  }

  private void check(String branch, Collection<TableKey> touched) {
    try {
      List<TableKey> due = due(branch, touched);
      if (!due.isEmpty()) {
        run(branch, due, false, true, dev.omnigraph.api.ProgressListener.NONE);
      }
    } catch (RuntimeException e) {
      LOG.warnf(e, "automatic optimize of %s failed; the write it followed is unaffected", branch);
    }
  }

  /** The touched tables whose pinned version is past a threshold (from the known state and pinned handles: no I/O after a local publish). */
  private List<TableKey> due(String branch, Collection<TableKey> touched) {
    // What this process just published is enough to decide: Optimize re-captures under its gates.
    ManifestState state = manifest.knownState(branch).orElseGet(() -> manifest.state(branch));
    Optional<String> own = branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch);
    List<TableKey> out = new ArrayList<>();
    for (TableKey key : touched) {
      TablePin pin = state.tables().get(key);
      if (pin != null && pin.nativeBranch().equals(own)
          && dev.omnigraph.maintenance.Optimize.due(settings, tables.compaction().stats(pin.ref(), OptionalLong.of(pin.version())))) {
        out.add(key);
      }
    }
    return out;
  }

  /** Runs Optimize and reports the run to the listeners, failed or not (a failure is rethrown). */
  OptimizeReport run(String branch, Collection<TableKey> candidates, boolean force, boolean automatic,
      dev.omnigraph.api.ProgressListener progress) {
    OptimizeReport r;
    try {
      r = optimize.run(branch, candidates, settings, force, progress);
    } catch (RuntimeException e) {
      report(new OptimizeRun(branch, automatic, ErrorKind.of(e).label(), 0, 0));
      throw e;
    }
    report(new OptimizeRun(branch, automatic, r.commitId().isPresent() ? "compacted" : "noop",
        r.compactedFragments(), r.tables().size()));
    return r;
  }

  private void report(OptimizeRun run) {
    for (Consumer<OptimizeRun> l : listeners) {
      try {
        l.accept(run);
      } catch (RuntimeException e) {
        LOG.warnf(e, "optimize listener failed");
      }
    }
  }

  @Override
  public void close() {
    if (background != null) {
      background.shutdown();
      try {
        if (!background.awaitTermination(30, TimeUnit.SECONDS)) {
          background.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        background.shutdownNow();
      }
    }
  }
}
