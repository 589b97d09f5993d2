package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.testing.S3TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged uber-jar through {@code bin/omnigraph}, as a user does. {@code @QuarkusTest}
 * uses a flat classpath that hides class-loading faults of the packaged layout (PRODUCT.md §2), so
 * the serve and Lance async-scan paths are proven here against the real artifact.
 */
class PackagedAppIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path LAUNCHER = BASEDIR.resolve("bin/omnigraph");

  record Run(int exit, String stdout, String stderr) {}

  private static Run run(Path workDir, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of(LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(workDir, "out", ".txt");
    Path err = Files.createTempFile(workDir, "err", ".txt");
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("command finished: %s", cmd).isTrue();
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /**
   * Issue 45: an S3 root where the AWS SDK's default chain finds no credentials. Before, the first
   * request failed inside Lance: 9.4 KB of native credential-chain warnings, "Please file a bug
   * report", and never the variables to set. Now each command says in one line which {@code AWS_*}
   * variables to set and exits 1, without a request to the store. The chain is made to find nothing:
   * no {@code AWS_*} credentials, a fresh HOME, instance metadata off.
   */
  @Test
  void anS3RootWithoutCredentialsNamesTheVariablesToSet(@TempDir Path dir) throws Exception {
    for (String command : List.of("doctor", "snapshot", "repair")) {
      List<String> cmd = List.of(LAUNCHER.toString(), command, "--store", "s3://omnigraph-no-such-bucket/g");
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
      pb.environment().put("HOME", dir.toString());
      pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
      pb.environment().put("AWS_REGION", "us-east-1");
      pb.environment().put("OMNIGRAPH_CDS", "0");
      Path out = Files.createTempFile(dir, "out", ".txt");
      Path err = Files.createTempFile(dir, "err", ".txt");
      long start = System.nanoTime();
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      String stderr = Files.readString(err);
      assertThat(p.exitValue()).as(command + ": " + stderr).isEqualTo(1);
      assertThat(stderr).as(command)
          .contains("no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
          .contains("AWS_SESSION_TOKEN").contains("AWS_PROFILE").contains("s3://omnigraph-no-such-bucket/g")
          .doesNotContainIgnoringCase("bug report").doesNotContain("Exception").doesNotContain("WARN");
      assertThat(stderr.length()).as(command + ": " + stderr).isLessThan(800);
      assertThat(Files.readString(out)).as(command).isEmpty();
      assertThat(took).as(command + " refused before any request").isLessThan(Duration.ofSeconds(30));
    }
  }

  @Test
  void versionPrintsReleaseAndInternalSchemaVersion(@TempDir Path dir) throws Exception {
    Run r = run(dir, "version");
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("omnigraph 0.").contains("internal schema version 6");
    assertThat(r.stderr()).doesNotContain("Listening on");
  }

  @Test
  void unknownCommandIsAUsageError(@TempDir Path dir) throws Exception {
    Run r = run(dir, "no-such-command");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.stderr()).contains("no-such-command");
  }

  /**
   * Issue 45 item 2: {@code serve --help} used to boot the service (port bound, ./omnigraph-data
   * opened, writer lease taken) before refusing {@code --help}. The launcher now parses first.
   */
  @Test
  void serveHelpPrintsUsageAndStartsNothing(@TempDir Path dir) throws Exception {
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    long start = System.nanoTime();
    Run r = run(dir, "serve", "--port", Integer.toString(port), "--help");
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stdout()).startsWith("Usage: omnigraph serve").contains("--port=PORT").contains("\nExample:\n");
    assertThat(r.stderr()).doesNotContain("Listening on").doesNotContain("Unknown option");
    // A JVM start and a Quarkus boot with HTTP off: seconds, not a server that runs until stopped.
    assertThat(took).isLessThan(Duration.ofSeconds(60));
    try (java.net.ServerSocket again = new java.net.ServerSocket(port)) {
      assertThat(again.getLocalPort()).isEqualTo(port);
    }
    try (var files = Files.list(dir)) {
      // Only run()'s own capture files: no omnigraph-data, no lease.
      assertThat(files.map(f -> f.getFileName().toString())).allMatch(n -> n.matches("(out|err)\\d+\\.txt"));
    }
  }

  @Test
  void aMissingSchemaFileIsAUsageErrorNamingTheCommandAndThePath(@TempDir Path dir) throws Exception {
    Run r = run(dir, "init", "--schema", "people.pg", "g");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.stderr()).startsWith("error: omnigraph init: file not found: people.pg\n");
    assertThat(dir.resolve("g")).doesNotExist();
  }

  @Test
  void serveAnswersHealthReadinessMetricsHealthzAndTheEmbeddedExample(@TempDir Path dir) throws Exception {
    String port = System.getProperty("omnigraph.it.http.port", "18081");
    Path log = dir.resolve("serve.log");
    // No --store: the embedded default, ./omnigraph-data, becomes the example graph on first use.
    Process serve = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", port)
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      String base = "http://127.0.0.1:" + port;
      HttpResponse<String> ready = awaitOk(http, base + "/q/health/ready", serve, log);
      assertThat(ready.body()).contains("\"UP\"").contains("omnigraph-graphs");
      assertThat(get(http, base + "/q/health/live").statusCode()).isEqualTo(200);
      HttpResponse<String> healthz = get(http, base + "/healthz");
      assertThat(healthz.statusCode()).isEqualTo(200);
      assertThat(healthz.body()).contains("\"status\":\"ok\"").contains("\"internal_schema_version\":6");
      assertThat(get(http, base + "/graphs").body()).contains("\"graph_id\":\"default\"");
      // A traversal over the example graph runs Lance scans inside the packaged layout.
      HttpResponse<String> friends = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/query"))
          .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
          .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"query f() { match { $p: Person { name: "
              + "\\\"alice\\\" }  $p knows $f } return { $f.name } }\"}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(friends.statusCode()).as(friends.body()).isEqualTo(200);
      assertThat(friends.body()).contains("\"rows\":[{\"f.name\":\"bob\"}]");
      assertThat(get(http, base + "/q/metrics").body()).contains("# TYPE");
      assertThat(get(http, base + "/q/openapi").body()).contains("/healthz").contains("/graphs/{graph_id}/query");
      assertThat(dir.resolve("omnigraph-data").resolve("__manifest")).isDirectory();
    } finally {
      serve.destroy();
      if (!serve.waitFor(20, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
    assertThat(Files.readString(log)).doesNotContain("NoClassDefFoundError");
  }

  @Test
  void doctorRunsLanceAsyncScanInThePackagedJarOnLocalFs(@TempDir Path dir) throws Exception {
    Run r = run(dir, "doctor", "--store", dir.resolve("g").toString());
    assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).contains("async").doesNotContain("FAIL");
    assertThat(r.stderr()).doesNotContain("NoClassDefFoundError").doesNotContain("panicked");
  }

  @Test
  void doctorRunsLanceAsyncScanInThePackagedJarOnS3(@TempDir Path dir) throws Exception {
    String root = S3TestServer.get().freshRoot("doctor").rootUri();
    // The child inherits AWS_* from this JVM (set by failsafe to the same S3Mock port).
    Run r = run(dir, "doctor", "--store", root);
    assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
    assertThat(r.stdout()).contains("async").doesNotContain("FAIL");
    assertThat(r.stderr()).doesNotContain("NoClassDefFoundError").doesNotContain("panicked");
  }

  @Test
  void aNewUserInitialisesInspectsAndBranchesAGraph(@TempDir Path dir) throws Exception {
    Path schema = dir.resolve("people.pg");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/people.pg"), schema);
    Path graph = dir.resolve("g");

    Run init = run(dir, "init", "--schema", schema.toString(), graph.toString());
    assertThat(init.exit()).as(init.stderr()).isZero();
    assertThat(init.stdout()).contains("initialised").contains("4 datasets");

    Run snapshot = run(dir, "snapshot", "--json", "--store", graph.toString());
    assertThat(snapshot.exit()).as(snapshot.stderr()).isZero();
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(snapshot.stdout());
    assertThat(json.get("graph_branch").asText()).isEqualTo("main");
    assertThat(json.get("internal_schema_version").asInt()).isEqualTo(6);
    assertThat(json.get("datasets")).hasSize(4);
    assertThat(json.get("datasets").get(0).get("entity_count").asLong()).isZero();

    assertThat(run(dir, "branch", "create", "feature", "--store", graph.toString()).exit()).isZero();
    Run list = run(dir, "branch", "list", "--json", "--store", graph.toString());
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(list.stdout()).get("branches").toString())
        .isEqualTo("[\"main\",\"feature\"]");

    Run commits = run(dir, "commit", "list", "--json", "--store", graph.toString());
    var commitJson = new com.fasterxml.jackson.databind.ObjectMapper().readTree(commits.stdout());
    assertThat(commitJson.get("commits")).hasSize(1);
    assertThat(commitJson.get("commits").get(0).get("graph_commit_id").asText()).hasSize(26);

    Run again = run(dir, "branch", "create", "feature", "--store", graph.toString());
    assertThat(again.exit()).isEqualTo(3);
    assertThat(again.stderr()).contains("already exists");
  }

  @Test
  void aNewUserLoadsAGraphAndRunsMaintenanceWithNothingToDo(@TempDir Path dir) throws Exception {
    Path schema = dir.resolve("people.pg");
    Files.copy(BASEDIR.resolve("src/test/resources/graphs/people.pg"), schema);
    Path data = dir.resolve("people.ndjson");
    Files.writeString(data, "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":31}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n");
    Path graph = dir.resolve("g");
    var json = new com.fasterxml.jackson.databind.ObjectMapper();

    Run init = run(dir, "init", "--schema", schema.toString(), graph.toString());
    assertThat(init.exit()).as(init.stderr()).isZero();
    Run load = run(dir, "load", "--data", data.toString(), "--json", graph.toString());
    assertThat(load.exit()).as(load.stderr()).isZero();
    assertThat(json.readTree(load.stdout()).get("commit").get("graph_commit_id").asText()).hasSize(26);

    Run repair = run(dir, "repair", "--json", "--store", graph.toString());
    assertThat(repair.exit()).as(repair.stderr()).isZero();
    var repaired = json.readTree(repair.stdout());
    assertThat(repaired.get("applied").asBoolean()).isFalse();
    assertThat(repaired.get("pins_checked").asInt()).isEqualTo(4);
    assertThat(repaired.get("drift")).isEmpty();
    assertThat(repaired.get("unreferenced_refs")).isEmpty();
    assertThat(repaired.get("invariant_violations")).isEmpty();

    Run dryRun = run(dir, "cleanup", "--dry-run", "--json", "--store", graph.toString());
    assertThat(dryRun.exit()).as(dryRun.stderr()).isZero();
    assertThat(json.readTree(dryRun.stdout()).get("dry_run").asBoolean()).isTrue();
    Run cleanup = run(dir, "cleanup", "--json", "--store", graph.toString());
    assertThat(cleanup.exit()).as(cleanup.stderr()).isZero();
    var cleaned = json.readTree(cleanup.stdout());
    assertThat(cleaned.get("dry_run").asBoolean()).isFalse();
    assertThat(cleaned.get("commits_scanned").asInt()).isEqualTo(2);
    // Nothing a commit pins is removed: only init's own steps before the genesis pin (the empty
    // table's creation and its key-index commits) go.
    assertThat(cleaned.get("tables")).hasSize(4).allSatisfy(t -> {
      long oldestPinned = java.util.stream.StreamSupport.stream(t.get("pinned_versions").spliterator(), false)
          .mapToLong(com.fasterxml.jackson.databind.JsonNode::asLong).min().orElseThrow();
      assertThat(t.get("removed_versions")).allSatisfy(v -> assertThat(v.asLong()).isLessThan(oldestPinned));
    });

    Run recover = run(dir, "recover", "--json", "--store", graph.toString());
    assertThat(recover.exit()).as(recover.stderr()).isZero();
    var recovered = json.readTree(recover.stdout());
    assertThat(recovered.get("settled_at_open")).isEmpty();
    assertThat(recovered.get("settled")).isEmpty();
    assertThat(recovered.get("pending")).isEmpty();

    Run snapshot = run(dir, "snapshot", "--json", "--store", graph.toString());
    assertThat(json.readTree(snapshot.stdout()).get("datasets"))
        .filteredOn(d -> d.get("type_name").asText().equals("Person"))
        .singleElement().satisfies(d -> assertThat(d.get("entity_count").asLong()).isEqualTo(2));
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> awaitOk(HttpClient http, String url, Process p, Path log)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      assertThat(p.isAlive()).as("serve exited early: %s", Files.readString(log)).isTrue();
      try {
        HttpResponse<String> r = get(http, url);
        if (r.statusCode() == 200) {
          return r;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(250);
    }
    throw new AssertionError("no 200 from " + url + ": " + Files.readString(log));
  }

  /**
   * {@code serve} is exec'd by the launcher, so its class-data archive cannot be moved into place after
   * it as a CLI command's is: a graceful stop writes it under a name carrying the JVM's pid, and the next
   * {@code serve} adopts it once a JVM has mapped it. A recording cut short (here: truncated, its pid
   * gone) is deleted, never adopted: mapped, it would crash every later start with SIGBUS.
   */
  @Test
  void serveRecordsItsClassArchiveOnAGracefulStopAndTheNextServeAdoptsIt(@TempDir Path dir) throws Exception {
    Path cache = Files.createDirectories(dir.resolve("cds"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Run init = run(work, "init", "--schema", BASEDIR.resolve("src/test/resources/graphs/social.pg").toAbsolutePath()
        .toString(), "g");
    assertThat(init.exit()).as(init.stderr()).isZero();
    Process first = startServe(work, cache);
    first.destroy(); // SIGTERM: a graceful stop, which writes the archive at exit
    assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<Path> recorded = list(cache);
    assertThat(recorded).hasSize(1);
    String name = recorded.get(0).getFileName().toString();
    assertThat(name).matches("omnigraph-\\d+\\.jsa\\.serve-" + first.pid() + "\\.partial");
    assertThat(Files.size(recorded.get(0))).isGreaterThan(1 << 20);
    // A recording cut short (half its bytes), its process gone (no pid is above pid_max, 2^22): the
    // next serve deletes it, starts without an archive, and records none until it stops gracefully.
    String base = name.substring(0, name.indexOf(".serve-"));
    Path good = dir.resolve("good.jsa");
    Files.move(recorded.get(0), good);
    try (var in = Files.newInputStream(good)) {
      Files.write(cache.resolve(base + ".serve-4194305.partial"), in.readNBytes((int) (Files.size(good) / 2)));
    }
    Process second = startServe(work, cache);
    try {
      assertThat(list(cache)).isEmpty();
    } finally {
      second.destroyForcibly(); // kill -9: nothing is recorded
      assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(list(cache)).isEmpty();

    // A whole recording is adopted; a serve that maps it records nothing more, stopped either way.
    Files.move(good, cache.resolve(base + ".serve-4194305.partial"));
    Process third = startServe(work, cache);
    assertThat(list(cache)).extracting(f -> f.getFileName().toString()).containsExactly(base);
    third.destroy();
    assertThat(third.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(list(cache)).extracting(f -> f.getFileName().toString()).containsExactly(base);
    try (var files = Files.list(work)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("hs_err") || n.startsWith("core"));
    }
    assertThat(Files.readString(work.resolve("serve.log"))).doesNotContain("SIGBUS");
  }

  private static List<Path> list(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  /** {@code bin/omnigraph serve} on a fresh local root under {@code work}, with its archives in {@code cache}; ready. */
  private static Process startServe(Path work, Path cache) throws Exception {
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", Integer.toString(port), "--store",
        work.resolve("g").toString()).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("serve.log").toFile()));
    pb.environment().put("OMNIGRAPH_CDS_CACHE", cache.toString());
    pb.environment().remove("OMNIGRAPH_CDS");
    Process p = pb.start();
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      assertThat(p.isAlive()).as("serve exited: %s", Files.readString(work.resolve("serve.log"))).isTrue();
      try {
        if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return p;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("serve not ready: " + Files.readString(work.resolve("serve.log")));
  }
}
