package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.Omnigraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Ours alone, in-process, on a store {@link PeerBenchmark} loaded ({@code peers-<millis>/ours}): each
 * named query run {@code reps} times after a warm-up, medians and the process's CPU time per query (all
 * threads, Lance's native ones too: steadier than wall time on a shared machine) printed. What a JFR profile of one query
 * runs (docs/performance.md, "Where the time goes"); never part of the suite.
 *
 * <p>{@code PeerProfile <store> <persons> <reps> Q2,Q4 …}
 */
public final class PeerProfile {

  private PeerProfile() {}

  public static void main(String[] args) throws Exception {
    Path store = Path.of(args[0]);
    int persons = Integer.parseInt(args[1]);
    int reps = Integer.parseInt(args[2]);
    List<String> wanted = List.of(args[3].split(","));
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(store), OpenMode.READ_ONLY);
        PeerSystems.PeerSystem engine = new PeerSystems.OursEngine(g, new ObjectMapper())) {
      for (PeerQueries q : PeerQueries.all()) {
        if (!wanted.contains(q.id())) {
          continue;
        }
        for (int i = 0; i < 20; i++) {
          engine.run(q, q.value(i, persons), PeerSystems.Target.HEAD);
        }
        List<Double> ms = new ArrayList<>();
        Object last = null;
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        for (int i = 0; i < reps; i++) {
          long t0 = System.nanoTime();
          last = engine.run(q, q.value(i, persons), PeerSystems.Target.HEAD);
          ms.add((System.nanoTime() - t0) / 1e6);
        }
        double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6 / reps;
        Collections.sort(ms);
        System.out.printf("%s median %.2f ms p90 %.2f ms, process CPU %.2f ms a query (%d reps) last %s%n", q.id(),
            ms.get(ms.size() / 2), ms.get((int) (ms.size() * 0.9)), cpuMs, reps, String.valueOf(last).substring(0, Math.min(120, String.valueOf(last).length())));
      }
    }
  }
}
