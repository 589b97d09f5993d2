package dev.omnigraph.server;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * The graphs every {@code @QuarkusTest} serves, each in a fresh temp directory: {@code g},
 * {@code copy}, {@code r}, {@code cli}, {@code sq} (with stored queries), {@code feed}
 * ({@link ChangeFeedApiTest}), {@code apply} ({@link SchemaApplyApiTest}) and {@code applycli}
 * ({@code SchemaApplyRemoteCliTest}; both change their schema, so no other test uses them), {@code idx}
 * ({@link EnsureIndicesApiTest}), {@code blob} ({@link BlobApiTest}), {@code blobw} ({@link BlobWriteApiTest}), {@code idxcli} ({@code IndexRemoteCliTest}) and
 * {@code fuzz} (initialized by the tests; {@code fuzz} is {@link HttpRequestFuzzTest}'s alone),
 * {@code bodies} ({@link RequestBodyLimitsTest}'s alone), {@code authz} ({@code RouteAuthorizationTest}'s alone),
 * {@code empty} (never initialized) and {@code default} (the embedded example, created on first use);
 * and two bearer tokens.
 */
public class GraphsTestResource implements QuarkusTestResourceLifecycleManager {

  public static final String ALICE_TOKEN = "alice-secret-token";
  static final String BOB_TOKEN = "bob-secret-token";

  @Override
  public Map<String, String> start() {
    try {
      Path root = Files.createTempDirectory("omnigraph-http-");
      // Graph sq's stored queries (StoredQueriesApiTest): two files, as omnigraph.graphs.<id>.queries lists them.
      Path reads = Files.writeString(root.resolve("reads.gq"), STORED_READS);
      Path writes = Files.writeString(root.resolve("writes.gq"), STORED_WRITES);
      // With tokens, a server without a policy is DefaultDeny (reads only): the tests run under the
      // server policy RoutePolicy generates (alice and bob may do everything).
      Path policy = Files.writeString(root.resolve("policy.yaml"), RoutePolicy.yaml());
      java.util.Map<String, String> config = new java.util.HashMap<>(Map.ofEntries(
          Map.entry("omnigraph.graphs.sq.uri", root.resolve("sq").toString()),
          Map.entry("omnigraph.graphs.sq.queries", reads + ", " + writes),
          Map.entry("omnigraph.graphs.feed.uri", root.resolve("feed").toString()),
          Map.entry("omnigraph.graphs.apply.uri", root.resolve("apply").toString()),
          Map.entry("omnigraph.graphs.idx.uri", root.resolve("idx").toString()),
          Map.entry("omnigraph.graphs.blob.uri", root.resolve("blob").toString()),
          Map.entry("omnigraph.graphs.blobw.uri", root.resolve("blobw").toString()),
          Map.entry("omnigraph.graphs.blob.blob.allow", BlobApiTest.ALLOW),
          Map.entry("omnigraph.graphs.idxcli.uri", root.resolve("idxcli").toString()),
          Map.entry("omnigraph.graphs.applycli.uri", root.resolve("applycli").toString()),
          Map.entry("omnigraph.graphs.g.uri", root.resolve("g").toString()),
          Map.entry("omnigraph.graphs.copy.uri", root.resolve("copy").toString()),
          Map.entry("omnigraph.graphs.r.uri", root.resolve("r").toString()),
          Map.entry("omnigraph.graphs.cli.uri", root.resolve("cli").toString()),
          Map.entry("omnigraph.graphs.fuzz.uri", root.resolve("fuzz").toString()),
          Map.entry("omnigraph.graphs.bodies.uri", root.resolve("bodies").toString()),
          Map.entry("omnigraph.graphs.empty.uri", root.resolve("empty").toString()),
          Map.entry("omnigraph.graphs.default.uri", root.resolve("default").toString()),
          Map.entry("omnigraph.storage.example", "true"),
          Map.entry("omnigraph.auth.tokens.alice", HexFormat.of().formatHex(BearerTokens.sha256(ALICE_TOKEN))),
          Map.entry("omnigraph.auth.tokens.bob", HexFormat.of().formatHex(BearerTokens.sha256(BOB_TOKEN)).toUpperCase()),
          Map.entry("omnigraph.graphs.authz.uri", root.resolve("authz").toString()),
          Map.entry("omnigraph.graphs.authz.queries", reads + ", " + writes),
          Map.entry("omnigraph.policy.file", policy.toString())));
      RoutePolicy.actors().keySet().stream().filter(a -> !a.equals("alice") && !a.equals("bob")).forEach(a ->
          config.put("omnigraph.auth.tokens." + a, HexFormat.of().formatHex(BearerTokens.sha256(RoutePolicy.token(a)))));
      return config;
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The read queries of graph {@code sq}: one per parameter kind of the catalog. */
  static final String STORED_READS = """
      query find_person($name: String)
          @description("One person by name")
          @instruction("Use when the user names someone") {
        match { $p: Person { name: $name } }
        return { $p.name as name, $p.age as age }
      }

      query kinds($s: String, $b: Bool, $i: I32, $big: I64, $f: F64, $d: Date, $dt: DateTime, $opt: String?,
          $list: [I32], $v: Vector(3)) {
        match { $p: Person }
        return { count($p) as n }
      }
      """;

  /** The mutations of graph {@code sq}; {@code mixed} breaks D₂ and is refused when invoked. */
  static final String STORED_WRITES = """
      query add_person($name: String, $age: I32?) {
        insert Person { name: $name, age: $age }
      }

      query set_age($name: String, $age: I32?) {
        update Person set { age: $age } where name = $name
      }

      query mixed($name: String) {
        insert Person { name: $name }
        delete Person where name = $name
      }
      """;

  @Override
  public void stop() {}
}
