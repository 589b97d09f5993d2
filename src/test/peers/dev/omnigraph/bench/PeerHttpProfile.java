package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.bench.PeerSystems.Outcome;
import dev.omnigraph.bench.PeerSystems.PeerSystem;
import dev.omnigraph.bench.PeerSystems.Rows;
import dev.omnigraph.bench.PeerSystems.Target;
import dev.omnigraph.engine.Omnigraph;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a served read's time goes, in {@link PeerBenchmark}'s own setting (docs/performance.md, "Where
 * the served route's time went"): on a store the benchmark loaded ({@code peers-<millis>/}: {@code ours},
 * {@code kuzu.db}, {@code duck.db}) and a server already serving {@code ours} (so that it can run under
 * JFR, another jar or other options), each round runs, per HTTP variant, ours in-process, the variant,
 * Kuzu and DuckDB, so every variant follows the same work. Variants: {@code served} (the JDK's
 * {@code HttpClient} as built by default: HTTP/2 asked for, h2c upgrade offered), {@code healthz}
 * ({@code GET /healthz} with that client: its floor), {@code h11} and {@code h11direct} (that client
 * asked for HTTP/1.1, the second completing on its selector thread), {@code socket}
 * ({@link PeerSystems.OursSocket}, the benchmark's client) and {@code socket-healthz} (its floor).
 * Warm-ups as the benchmark's ({@code omnigraph.bench.jit-warmup} rounds in turns, then
 * {@code omnigraph.bench.ours-warmup} rounds of ours alone, 3,000 unless set). Prints medians and p90 per
 * query, the server's own mean time per query request ({@code http.server.requests} from
 * {@code /q/metrics}) and its CPU time per HTTP request ({@code /proc/<pid>/stat}).
 *
 * <p>{@code PeerHttpProfile <peers-dir> <persons> <reps> <base-url> <server-pid> Q1,Q2 [variant,…]}; never
 * part of the suite.
 */
public final class PeerHttpProfile {

