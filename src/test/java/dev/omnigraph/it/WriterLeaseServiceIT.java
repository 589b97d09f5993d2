package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer lease with packaged services (issue 17), real processes on one root: a second writer
 * waits as a standby (readiness DOWN {@code standby}, liveness UP, writes 503 with
 * {@code Retry-After}); SIGTERM drains the writer (the in-flight write is acknowledged, a new one gets
 * 503, the lease is released) and the standby takes over at once; a read replica
 * ({@code omnigraph.mode=read-only}) refuses writes and sees the writer's commits; a SIGKILLed holder
 * is taken over after its TTL with every acknowledged write present (takeover time, median of 5,
 * printed). Writers get distinct {@code HOSTNAME}s, so a holder is never judged dead from its pid:
 * only the TTL (or a release) frees its lease, as across pods.
 */
// Alone in the parallel IT run (pom.xml, failsafe): the takeover and replica staleness are timed.
@Isolated
class WriterLeaseServiceIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path LAUNCHER = BASEDIR.resolve("bin/omnigraph");
  private static final String GQ = "query add_person($name: String, $age: I32?) {\n"
      + "  insert Person { name: $name, age: $age }\n}\n";
  private static final long TTL_MS = 3_000;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** A running {@code serve} on a root. */
  private record Served(Process process, int port, Path log) {
    String base() {
      return "http://127.0.0.1:" + port;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Served serve(Path dir, Path store, String host, String... props) throws IOException {
    int port = freePort();
    Path log = Files.createTempFile(dir, "serve-" + host + "-", ".log");
    List<String> opts = new ArrayList<>(List.of("-Domnigraph.lease.ttl=" + TTL_MS + "ms",
        "-Domnigraph.recovery.reconcile-interval=500ms", "-Domnigraph.drain.grace=30s"));
    opts.addAll(List.of(props));
    ProcessBuilder b = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", Integer.toString(port), "--store",
        store.toString()).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = b.environment();
    env.put("HOSTNAME", host);
    env.put("OMNIGRAPH_JAVA_OPTS", String.join(" ", opts));
    return new Served(b.start(), port, log);
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest write(Served s, String name) {
    String body = "{\"query\":" + json(GQ) + ",\"name\":\"add_person\",\"params\":{\"name\":\"" + name + "\"}}";
    return HttpRequest.newBuilder(URI.create(s.base() + "/graphs/default/mutate"))
        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private HttpResponse<String> send(HttpRequest r) throws IOException, InterruptedException {
    return http.send(r, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> people(Served s) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(s.base() + "/graphs/default/query"))
        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"query\":\"query q() { match { $p: Person } return { $p.name } }\"}")).build());
  }

  private static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Waits for readiness to answer {@code status}; returns the body. */
  private String awaitReady(Served s, int status, String bodyContains) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String last = "";
    while (System.nanoTime() < deadline) {
      assertThat(s.process().isAlive()).as("serve exited early: %s", Files.readString(s.log())).isTrue();
      try {
        HttpResponse<String> r = get(s.base() + "/q/health/ready");
        last = r.statusCode() + " " + r.body();
        if (r.statusCode() == status && r.body().contains(bodyContains)) {
          return r.body();
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(50);
    }
    throw new AssertionError("readiness of " + s.base() + " never " + status + " with " + bodyContains + "; last: "
        + last + "\n" + Files.readString(s.log()));
  }

  private static void stop(Served s) throws InterruptedException {
    if (s != null && s.process().isAlive()) {
      s.process().destroy();
      if (!s.process().waitFor(40, TimeUnit.SECONDS)) {
        s.process().destroyForcibly().waitFor(20, TimeUnit.SECONDS);
      }
    }
  }

  private static Path initGraph(Path dir) throws Exception {
    Path schema = dir.resolve("people.pg");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/people.pg"), schema);
    Path store = dir.resolve("g");
    Process init = new ProcessBuilder(LAUNCHER.toString(), "init", "--schema", schema.toString(), store.toString())
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("init.log").toFile()).start();
    assertThat(init.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(init.exitValue()).as(Files.readString(dir.resolve("init.log"))).isZero();
    return store;
  }

  @Test
  void aStandbyWaitsTheWriterDrainsOnSigtermAndAReadReplicaFollows(@TempDir Path dir) throws Exception {
    Path store = initGraph(dir);
    // Every write on the first writer holds 2 s before its publish: a write in flight at SIGTERM.
    Served writer = serve(dir, store, "writer-a",
        dev.omnigraph.util.FailpointAgent.javaOption(dir, "write.before_publish=sleep:2000"));
    Served standby = null;
    Served reader = null;
    try {
      awaitReady(writer, 200, "\"UP\"");
      standby = serve(dir, store, "writer-b");
      reader = serve(dir, store, "reader-r", "-Domnigraph.mode=read-only");
      assertThat(awaitReady(standby, 503, "standby")).contains("\"default.reason\": \"standby\"");
      assertThat(get(standby.base() + "/q/health/live").statusCode()).as("liveness of a standby").isEqualTo(200);
      HttpResponse<String> refused = send(write(standby, "nope"));
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();
      assertThat(refused.body()).contains("standby");

      awaitReady(reader, 200, "\"UP\"");
      HttpResponse<String> toReplica = send(write(reader, "nope"));
      assertThat(toReplica.statusCode()).as(toReplica.body()).isEqualTo(503);
      assertThat(toReplica.headers().firstValue("Retry-After")).isEmpty();
      assertThat(toReplica.body()).contains("read replica");

      HttpResponse<String> first = send(write(writer, "w1"));
      assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

      // A write in flight, then SIGTERM: it is acknowledged; a new one is refused with 503.
      CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(write(writer, "w2"),
          HttpResponse.BodyHandlers.ofString());
      Thread.sleep(700);
      writer.process().destroy(); // SIGTERM
      Thread.sleep(300);
      HttpResponse<String> during = send(write(writer, "late"));
      assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
      assertThat(during.headers().firstValue("Retry-After")).isPresent();
      assertThat(during.body()).contains("shutting down");
      assertThat(get(writer.base() + "/q/health/live").statusCode()).as("liveness during the drain").isEqualTo(200);
      HttpResponse<String> second = inFlight.get(60, TimeUnit.SECONDS);
      assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
      assertThat(writer.process().waitFor(40, TimeUnit.SECONDS)).isTrue();
      long exited = System.nanoTime();

      // The lease was released: the standby takes over at its next pass, not after the TTL.
      awaitReady(standby, 200, "\"UP\"");
      double took = (System.nanoTime() - exited) / 1e9;
      System.out.printf("[WriterLeaseServiceIT] standby took over %.2f s after the drained writer exited%n", took);
      assertThat(took).isLessThan(TTL_MS / 1000.0);
      HttpResponse<String> third = send(write(standby, "w3"));
      assertThat(third.statusCode()).as(third.body()).isEqualTo(200);
      assertThat(Files.readString(writer.log())).contains("drained");

      // The replica sees every acknowledged write (its reads probe the latest head).
      long seenAfter = System.nanoTime();
      while (true) {
        HttpResponse<String> rows = people(reader);
        assertThat(rows.statusCode()).as(rows.body()).isEqualTo(200);
        if (rows.body().contains("\"w1\"") && rows.body().contains("\"w2\"") && rows.body().contains("\"w3\"")) {
          assertThat(rows.body()).doesNotContain("\"late\"").doesNotContain("\"nope\"");
          break;
        }
        assertThat(System.nanoTime() - seenAfter).as("replica staleness").isLessThan(TimeUnit.SECONDS.toNanos(5));
        Thread.sleep(50);
      }
      System.out.printf("[WriterLeaseServiceIT] replica saw the writer's commit %.3f s after its ack%n",
          (System.nanoTime() - seenAfter) / 1e9);
    } finally {
      stop(writer);
      stop(standby);
      stop(reader);
    }
  }

  @Test
  void aSigkilledHolderIsTakenOverAfterItsTtlWithEveryAcknowledgedWrite(@TempDir Path dir) throws Exception {
    Path store = initGraph(dir);
    Served holder = serve(dir, store, "host-0");
    List<Served> all = new ArrayList<>(List.of(holder));
    List<Double> takeovers = new ArrayList<>();
    List<String> acked = new ArrayList<>();
    try {
      awaitReady(holder, 200, "\"UP\"");
      for (int round = 1; round <= 5; round++) {
        Served standby = serve(dir, store, "host-" + round);
        all.add(standby);
        awaitReady(standby, 503, "standby");
        String name = "k" + round;
        HttpResponse<String> w = send(write(holder, name));
        assertThat(w.statusCode()).as(w.body()).isEqualTo(200);
        acked.add(name);
        holder.process().destroyForcibly(); // SIGKILL: no drain, no release
        holder.process().waitFor(20, TimeUnit.SECONDS);
        long killed = System.nanoTime();
        awaitReady(standby, 200, "\"UP\"");
        double took = (System.nanoTime() - killed) / 1e9;
        takeovers.add(took);
        // Bounded by the TTL (from the last renewal) plus one reconcile pass and the open.
        assertThat(took).as("takeover %d", round).isBetween(TTL_MS * 2 / 3 / 1000.0 - 0.2, TTL_MS / 1000.0 + 6);
        HttpResponse<String> rows = people(standby);
        assertThat(rows.statusCode()).as(rows.body()).isEqualTo(200);
        for (String a : acked) {
          assertThat(rows.body()).as("acknowledged write %s after takeover %d", a, round).contains("\"" + a + "\"");
        }
        holder = standby;
      }
    } finally {
      for (Served s : all) {
        stop(s);
      }
    }
    List<Double> sorted = new ArrayList<>(takeovers);
    Collections.sort(sorted);
    System.out.printf("[WriterLeaseServiceIT] takeover after SIGKILL (ttl %d ms, renew every %d ms, pass 500 ms):"
        + " %s, median %.2f s%n", TTL_MS, TTL_MS / 3, takeovers, sorted.get(2));
  }
}
