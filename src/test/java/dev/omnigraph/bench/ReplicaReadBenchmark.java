package dev.omnigraph.bench;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Read throughput of 1 vs 3 read replicas (issue 17): packaged services in
 * {@code omnigraph.mode=read-only} on one local graph root (2,000 people, 4,000 knows edges), driven
 * by the same client threads for the same time with a fixed query mix (a key lookup, a filtered
 * scan with an aggregate, a one-hop traversal), round-robin over the replicas. Reports requests per
 * second and the 3:1 ratio. Needs the packaged jar ({@code ./mvnw -B -DskipTests package}). Run:
 * {@code ./mvnw -B -o -Pbench -DskipTests process-test-classes exec:exec@replica-read-benchmark}.
 */
public final class ReplicaReadBenchmark {

  private static final int PEOPLE = 2_000;
  private static final int CLIENTS = Integer.getInteger("omnigraph.bench.clients", 6);
  private static final int SECONDS = Integer.getInteger("omnigraph.bench.seconds", 20);

  private ReplicaReadBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "target/bench")).resolve("replicas-"
        + System.nanoTime());
    Path root = dir.resolve("g");
    String schema = Files.readString(Path.of("src/test/resources/graphs/people.pg"));
    try (Omnigraph g = Omnigraph.init(StorageConfig.local(root), schema, Optional.of("bench"))) {
      StringBuilder nd = new StringBuilder();
      for (int i = 0; i < PEOPLE; i++) {
        nd.append("{\"type\":\"Person\",\"data\":{\"name\":\"p").append(i).append("\",\"age\":").append(i % 90)
            .append("}}\n");
      }
      g.load("main", new StringReader(nd.toString()), LoadMode.OVERWRITE, Optional.of("bench"));
      nd.setLength(0);
      for (int i = 0; i < PEOPLE; i++) {
        for (int k = 1; k <= 2; k++) {
          nd.append("{\"edge\":\"Knows\",\"from\":\"p").append(i).append("\",\"to\":\"p").append((i + k * 7) % PEOPLE)
              .append("\",\"data\":{}}\n");
        }
      }
      g.load("main", new StringReader(nd.toString()), LoadMode.OVERWRITE, Optional.of("bench"));
    }
    double one = run(dir, root, 1);
    double three = run(dir, root, 3);
    System.out.printf("%nReplica read throughput (%d client threads, %d s each, %d cores):%n", CLIENTS, SECONDS,
        Runtime.getRuntime().availableProcessors());
    System.out.printf("| readers | requests/s |%n|---|---|%n| 1 | %.1f |%n| 3 | %.1f |%n", one, three);
    System.out.printf("ratio 3:1 = %.2f%n", three / one);
  }

  private static double run(Path dir, Path root, int readers) throws Exception {
    List<Process> procs = new ArrayList<>();
    List<String> bases = new ArrayList<>();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try {
      for (int i = 0; i < readers; i++) {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
          port = s.getLocalPort();
        }
        ProcessBuilder b = new ProcessBuilder("bin/omnigraph", "serve", "--port", Integer.toString(port), "--store",
            root.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("reader-" + readers + "-" + i + ".log")
            .toFile());
        b.environment().put("OMNIGRAPH_JAVA_OPTS", "-Domnigraph.mode=read-only -Xmx512m");
        procs.add(b.start());
        bases.add("http://127.0.0.1:" + port);
      }
      for (String base : bases) {
        awaitReady(http, base);
      }
      String[] mix = {
          "query q() { match { $p: Person { name: \\\"p%d\\\" } } return { $p.name, $p.age } }",
          "query q() { match { $p: Person  $p.age > %d } return { count($p) as n } }",
          "query q() { match { $p: Person { name: \\\"p%d\\\" }  $p knows $f } return { $f.name } }"};
      // Warm every replica (JIT, Lance handles) before measuring.
      for (String base : bases) {
        for (int i = 0; i < 30; i++) {
          post(http, base, String.format(mix[i % 3], i));
        }
      }
      AtomicLong ok = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        Thread t = new Thread(() -> {
          long n = client;
          while (System.nanoTime() < end) {
            String base = bases.get((int) (n % bases.size()));
            try {
              if (post(http, base, String.format(mix[(int) (n % 3)], (n * 37) % PEOPLE % 90)) == 200) {
                ok.incrementAndGet();
              } else {
                failed.incrementAndGet();
              }
            } catch (Exception e) {
              failed.incrementAndGet();
            }
            n += CLIENTS;
          }
        });
        t.start();
        threads.add(t);
      }
      for (Thread t : threads) {
        t.join();
      }
      if (failed.get() > 0) {
        System.out.printf("readers %d: %d failed requests%n", readers, failed.get());
      }
      return ok.get() / (double) SECONDS;
    } finally {
      for (Process p : procs) {
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private static int post(HttpClient http, String base, String query) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/query"))
        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"" + query + "\"}", StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString());
    return r.statusCode();
  }

  static void awaitReady(HttpClient http, String base) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      try {
        if (http.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).GET().build(),
            HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // starting
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("reader at " + base + " never ready");
  }
}