  private PeerHttpProfile() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    int persons = Integer.parseInt(args[1]);
    int reps = Integer.parseInt(args[2]);
    String base = args[3];
    long pid = Long.parseLong(args[4]);
    List<String> wanted = List.of(args[5].split(","));
    List<String> variants = List.of((args.length > 6 ? args[6] : "served,healthz,h11").split(","));
    ObjectMapper json = new ObjectMapper();
    HttpClient benchClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    Map<String, PeerSystem> http = new LinkedHashMap<>();
    for (String v : variants) {
      http.put(v, switch (v) {
        case "served" -> new PeerSystems.OursHttp(benchClient, base, json);
        case "healthz" -> new Healthz(benchClient, base);
        case "h11" -> new PeerSystems.OursHttp(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build(), base, json);
        case "h11direct" -> new PeerSystems.OursHttp(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Runnable::run).connectTimeout(Duration.ofSeconds(2)).build(), base, json);
        case "socket" -> new PeerSystems.OursSocket(URI.create(base), json);
        case "socket-healthz" -> new PeerSystems.HttpFloor(new PeerSystems.OursSocket(URI.create(base), json));
        default -> throw new IllegalArgumentException(v);
      });
    }
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(work.resolve("ours").toRealPath()), OpenMode.READ_ONLY);
        PeerSystem engine = new PeerSystems.OursEngine(g, json);
        PeerSystem kuzu = new PeerSystems.Kuzu(work.resolve("kuzu.db").toString());
        PeerSystem duck = new PeerSystems.DuckDb(work.resolve("duck.db").toString())) {
      List<PeerQueries> queries = PeerQueries.all().stream().filter(q -> wanted.contains(q.id())).toList();
      int warm = Integer.getInteger("omnigraph.bench.jit-warmup", 200);
      for (int i = 0; i < warm; i++) {
        for (PeerQueries q : queries) {
          round(q, q.value(reps + 100 + i, persons), engine, http.values(), kuzu, duck, null, 0);
        }
      }
      // As PeerBenchmark: ours alone, in-process and through each variant, Q1-Q3.
      int oursWarm = Integer.getInteger("omnigraph.bench.ours-warmup", 3_000);
      List<PeerQueries> cheap = PeerQueries.all().subList(0, 3);
      for (int i = 0; i < oursWarm; i++) {
        for (PeerQueries q : cheap) {
          engine.run(q, q.value(reps + 100 + warm + i, persons), Target.HEAD);
          for (PeerSystem h : http.values()) {
            h.run(q, q.value(reps + 100 + warm + i, persons), Target.HEAD);
          }
        }
      }
      for (PeerQueries q : queries) {
        double[][] ms = new double[http.size() + 3][reps];
        double[] before = served(benchClient, base);
        long ticks = ticks(pid);
        for (int i = 0; i < reps; i++) {
          round(q, q.value(i, persons), engine, http.values(), kuzu, duck, ms, i);
        }
        double cpuPerRequest = (ticks(pid) - ticks) * 10.0 / (reps * (double) http.size());
        double[] after = served(benchClient, base);
        List<String> names = new ArrayList<>(List.of("engine"));
        names.addAll(http.keySet());
        names.addAll(List.of("Kuzu", "DuckDB"));
        StringBuilder line = new StringBuilder(q.id());
        for (int s = 0; s < names.size(); s++) {
          double[] sorted = ms[s].clone();
          Arrays.sort(sorted);
          line.append(String.format("  %s %.2f (%.2f)", names.get(s), sorted[reps / 2], sorted[(int) (reps * 0.9)]));
        }
        line.append(String.format("  | server-timed query route %.3f ms/req, server CPU %.3f ms/req",
            (after[1] - before[1]) * 1000 / Math.max(1, after[0] - before[0]), cpuPerRequest));
        System.out.println(line);
      }
    }
  }

  /** One repetition: per HTTP variant, the engine, the variant, Kuzu and DuckDB; answers equal. */
  private static void round(PeerQueries q, String value, PeerSystem engine, java.util.Collection<PeerSystem> http,
      PeerSystem kuzu, PeerSystem duck, double[][] ms, int i) throws Exception {
    int v = 0;
    for (PeerSystem h : http) {
      v++;
      List<PeerSystem> order = List.of(engine, h, kuzu, duck);
      int[] slot = {0, v, http.size() + 1, http.size() + 2};
      Outcome first = null;
      for (int s = 0; s < order.size(); s++) {
        long t = System.nanoTime();
        Outcome o = order.get(s).run(q, value, Target.HEAD);
        double elapsed = (System.nanoTime() - t) / 1e6;
        if (o instanceof Rows && !(order.get(s) instanceof Healthz) && !(order.get(s) instanceof PeerSystems.HttpFloor)) {
          if (first != null && !first.equals(o)) {
            throw new IllegalStateException(q.id() + "(" + value + "): " + order.get(s).name() + " " + o + " vs " + first);
          }
          first = o;
        }
        if (ms != null && (s == 1 || v == 1)) {
          ms[slot[s]][i] = elapsed;
        }
      }
    }
  }

  /** The server's count and total seconds of {@code POST /graphs/{graph_id}/query}. */
  private static double[] served(HttpClient client, String base) throws Exception {
    String text = client.send(HttpRequest.newBuilder(URI.create(base + "/q/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    double count = 0;
    double sum = 0;
    for (String l : text.split("\n")) {
      if (!l.contains("uri=\"/graphs/{graph_id}/query\"")) {
        continue;
      }
      double v = Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
      if (l.startsWith("http_server_requests_seconds_count{")) {
        count += v;
      } else if (l.startsWith("http_server_requests_seconds_sum{")) {
        sum += v;
      }
    }
    return new double[] {count, sum};
  }

  private static long ticks(long pid) throws Exception {
    String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** {@code GET /healthz}: the same client and connection, no query. */
  private record Healthz(HttpClient http, String base) implements PeerSystem {
    @Override
    public String name() {
      return "healthz";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) throws Exception {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz"))
          .timeout(Duration.ofMinutes(1)).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("healthz: " + r.statusCode());
      }
      return new Rows(List.of());
    }
  }
}
