package dev.omnigraph.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.ConditionalWriteSerializer;
import dev.omnigraph.testing.S3TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-process kill -9 soak (issue 42, item 5), only under {@code -Psoak}: the packaged
 * {@code bin/omnigraph serve} (build it first: {@code ./mvnw -B -o -q -DskipTests package}) on a
 * local root and on S3 (the test JVM's S3Mock), {@code soak.kill9.rounds} rounds each of: start
 * {@code serve}, wait for readiness (timed), check the graph from outside, run mixed writers over
 * HTTP on three threads (one-row mutations, ten-row NDJSON loads, branch creates, merges into main)
 * recording every request and whether it was acknowledged (200), then SIGKILL the server at a
 * random moment. After the last round the server is started once more and checked.
 *
 * <p>The check, from outside (HTTP reads and a listing of the store): every acknowledged insert
 * and every row of every acknowledged load reads back on its branch exactly once; every load,
 * acknowledged or not, is all or nothing there (no partial batch); an acknowledged merge brought
 * into main every row acknowledged on its source before the merge was sent; every acknowledged
 * branch exists; no row reads that no client sent; and once the restarted server is ready,
 * {@code __recovery/} is empty. The rounds, acknowledged writes, losses, partial batches and
 * readiness times (median, p99) are printed; any loss or partial batch fails the test. Replay the
 * random moments with {@code -Dsoak.kill9.seed}. Serve starts with its default JVM options, a 3 s
 * lease TTL and a 300 ms reconciler interval; every server has the same host, so a successor sees
 * its killed predecessor's pid dead and takes the lease at once.
 */
@Tag("soak")
class ServeKill9SoakTest {

  private static final Path LAUNCHER = Path.of("bin/omnigraph");
  private static final int ROUNDS = Integer.getInteger("soak.kill9.rounds", 20);
  /** Starts no round after this many minutes (0: no bound); the last start and check still run. */
  private static final long MINUTES = Long.getLong("soak.kill9.minutes", 0);
  /** A progress line every this many rounds. */
  private static final int EVERY = Integer.getInteger("soak.kill9.every", 25);
  private static final int WRITERS = 3;
  private static final int LOAD_ROWS = 10;
  private static final int MAX_BRANCHES = 4;
  private static final String SCHEMA = History.SCHEMA;
  private static final String GQ = "query add($name: String, $age: I32) {\n  insert Person { name: $name, age: $age }\n}\n";
  private static final String READ = "query people() { match { $p: Person } return { $p.name } }";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void localRoot(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(backends().contains("local"), "soak.kill9.backends leaves local out");
    StorageConfig root = StorageConfig.local(Files.createDirectories(dir.resolve("g")));
    soak("local", root, dir, Map.of(), Optional.empty());
  }

  @Test
  void s3Root(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(backends().contains("s3"), "soak.kill9.backends leaves s3 out");
    S3TestServer s3 = S3TestServer.get();
    StorageConfig root = s3.freshRoot("kill9");
    try (ConditionalWriteSerializer.RequestLog requests = s3.record(root)) {
      soak("s3", root, dir, Map.of("AWS_ENDPOINT", s3.endpoint(), "AWS_REGION", S3TestServer.REGION,
          "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY,
          "AWS_ALLOW_HTTP", "true"), Optional.of(requests));
    }
  }

  private static Set<String> backends() {
    return Set.of(System.getProperty("soak.kill9.backends", "local,s3").split(","));
  }

  /** One request a writer sent: what it wrote and whether the server acknowledged it. */
  record Attempt(Kind kind, String branch, List<String> names, Set<String> sourceRowsBefore,
      int status) {
    boolean acked() {
      return status == 200;
    }
  }

  enum Kind { INSERT, LOAD, BRANCH_CREATE, MERGE }

  /** What every round's client saw, across the whole soak. */
  static final class Ledger {
    final List<Attempt> attempts = new CopyOnWriteArrayList<>();
    /** Per branch, the names acknowledged on it (by an insert or a load on that branch). */
    final Map<String, Set<String>> ackedOn = new ConcurrentHashMap<>();
    final Set<String> sent = ConcurrentHashMap.newKeySet();
    final List<String> branches = new CopyOnWriteArrayList<>(List.of("main"));

    synchronized void acked(String branch, List<String> names) {
      ackedOn.computeIfAbsent(branch, b -> ConcurrentHashMap.newKeySet()).addAll(names);
    }

    synchronized Set<String> ackedOnNow(String branch) {
      return Set.copyOf(ackedOn.getOrDefault(branch, Set.of()));
    }
  }

  private record Served(Process process, int port) {
    String base() {
      return "http://127.0.0.1:" + port + "/graphs/default";
    }
  }

  /**
   * @param requests on S3, every request to the root, drained into each progress line: what a round
   *     asks of the store, and how long the store takes to answer, as the graph grows
   */
  private void soak(String backend, StorageConfig root, Path dir, Map<String, String> env,
      Optional<ConditionalWriteSerializer.RequestLog> requests) throws Exception {
    assertThat(LAUNCHER).as("the packaged launcher (./mvnw -B -o -q -DskipTests package first)").exists();
    long seed = Long.getLong("soak.kill9.seed", System.nanoTime());
    Random random = new Random(seed);
    String tag = "[ServeKill9SoakTest " + backend + "] ";
    System.out.println(tag + "seed " + seed + ", rounds " + ROUNDS);
    Omnigraph.init(root, SCHEMA, Optional.empty()).close();
    // One graceful start and stop first: serve records its class-data archive when it stops
    // gracefully (docs/deployment.md, "2. The image"), as a deployment's first stop does, so the rounds'
    // readiness is that of a restart, not of the first start after a build.
    Served warm = serve(root, dir, env, 0);
    awaitReady(warm);
    warm.process().destroy();
    assertThat(warm.process().waitFor(60, TimeUnit.SECONDS)).as("a graceful stop").isTrue();
    Ledger ledger = new Ledger();
    List<Double> readiness = new ArrayList<>();
    List<String> violations = new CopyOnWriteArrayList<>();
    long started = System.nanoTime();
    requests.ifPresent(ConditionalWriteSerializer.RequestLog::drain);
    Progress progress = new Progress(tag, started);
    Served last = null;
    int rounds = ROUNDS;
    try {
      for (int round = 1; round <= rounds + 1; round++) {
        if (round <= rounds && MINUTES > 0 && System.nanoTime() - started > TimeUnit.MINUTES.toNanos(MINUTES)) {
          System.out.printf("%stime bound: %d min reached after %d rounds; the last start and check follow%n",
              tag, MINUTES, round - 1);
          rounds = round - 1;
        }
        if (round > 1 && (round - 1) % EVERY == 0) {
          progress.line(round - 1, ledger, violations, readiness, requests);
        }
        long t0 = System.nanoTime();
        Served s = serve(root, dir, env, round);
        last = s;
        awaitReady(s);
        readiness.add((System.nanoTime() - t0) / 1e9);
        violations.addAll(check(s.base(), root, ledger, round));
        if (round > rounds) {
          break; // the last start only checks the last kill
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          Random r = new Random(random.nextLong());
          String prefix = "r" + round + "w" + w + "n";
          Thread t = new Thread(() -> write(s.base(), ledger, r, prefix, stop, Integer.MAX_VALUE), "kill9-writer-" + w);
          t.setUncaughtExceptionHandler((th, e) -> violations.add("writer " + th.getName() + " broke: " + e));
          t.start();
          writers.add(t);
        }
        Thread.sleep(500 + random.nextInt(3_500));
        s.process().destroyForcibly(); // SIGKILL: no drain, no lease release, no sidecar retire
        assertThat(s.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
        stop.set(true);
        for (Thread t : writers) {
          t.join(TimeUnit.SECONDS.toMillis(70));
        }
      }
    } finally {
      if (last != null && last.process().isAlive()) {
        last.process().destroy();
        last.process().waitFor(40, TimeUnit.SECONDS);
      }
    }
    long acked = ledger.attempts.stream().filter(Attempt::acked).count();
    long ackedRows = ledger.attempts.stream().filter(a -> a.acked() && a.kind() != Kind.BRANCH_CREATE
        && a.kind() != Kind.MERGE).mapToLong(a -> a.names().size()).sum();
    long losses = violations.stream().filter(v -> v.startsWith("lost")).count();
    long partial = violations.stream().filter(v -> v.startsWith("partial")).count();
    long sidecars = violations.stream().filter(v -> v.startsWith("sidecar")).count();
    Map<Integer, Long> statuses = new java.util.TreeMap<>();
    ledger.attempts.forEach(a -> statuses.merge(a.status(), 1L, Long::sum));
    List<Double> sorted = new ArrayList<>(readiness);
    Collections.sort(sorted);
    System.out.printf("%s%d rounds in %.0f s: %d requests, %d acknowledged (%d rows, %d branch creates, %d merges),"
        + " %d losses, %d partial batches, %d sidecars left, %d other violations; readiness after start: median"
        + " %.2f s, p99 %.2f s, max %.2f s; answers %s (-1: in doubt) (seed %d)%n", tag, rounds,
        (System.nanoTime() - started) / 1e9,
        ledger.attempts.size(), acked, ackedRows, count(ledger, Kind.BRANCH_CREATE), count(ledger, Kind.MERGE),
        losses, partial, sidecars, violations.size() - losses - partial - sidecars, percentile(sorted, 0.5),
        percentile(sorted, 0.99), sorted.get(sorted.size() - 1), statuses, seed);
    progress.last(rounds, ledger, violations, readiness, requests);
    assertThat(violations).as(tag + "seed " + seed).isEmpty();
    assertThat(acked).as("acknowledged requests").isPositive();
  }

  /**
   * A line every {@link #EVERY} rounds, so a long soak shows where it is and a stopped one has
   * figures: rounds, time, the last window's mean round, requests and acknowledgements so far, the
   * violations so far, the window's readiness median, and on S3 the window's requests per round by
   * kind with the store's mean answer time (which separates "a round asks more of the store" from
   * "the store answers the same requests more slowly").
   */
  private static final class Progress {
    private final String tag;
    private final long started;
    private long windowStart;
    private int windowFirstRound = 1;

    Progress(String tag, long started) {
      this.tag = tag;
      this.started = started;
      this.windowStart = started;
    }

    void line(int round, Ledger ledger, List<String> violations, List<Double> readiness,
        Optional<ConditionalWriteSerializer.RequestLog> requests) {
      long now = System.nanoTime();
      int n = Math.max(1, round - windowFirstRound + 1);
      List<Double> window = new ArrayList<>(readiness.subList(Math.min(windowFirstRound - 1, readiness.size()),
          Math.min(round, readiness.size())));
      Collections.sort(window);
      String store = requests.map(log -> perKind(log.drain(), n)).orElse("");
      System.out.printf("%sround %d: %.0f s; last %d rounds %.1f s each, readiness median %.2f s; %d requests,"
          + " %d acknowledged; %d violations so far%s%n", tag, round, (now - started) / 1e9, n,
          (now - windowStart) / 1e9 / n, window.isEmpty() ? 0.0 : percentile(window, 0.5), ledger.attempts.size(),
          ledger.attempts.stream().filter(Attempt::acked).count(), violations.size(), store);
      windowStart = now;
      windowFirstRound = round + 1;
    }

    /** The line for the rounds since the last one, if any. */
    void last(int round, Ledger ledger, List<String> violations, List<Double> readiness,
        Optional<ConditionalWriteSerializer.RequestLog> requests) {
      if (windowFirstRound <= round) {
        line(round, ledger, violations, readiness, requests);
      }
    }

    /** "; store per round: LIST 40 (12 ms), GET …": the window's requests by kind, with mean answer time. */
    private static String perKind(List<ConditionalWriteSerializer.Request> drained, int rounds) {
      Map<String, long[]> byKind = new java.util.TreeMap<>();
      for (ConditionalWriteSerializer.Request r : drained) {
        long[] c = byKind.computeIfAbsent(r.listing() ? "LIST" : r.method(), k -> new long[2]);
        c[0]++;
        c[1] += r.answeredNanos() - r.receivedNanos();
      }
      StringBuilder out = new StringBuilder("; store per round:");
      byKind.forEach((kind, c) -> out.append(String.format(" %s %.0f (%.1f ms)", kind, (double) c[0] / rounds,
          c[1] / 1e6 / c[0])));
      return out.toString();
    }
  }

  private static long count(Ledger ledger, Kind kind) {
    return ledger.attempts.stream().filter(a -> a.acked() && a.kind() == kind).count();
  }

  private static double percentile(List<Double> sorted, double p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }

  private Served serve(StorageConfig root, Path dir, Map<String, String> env, int round) throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    ProcessBuilder b = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", Integer.toString(port), "--store",
        root.rootUri()).redirectErrorStream(true).redirectOutput(dir.resolve("serve-" + round + ".log").toFile());
    b.environment().putAll(env);
    b.environment().put("OMNIGRAPH_JAVA_OPTS", "-Domnigraph.lease.ttl=3000ms"
        + " -Domnigraph.recovery.reconcile-interval=300ms");
    return new Served(b.start(), port);
  }

  private void awaitReady(Served s) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    String last = "";
    while (System.nanoTime() < deadline) {
      assertThat(s.process().isAlive()).as("serve exited early").isTrue();
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port()
            + "/q/health/ready")).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        last = r.statusCode() + " " + r.body();
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(25);
    }
    throw new AssertionError("serve never ready; last: " + last);
  }

  /**
   * One writer: requests to the graph at {@code base} until the server dies under it (or {@code max}
   * requests), each recorded with its answer (-1: in doubt).
   */
  static void write(String base, Ledger ledger, Random r, String prefix, AtomicBoolean stop, int max) {
    int n = 0;
    while (!stop.get() && n < max) {
      n++;
      int pick = r.nextInt(100);
      String branch = ledger.branches.get(r.nextInt(ledger.branches.size()));
      Kind kind;
      String target = branch;
      List<String> names = new ArrayList<>();
      Set<String> before = Set.of();
      String url;
      String type = "application/json";
      String body;
      if (pick < 45) {
        kind = Kind.INSERT;
        names.add(prefix + n);
        ObjectNode b = JSON.createObjectNode().put("query", GQ).put("name", "add").put("branch", branch);
        b.set("params", JSON.createObjectNode().put("name", names.get(0)).put("age", n));
        url = base + "/mutate";
        body = b.toString();
      } else if (pick < 75) {
        kind = Kind.LOAD;
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < LOAD_ROWS; i++) {
          names.add(prefix + n + "x" + i);
          ObjectNode line = JSON.createObjectNode().put("type", "Person");
          line.set("data", JSON.createObjectNode().put("name", names.get(i)).put("age", i));
          ndjson.append(line).append('\n');
        }
        url = base + "/load/ndjson?mode=append&branch=" + URLEncoder.encode(branch, StandardCharsets.UTF_8);
        type = "application/x-ndjson";
        body = ndjson.toString();
      } else if (pick < 85 && ledger.branches.size() < MAX_BRANCHES) {
        kind = Kind.BRANCH_CREATE;
        target = "b" + prefix + n;
        url = base + "/branches";
        body = JSON.createObjectNode().put("name", target).put("from", "main").toString();
      } else {
        List<String> others = ledger.branches.stream().filter(b -> !b.equals("main")).toList();
        if (others.isEmpty()) {
          continue;
        }
        kind = Kind.MERGE;
        target = others.get(r.nextInt(others.size()));
        before = ledger.ackedOnNow(target);
        url = base + "/branches/merge";
        body = JSON.createObjectNode().put("source", target).put("target", "main").toString();
      }
      ledger.sent.addAll(names);
      int status;
      try {
        status = post(url, type, body);
      } catch (IOException | InterruptedException dead) {
        status = -1; // the server died under the request: in doubt, never acknowledged
      }
      Attempt a = new Attempt(kind, target, List.copyOf(names), before, status);
      if (a.acked()) {
        switch (kind) {
          case INSERT, LOAD -> ledger.acked(target, names);
          case BRANCH_CREATE -> ledger.branches.add(target); // it holds what main held, which the check reads
          case MERGE -> { }
        }
      }
      ledger.attempts.add(a);
    }
  }

  private static int post(String url, String type, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", type)
        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /**
   * Checks the restarted server against every request sent so far: acknowledged ones fully there,
   * refused and in-doubt ones all or nothing.
   */
  static List<String> check(String base, StorageConfig root, Ledger ledger, int round) throws Exception {
    List<String> out = new ArrayList<>();
    String where = " (after the kill of round " + (round - 1) + ")";
    HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create(base + "/branches"))
        .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    Set<String> branches = new HashSet<>();
    JSON.readTree(list.body()).get("branches").forEach(b -> branches.add(b.asText()));
    Map<String, Set<String>> rows = new HashMap<>();
    // Every branch is read whole, all at once: the reads are most of a round's time once the graph
    // has grown, and the server answers them side by side.
    Map<String, java.util.concurrent.CompletableFuture<HttpResponse<String>>> reads = new java.util.TreeMap<>();
    for (String b : branches) {
      ObjectNode body = JSON.createObjectNode().put("query", READ).put("branch", b);
      reads.put(b, http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/query"))
          .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
          .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString()));
    }
    for (String b : reads.keySet()) {
      HttpResponse<String> r;
      try {
        r = reads.get(b).join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      Set<String> names = new HashSet<>();
      for (JsonNode row : JSON.readTree(r.body()).get("rows")) {
        String name = row.get("p.name").asText();
        if (!names.add(name)) {
          out.add("duplicate " + name + " on " + b + where);
        }
        if (!ledger.sent.contains(name)) {
          out.add("unknown row " + name + " on " + b + where);
        }
      }
      rows.put(b, names);
    }
    for (Attempt a : ledger.attempts) {
      Set<String> on = rows.getOrDefault(a.branch(), Set.of());
      switch (a.kind()) {
        case BRANCH_CREATE -> {
          if (a.acked() && !branches.contains(a.branch())) {
            out.add("lost branch " + a.branch() + where);
          }
        }
        case INSERT, LOAD -> {
          long present = a.names().stream().filter(on::contains).count();
          if (a.acked() && present < a.names().size()) {
            out.add("lost " + (a.names().size() - present) + " of " + a.kind() + " " + a.names() + " on " + a.branch()
                + where);
          } else if (present != 0 && present != a.names().size()) {
            out.add("partial " + a.kind() + " " + a.names() + " on " + a.branch() + ": " + present + " rows" + where);
          }
        }
        case MERGE -> {
          if (a.acked()) {
            Set<String> main = rows.getOrDefault("main", Set.of());
            List<String> missing = a.sourceRowsBefore().stream().filter(n -> !main.contains(n)).toList();
            if (!missing.isEmpty()) {
              out.add("lost by merge of " + a.branch() + " into main: " + missing + where);
            }
          }
        }
      }
    }
    // Ready means no write-blocking sidecar; a recovered write's retire may still be finishing.
    try (StorageAdapter store = StorageAdapters.open(root)) {
      List<String> left = store.list(SidecarStore.PREFIX);
      for (int i = 0; i < 50 && !left.isEmpty(); i++) {
        Thread.sleep(100);
        left = store.list(SidecarStore.PREFIX);
      }
      if (!left.isEmpty()) {
        out.add("sidecar left after recovery: " + left + where);
      }
    }
    return out;
  }
}
