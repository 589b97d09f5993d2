package dev.omnigraph.server;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * The graphs every {@code @QuarkusTest} serves, each in a fresh temp directory: {@code g},
 * {@code copy}, {@code r}, {@code cli} and {@code fuzz} (initialized by the tests; {@code fuzz} is
 * {@link HttpRequestFuzzTest}'s alone), {@code empty} (never initialized) and {@code default} (the
 * embedded example, created on first use); and two bearer tokens.
 */
public class GraphsTestResource implements QuarkusTestResourceLifecycleManager {

  public static final String ALICE_TOKEN = "alice-secret-token";
  static final String BOB_TOKEN = "bob-secret-token";

  @Override
  public Map<String, String> start() {
    try {
      Path root = Files.createTempDirectory("omnigraph-http-");
      return Map.of(
          "omnigraph.graphs.g.uri", root.resolve("g").toString(),
          "omnigraph.graphs.copy.uri", root.resolve("copy").toString(),
          "omnigraph.graphs.r.uri", root.resolve("r").toString(),
          "omnigraph.graphs.cli.uri", root.resolve("cli").toString(),
          "omnigraph.graphs.fuzz.uri", root.resolve("fuzz").toString(),
          "omnigraph.graphs.empty.uri", root.resolve("empty").toString(),
          "omnigraph.graphs.default.uri", root.resolve("default").toString(),
          "omnigraph.storage.example", "true",
          "omnigraph.auth.tokens.alice", HexFormat.of().formatHex(BearerTokens.sha256(ALICE_TOKEN)),
          "omnigraph.auth.tokens.bob", HexFormat.of().formatHex(BearerTokens.sha256(BOB_TOKEN)).toUpperCase());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void stop() {}
}
