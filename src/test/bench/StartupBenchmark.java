import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CLI's start-up, as ratios to a bare {@code java -version} measured in the same run (issue 45):
 * {@code version}, {@code --help}, {@code load --help}, and {@code query} on the example graph. Each
 * command runs {@code rounds} times, interleaved with the others so that a busy machine slows all of
 * them alike; the medians are compared. The first, untimed run of each fills the per-user caches
 * (Lance's native library) as a user's first call does.
 *
 * <pre>
 *   ./mvnw -B -DskipTests package
 *   java src/test/bench/StartupBenchmark.java [rounds]
 * </pre>
 */
public class StartupBenchmark {

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    Path repo = Path.of("").toAbsolutePath();
    String launcher = repo.resolve("bin/omnigraph").toString();
    Path example = repo.resolve("src/main/resources/example");
    Path work = Files.createTempDirectory("og-startup");
    Path graph = work.resolve("g");
    run(List.of(launcher, "init", "--schema", example.resolve("social.pg").toString(), graph.toString()));
    run(List.of(launcher, "load", "--data", example.resolve("social.ndjson").toString(), "--mode", "append",
        graph.toString()));
    Path query = work.resolve("q.gq");
    Files.writeString(query, "query everyone() { match { $p: Person } return { $p.name } }\n");

    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Map<String, List<String>> commands = new LinkedHashMap<>();
    commands.put("java -version", List.of(java, "-version"));
    commands.put("version", List.of(launcher, "version"));
    commands.put("--help", List.of(launcher, "--help"));
    commands.put("load --help", List.of(launcher, "load", "--help"));
    commands.put("query", List.of(launcher, "query", "everyone", "--query", query.toString(), "--store",
        graph.toString()));
    Map<String, long[]> times = new LinkedHashMap<>();
    commands.forEach((name, cmd) -> times.put(name, new long[rounds]));
    for (List<String> cmd : commands.values()) {
      run(cmd); // warm: page cache, the native library cache, the CDS archive if any
    }
    for (int r = 0; r < rounds; r++) {
      for (Map.Entry<String, List<String>> c : commands.entrySet()) {
        long t0 = System.nanoTime();
        run(c.getValue());
        times.get(c.getKey())[r] = System.nanoTime() - t0;
      }
    }
    double base = median(times.get("java -version"));
    System.out.printf("start-up on %d cores, %d rounds, medians (load average %s)%n",
        Runtime.getRuntime().availableProcessors(), rounds, loadAverage());
    for (Map.Entry<String, long[]> t : times.entrySet()) {
      double m = median(t.getValue());
      System.out.printf("  %-14s %7.3f s  %5.1f x java -version%n", t.getKey(), m / 1e9, m / base);
    }
  }

  private static void run(List<String> cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    int rc = p.waitFor();
    if (rc != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " exited " + rc);
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (Exception e) {
      return "?";
    }
  }
}
