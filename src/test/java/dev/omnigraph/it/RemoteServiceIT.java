package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.testing.S3TestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against S3 (S3Mock on loopback): {@code bin/omnigraph init} creates a graph on S3, the
 * packaged service serves it, and the CLI's remote mode ({@code --server}) drives load, query,
 * branch, mutate and commit list through HTTP, including a typed conflict's exit code.
 */
class RemoteServiceIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path LAUNCHER = BASEDIR.resolve("bin/omnigraph");
  private static final ObjectMapper JSON = new ObjectMapper();

  record Run(int exit, String stdout, String stderr) {
    JsonNode json() throws Exception {
      return JSON.readTree(stdout);
    }
  }

  private static Run run(Path dir, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    // The child inherits AWS_* from this JVM (failsafe points them at the S3Mock front).
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    // The CLI client runs only; the served process keeps the launcher's defaults.
    pb.environment().put("OMNIGRAPH_JAVA_OPTS", NewUserFlowsIT.CLI_JVM_OPTIONS);
    Process p = pb.start();
    assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("command finished: %s", cmd).isTrue();
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void theCliDrivesAServedS3GraphRemotely(@TempDir Path dir) throws Exception {
    String root = S3TestServer.get().freshRoot("remote").rootUri();
    for (String f : List.of("social.pg", "social.ndjson", "social.gq")) {
      Files.copy(BASEDIR.resolve("src/test/resources/graphs/" + f), dir.resolve(f));
    }
    Run init = run(dir, "init", "--schema", "social.pg", root);
    assertThat(init.exit()).as(init.stderr()).isZero();

    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path log = dir.resolve("serve.log");
    Process serve = new ProcessBuilder(LAUNCHER.toString(), "serve", "--port", Integer.toString(port), "--store", root)
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    String server = "http://127.0.0.1:" + port;
    try {
      awaitReady(server + "/q/health/ready", serve, log);

      Run load = run(dir, "load", "--data", "social.ndjson", "--server", server, "--json");
      assertThat(load.exit()).as(load.stderr()).isZero();
      assertThat(load.json().get("branch").asText()).isEqualTo("main");
      assertThat(load.json().get("total_entities").asInt()).isEqualTo(15);

      Run friends = run(dir, "query", "friends", "--query", "social.gq", "--params", "{\"name\":\"alice\"}",
          "--server", server);
      assertThat(friends.exit()).as(friends.stderr()).isZero();
      assertThat(friends.json().get("rows").toString()).isEqualTo("[{\"f.name\":\"bob\"},{\"f.name\":\"carol\"}]");

      assertThat(run(dir, "branch", "create", "feature", "--server", server).exit()).isZero();
      Run mutate = run(dir, "mutate", "add_person", "--query", "social.gq", "--params", "{\"name\":\"zed\"}",
          "--branch", "feature", "--server", server, "--json");
      assertThat(mutate.exit()).as(mutate.stderr()).isZero();
      assertThat(mutate.json().get("affected_nodes").asInt()).isEqualTo(1);

      List<String> onFeature = new ArrayList<>();
      run(dir, "query", "everyone", "--query", "social.gq", "--branch", "feature", "--server", server).json()
          .get("rows").forEach(r -> onFeature.add(r.get("p.name").asText()));
      assertThat(onFeature).contains("zed").hasSize(6);
      assertThat(run(dir, "query", "everyone", "--query", "social.gq", "--server", server).json()
          .get("row_count").asInt()).isEqualTo(5);

      Run commits = run(dir, "commit", "list", "--json", "--server", server);
      assertThat(commits.exit()).as(commits.stderr()).isZero();
      assertThat(commits.json().get("commits")).hasSize(2);
      Run featureCommits = run(dir, "commit", "list", "--branch", "feature", "--json", "--server", server);
      assertThat(featureCommits.json().get("commits")).hasSize(3);

      // A strict re-insert of the same people is a typed conflict, exit 3, over the wire too.
      Run again = run(dir, "load", "--data", "social.ndjson", "--mode", "append", "--server", server);
      assertThat(again.exit()).as(again.stderr()).isEqualTo(3);
      assertThat(again.stderr()).contains("key conflict").contains("acme");
    } finally {
      serve.destroy();
      if (!serve.waitFor(20, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
    assertThat(Files.readString(log)).doesNotContain("NoClassDefFoundError");
  }

  private static void awaitReady(String url, Process serve, Path log) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (!serve.isAlive()) {
        throw new AssertionError("serve exited: " + Files.readString(log));
      }
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
            .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException notYet) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    throw new AssertionError("service not ready: " + Files.readString(log));
  }
}
