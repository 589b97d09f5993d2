package dev.omnigraph.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kill -9 soak's checker ({@link ServeKill9SoakTest#check}) fails on a broken server. A soak that
 * reports "0 losses" proves something only if its checker would have seen a loss, so each case runs
 * the soak's own writer ({@link ServeKill9SoakTest#write}) against a fake graph server on loopback
 * that speaks the same routes and keeps rows in memory, correct except for one {@link Bug}, and
 * asserts the checker names exactly that bug. The correct fake ({@link Bug#NONE}) must pass clean,
 * so the checker does not cry wolf either. Runs in the default suite (about 10 s, most of it the
 * sidecar case's wait for a retire that never comes).
 */
class SoakCheckerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Requests the one writer sends: enough that every kind of request is acknowledged at least once. */
  private static final int REQUESTS = 120;

  /** One defect a server could have, and the start of the violation the checker must report for it. */
  enum Bug {
    NONE(null),
    DROPS_AN_ACKNOWLEDGED_INSERT("lost 1 of INSERT"),
    HALF_A_LOAD("partial LOAD"),
    MERGE_COPIES_NOTHING("lost by merge"),
    FORGETS_A_BRANCH("lost branch"),
    INVENTS_A_ROW("unknown row"),
    DUPLICATES_A_ROW("duplicate"),
    LEAVES_A_SIDECAR("sidecar left");

    final String reported;

    Bug(String reported) {
      this.reported = reported;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Bug.class)
  void theCheckerReportsExactlyTheBugTheServerHas(Bug bug, @TempDir Path dir) throws Exception {
    Path root = Files.createDirectories(dir.resolve("g"));
    FakeGraph graph = new FakeGraph(bug, root);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/graphs/default", graph::handle);
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/graphs/default";
      ServeKill9SoakTest.Ledger ledger = new ServeKill9SoakTest.Ledger();
      ServeKill9SoakTest.write(base, ledger, new Random(42), "r1w0n", new AtomicBoolean(), REQUESTS);
      for (ServeKill9SoakTest.Kind kind : ServeKill9SoakTest.Kind.values()) {
        assertThat(ledger.attempts).as("the writer had a %s acknowledged", kind)
            .anyMatch(a -> a.kind() == kind && a.acked());
      }
      List<String> violations = ServeKill9SoakTest.check(base, StorageConfig.local(root), ledger, 2);
      if (bug.reported == null) {
        assertThat(violations).as("a correct server passes the checker").isEmpty();
      } else {
        assertThat(violations).as("the checker's report on a server that " + bug).isNotEmpty()
            .allMatch(v -> v.startsWith(bug.reported), "starts with '" + bug.reported + "'");
      }
    } finally {
      server.stop(0);
    }
  }

  /**
   * The soak's routes over rows kept in memory: each branch a set of names, a branch created from
   * main holds main's rows, a merge adds the source's rows to main. One {@link Bug} breaks it.
   */
  private static final class FakeGraph {
    final Bug bug;
    final Path root;
    final Map<String, Set<String>> rows = new LinkedHashMap<>(Map.of("main", new LinkedHashSet<>()));
    final Set<String> forgotten = new LinkedHashSet<>();
    int inserts;
    int loads;

    FakeGraph(Bug bug, Path root) {
      this.bug = bug;
      this.root = root;
    }

    synchronized void handle(HttpExchange ex) throws IOException {
      String path = ex.getRequestURI().getPath().substring("/graphs/default".length());
      byte[] in = ex.getRequestBody().readAllBytes();
      int status = 200;
      JsonNode out = JSON.createObjectNode();
      switch (ex.getRequestMethod() + " " + path) {
        case "POST /mutate" -> {
          JsonNode b = JSON.readTree(in);
          Set<String> on = rows.get(b.get("branch").asText());
          if (on == null) {
            status = 404;
          } else if (!(bug == Bug.DROPS_AN_ACKNOWLEDGED_INSERT && ++inserts == 3)) {
            on.add(b.get("params").get("name").asText());
          }
        }
        case "POST /load/ndjson" -> {
          Set<String> on = rows.get(query(ex, "branch"));
          List<String> names = new ArrayList<>();
          for (String line : new String(in, StandardCharsets.UTF_8).split("\n")) {
            names.add(JSON.readTree(line).get("data").get("name").asText());
          }
          if (on == null) {
            status = 404;
          } else if (bug == Bug.HALF_A_LOAD && ++loads == 2) {
            on.addAll(names.subList(0, names.size() / 2));
            status = 500;
          } else {
            on.addAll(names);
          }
        }
        case "POST /branches" -> {
          JsonNode b = JSON.readTree(in);
          String name = b.get("name").asText();
          if (bug == Bug.FORGETS_A_BRANCH && forgotten.isEmpty()) {
            forgotten.add(name);
          } else {
            rows.put(name, new LinkedHashSet<>(rows.get(b.get("from").asText())));
          }
        }
        case "POST /branches/merge" -> {
          JsonNode b = JSON.readTree(in);
          Set<String> source = rows.get(b.get("source").asText());
          if (source == null) {
            status = 404;
          } else if (bug != Bug.MERGE_COPIES_NOTHING) {
            rows.get(b.get("target").asText()).addAll(source);
          }
        }
        case "GET /branches" -> {
          ArrayNode names = ((ObjectNode) out).putArray("branches");
          rows.keySet().forEach(names::add);
          if (bug == Bug.LEAVES_A_SIDECAR) {
            Path sidecars = Files.createDirectories(root.resolve(SidecarStore.PREFIX));
            Files.writeString(sidecars.resolve("01JSTUCK.json"), "{}");
          }
        }
        case "POST /query" -> {
          ArrayNode list = ((ObjectNode) out).putArray("rows");
          String branch = JSON.readTree(in).get("branch").asText();
          List<String> names = new ArrayList<>(rows.get(branch));
          if (branch.equals("main") && bug == Bug.INVENTS_A_ROW) {
            names.add("ghost");
          }
          if (branch.equals("main") && bug == Bug.DUPLICATES_A_ROW && !names.isEmpty()) {
            names.add(names.get(0));
          }
          names.forEach(n -> list.addObject().put("p.name", n));
        }
        default -> status = 404;
      }
      byte[] body = JSON.writeValueAsBytes(out);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(status, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    }

    private static String query(HttpExchange ex, String name) {
      for (String kv : ex.getRequestURI().getRawQuery().split("&")) {
        if (kv.startsWith(name + "=")) {
          return URLDecoder.decode(kv.substring(name.length() + 1), StandardCharsets.UTF_8);
        }
      }
      return null;
    }
  }
}
