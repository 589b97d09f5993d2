package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.Fuzz;
import dev.omnigraph.testing.FuzzInputs;
import dev.omnigraph.api.LoadMode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Tag;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the HTTP request decoding of the {@code /graphs} routes on the shared test application
 * ({@link GraphsTestResource}; its graph {@code fuzz}, no other graph is touched, so the exact
 * counts other classes assert on theirs hold): seeded, mutated and malformed JSON bodies for
 * query, mutate, branch create and export, NDJSON bodies for load, odd paths, query parameters,
 * methods and headers (Content-Type, Accept, Authorization, {@code Omnigraph-If-Graph-Commit}).
 * Every answer is below 500; every refusal is the typed error body ({@code error}, {@code code}
 * matching the status) with no Java class name or trace in it; and afterwards the graph is exactly
 * as before (head, branches, snapshot, no sidecar): bad input commits nothing.
 *
 * <p>A request that could be valid must still not write, so a fuzzed write goes where it is
 * refused by construction, after its body is decoded: a mutation with an
 * {@code Omnigraph-If-Graph-Commit} naming no commit (parsed, checked and bound, then refused
 * before any effect) or one on the plain route (which refuses the header); a load whose last line
 * is an unknown type (every line is read before anything is staged); a branch forked from a branch
 * that does not exist (an edited body, which may have lost that base, goes to a graph that does not
 * exist). A body only a broken one can be (cut short, or a NUL or 0xFF byte inside the
 * object) may go to the unguarded write routes too. Seeded case loops ({@link Fuzz});
 * {@code -Domnigraph.fuzz.seed} and {@code -Domnigraph.fuzz.cases} vary them.
 */
@QuarkusTest
@Tag("quarkus") // one application start for every @QuarkusTest class: the pom's quarkus-tests execution
@QuarkusTestResource(GraphsTestResource.class)
class HttpRequestFuzzTest {

  static final String GRAPH = "fuzz";
  /** Not a commit of any graph: a conditional mutation naming it is refused (412) before any effect. */
  static final String NO_COMMIT = "01FUZZN0SUCHC0MM1T000000000";
  /** Not a branch: a branch forked from it is refused (404) before any effect. */
  static final String NO_BRANCH = "fuzz-no-such-base";
  /** A line no load accepts (the schema has no such type); last, so every line before it is read. */
  static final String POISON = "{\"type\":\"FuzzNoSuchType\",\"data\":{}}";

  private static final String READS = """
      query everyone() {
        match { $p: Person }
        return { $p.name, $p.age }
        order { $p.name }
      }

      query friends($name: String) {
        match { $p: Person { name: $name }  $p knows $f }
        return { $f.name }
        order { $f.name }
      }
      """;
  private static final String MUTATIONS = GraphApiTest.resource("graphs/people.gq");
  private static final String SEED = """
      {"type":"Person","data":{"name":"ann","age":30,"email":"ann@example.org"}}
      {"type":"Person","data":{"name":"ben","age":40}}
      {"type":"Person","data":{"name":"cat"}}
      {"type":"Company","data":{"name":"acme","founded":"2001-02-03"}}
      {"edge":"Knows","from":"ann","to":"ben","data":{"since":2020}}
      {"edge":"WorksAt","from":"ann","to":"acme","data":{"role":"cto"}}
      """;

  static final List<String> JSON_TOKENS = List.of("{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\ud800",
      "\\u0000", "null", "true", "false", "0", "-0", "1e400", "99999999999999999999999", "NaN", "'x'", "/*",
      "\"query\"", "\"name\"", "\"params\"", "\"branch\"", "\"snapshot\"", "\"type_names\"", "\"from\"", "\"x\"");
  static final List<String> NUMBERS = List.of("0", "-0", "1", "-1", "1.5", "1e400", "-1e400", "1e-400",
      "2147483648", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "9".repeat(1_200),
      "0." + "0".repeat(600) + "1", "1E+2", "01", "1.", ".5", "+1", "NaN", "Infinity", "0x10");
  static final List<String> UNKNOWN_FIELDS = List.of("actor_id", "bogus", "Query", "", "\u0000", "name ",
      "params.name", "\ud800", "__proto__");

  /** The codes the error mapper and the auth filter answer with, by status. */
  private static final Map<Integer, String> CODES = Map.ofEntries(Map.entry(400, "bad_request"),
      Map.entry(401, "unauthorized"), Map.entry(404, "not_found"), Map.entry(405, "method_not_allowed"),
      Map.entry(406, "bad_request"), Map.entry(408, "bad_request"), Map.entry(409, "conflict"),
      Map.entry(413, "bad_request"), Map.entry(415, "bad_request"));
  /** Statuses whose body has no code (the reference's closed ErrorCode): the detail field says what it was. */
  private static final Map<Integer, String> DETAIL_ONLY = Map.of(412, "precondition_failure");
  /** What an error body must never show a client: Java types, frames, framework internals. */
  private static final Pattern LEAK = Pattern.compile(
      "java\\.|javax\\.|jakarta\\.|com\\.fasterxml|org\\.jboss|io\\.vertx|io\\.netty|io\\.quarkus|dev\\.omnigraph"
          + "|Exception|StackOverflow|OutOfMemory|\\tat |\\.java:\\d");
  private static final ObjectMapper STRICT = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @TestHTTPResource("/") URL server;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void initGraph() throws IOException {
    Path root = root();
    if (!Files.exists(root.resolve("__manifest"))) {
      try (Omnigraph g = Omnigraph.init(StorageConfig.fromEnvironment(root.toString()),
          GraphApiTest.resource("graphs/people.pg"), Optional.of("setup"))) {
        g.load("main", new StringReader(SEED), LoadMode.APPEND, Optional.of("setup"));
      }
    }
  }

  private static Path root() {
    return Path.of(ConfigProvider.getConfig().getValue("omnigraph.graphs." + GRAPH + ".uri", String.class));
  }

  // --- the properties ---------------------------------------------------------------------------

  @Test
  void malformedJsonBodiesAreTypedRefusalsAndWriteNothing() throws Exception {
    unchangedBy("http.json", 300, this::jsonRequest);
  }

  @Test
  void malformedNdjsonLoadsAreTypedRefusalsAndWriteNothing() throws Exception {
    unchangedBy("http.ndjson", 120, this::loadRequest);
  }

  @Test
  void oddPathsParametersMethodsAndHeadersAreTypedRefusalsAndWriteNothing() throws Exception {
    unchangedBy("http.request", 120, this::oddRequest);
  }

  /** Runs the property and asserts the graph is exactly as it was before it. */
  private void unchangedBy(String property, int cases, Function<SplittableRandom, Req> generate) throws Exception {
    State before = state();
    assertThat(before.snapshot().path("datasets").toString()).contains("\"Person\"");
    Fuzz.forAll(property, cases, generate, Req::toString, this::answeredTyped);
    assertThat(state()).as("graph state after %s (seed %d)", property, Fuzz.seed()).isEqualTo(before);
  }

  /** One request: what it writes if it is ever accepted, so a 2xx there fails the case. */
  record Req(String method, String path, List<String> headers, byte[] body, boolean write) {
    @Override
    public String toString() {
      StringBuilder b = new StringBuilder(method).append(' ').append(path);
      for (int i = 0; i < headers.size(); i += 2) {
        b.append("\n    ").append(headers.get(i)).append(": ").append(Fuzz.literal(headers.get(i + 1)));
      }
      return b.append("\n    body: ").append(body == null ? "(none)" : Fuzz.literal(body)).toString();
    }
  }

  private void answeredTyped(Req req) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.toString().replaceAll("/$", "") + req.path()))
        .timeout(Duration.ofSeconds(60))
        .method(req.method(), req.body() == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(req.body()));
    boolean authorized = false;
    for (int i = 0; i < req.headers().size(); i += 2) {
      b.header(req.headers().get(i), req.headers().get(i + 1));
      authorized |= req.headers().get(i).equals("Authorization");
    }
    if (!authorized) {
      b.header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN);
    }
    HttpResponse<byte[]> response = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    int status = response.statusCode();
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertThat(status).as("status; body %s", text).isBetween(200, 499);
    if (status < 300) {
      assertThat(req.write()).as("a write route accepted it (%d %s)", status, text).isFalse();
      return;
    }
    assertThat(status).as("status; body %s", text).isGreaterThanOrEqualTo(400);
    if (req.method().equals("HEAD")) {
      return; // no body to check
    }
    assertThat(response.headers().firstValue("Content-Type")).as("content type of %d %s", status, text)
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    JsonNode error = STRICT.readTree(response.body());
    assertThat(error.isObject()).as("an object: %s", text).isTrue();
    assertThat(error.path("error").isTextual() && !error.path("error").asText().isBlank())
        .as("a non-blank 'error' in %s", text).isTrue();
    if (DETAIL_ONLY.containsKey(status)) {
      assertThat(error.has("code")).as("no code in %s", text).isFalse();
      assertThat(error.path(DETAIL_ONLY.get(status)).isObject()).as("detail in %s", text).isTrue();
      assertThat(LEAK.matcher(text).find()).as("Java internals in %s", text).isFalse();
      return;
    }
    assertThat(error.path("code").asText()).as("code of %d %s", status, text)
        .isEqualTo(CODES.getOrDefault(status, error.path("code").asText()))
        .isIn(Set.copyOf(CODES.values()));
    assertThat(LEAK.matcher(text).find()).as("Java internals in %s", text).isFalse();
  }

  /** What bad input must not change: head, branches, the published snapshot, the sidecars. */
  record State(String head, JsonNode branches, JsonNode snapshot, List<String> sidecars) {}

  private State state() throws Exception {
    JsonNode commits = get("/graphs/" + GRAPH + "/commits?limit=1");
    List<String> sidecars = new ArrayList<>();
    Path recovery = root().resolve("__recovery");
    if (Files.isDirectory(recovery)) {
      try (Stream<Path> files = Files.list(recovery)) {
        files.forEach(p -> sidecars.add(p.getFileName().toString()));
      }
    }
    return new State(commits.path("commits").path(0).path("graph_commit_id").asText(),
        get("/graphs/" + GRAPH + "/branches"), get("/graphs/" + GRAPH + "/snapshot"), sidecars);
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(server.toString().replaceAll("/$", "")
        + path)).header("Authorization", "Bearer " + GraphsTestResource.ALICE_TOKEN).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(r.statusCode()).as("GET %s", path).isEqualTo(200);
    return STRICT.readTree(r.body());
  }

  // --- JSON routes --------------------------------------------------------------------------------

  private Req jsonRequest(SplittableRandom r) {
    String route = FuzzInputs.pick(r, List.of("query", "query", "query", "mutate", "mutate", "mutate", "mutate",
        "branches", "branches", "export", "export"));
    // One in three queries and mutations is well formed but for its parameters' values, so that
    // binding, the read and the write's precondition see the odd values, not only the decoder.
    Body body = switch (route) {
      case "query" -> r.nextInt(3) == 0 ? wellFormed(r, READS, "friends") : transformed(r, object(r, queryFields(r)));
      case "mutate" -> r.nextInt(3) == 0
          ? wellFormed(r, MUTATIONS, FuzzInputs.pick(r, List.copyOf(new java.util.TreeSet<>(DECLARED.keySet()))))
          : transformed(r, object(r, mutateFields(r)));
      case "branches" -> transformed(r, branchObject(r));
      default -> transformed(r, object(r, exportFields(r)));
    };
    List<String> headers = new ArrayList<>();
    String base = "/graphs/" + GRAPH + "/";
    switch (route) {
      case "mutate" -> {
        if (body.surelyBroken() && r.nextBoolean()) {
          headers.addAll(List.of("Content-Type", "application/json"));
          return new Req("POST", base + "mutate", headers, body.bytes(), true);
        }
        // Past decoding the plain route refuses the header; the conditional one names no commit.
        boolean conditional = r.nextInt(3) > 0;
        headers.addAll(List.of(GraphResource.IF_GRAPH_COMMIT, r.nextInt(4) == 0 ? oddHeaderValue(r) + NO_COMMIT
            : NO_COMMIT));
        contentType(r, headers, "application/json");
        return new Req("POST", base + (conditional ? "mutate/if-graph-commit" : "mutate"), headers, body.bytes(),
            true);
      }
      case "branches" -> {
        // Only a body built with the missing base last is sure to be refused after decoding; an edited
        // one goes to a graph that does not exist, so that it is decoded and then refused.
        if (body.surelyBroken() || body.asBuilt()) {
          headers.addAll(List.of("Content-Type", "application/json"));
          return new Req("POST", base + "branches", headers, body.bytes(), true);
        }
        contentType(r, headers, "application/json");
        return new Req("POST", "/graphs/fuzz-nope/branches", headers, body.bytes(), true);
      }
      default -> {
        contentType(r, headers, "application/json");
        accept(r, headers);
        return new Req("POST", base + route, headers, body.bytes(), false);
      }
    }
  }

  /** A request body and how it was made. */
  record Body(byte[] bytes, boolean asBuilt, boolean surelyBroken) {}

  /**
   * The built object as it is, text-edited, with a byte sequence that is not (or not quite) UTF-8
   * inserted, or surely broken: cut short, or a NUL or 0xFF byte inside the object (never after it:
   * the JSON reader stops at the end of the first value).
   */
  private static Body transformed(SplittableRandom r, String json) {
    byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
    switch (r.nextInt(8)) {
      case 0, 1, 2 -> {
        return new Body(utf8, true, false);
      }
      case 3, 4 -> {
        return new Body(FuzzInputs.mutated(r, List.of(json), JSON_TOKENS, 3).getBytes(StandardCharsets.UTF_8),
            false, false);
      }
      case 5 -> {
        byte[] odd = FuzzInputs.pick(r, List.of(new byte[] {(byte) 0xC0, (byte) 0x80},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xED, (byte) 0xBF, (byte) 0xBF},
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xE2, (byte) 0x82}, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}));
        return new Body(insert(utf8, r.nextInt(utf8.length + 1), odd), false, false);
      }
      default -> {
        if (r.nextBoolean() || utf8.length < 3) {
          return new Body(java.util.Arrays.copyOf(utf8, r.nextInt(utf8.length)), false, true);
        }
        byte bad = r.nextBoolean() ? 0 : (byte) 0xFF;
        return new Body(insert(utf8, 1 + r.nextInt(utf8.length - 2), new byte[] {bad}), false, true);
      }
    }
  }

  private static byte[] insert(byte[] into, int at, byte[] what) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(into, 0, at);
    out.write(what, 0, what.length);
    out.write(into, at, into.length - at);
    return out.toByteArray();
  }

  /** Declaration {@code name} of {@code source}, its declared parameters with values of their types. */
  private static Body wellFormed(SplittableRandom r, String source, String name) {
    List<String[]> params = new ArrayList<>();
    for (String p : DECLARED.get(name)) {
      params.add(new String[] {p, typedParam(r, p)});
    }
    String json = join(r, List.of(new String[] {"query", string(r, source)}, new String[] {"name", string(r, name)},
        new String[] {"params", join(r, params)}));
    return new Body(json.getBytes(StandardCharsets.UTF_8), true, false);
  }

  /** {@code fields} (key, JSON value text) in order, with unknown fields and a duplicated key now and then. */
  private static String object(SplittableRandom r, List<String[]> fields) {
    List<String[]> all = new ArrayList<>(fields);
    if (r.nextInt(6) == 0) {
      all.add(r.nextInt(all.size() + 1), new String[] {FuzzInputs.pick(r, UNKNOWN_FIELDS), value(r, 2)});
    }
    if (r.nextInt(10) == 0 && !fields.isEmpty()) {
      String[] dup = FuzzInputs.pick(r, fields);
      all.add(r.nextInt(all.size() + 1), new String[] {dup[0], value(r, 2)});
    }
    return join(r, all);
  }

  private static String join(SplittableRandom r, List<String[]> fields) {
    String space = FuzzInputs.pick(r, List.of("", " ", "\n", "\t", "\r\n  "));
    StringBuilder b = new StringBuilder("{").append(space);
    for (int i = 0; i < fields.size(); i++) {
      b.append(i == 0 ? "" : "," + space).append(string(r, fields.get(i)[0])).append(':').append(space)
          .append(fields.get(i)[1]);
    }
    return b.append(space).append('}').toString();
  }

  /**
   * A field, its value from {@code typed} eight times in ten, of any type once, absent once: most
   * bodies get past binding, so the checks behind it are fuzzed too.
   */
  private static void field(SplittableRandom r, List<String[]> fields, String key,
      Function<SplittableRandom, String> typed) {
    int roll = r.nextInt(10);
    if (roll == 0) {
      return;
    }
    fields.add(new String[] {key, roll > 1 ? typed.apply(r) : value(r, 3)});
  }

  private static List<String[]> queryFields(SplittableRandom r) {
    List<String[]> f = new ArrayList<>();
    field(r, f, "query", x -> string(x, FuzzInputs.pick(x, List.of(READS, READS, MUTATIONS,
        "query q() { match { $p: Person } return { count($p) as n } }",
        FuzzInputs.mutated(x, List.of(READS), List.of("{", "}", "$p", "$f", "not", "knows", "\"\\ud800\""), 3),
        FuzzInputs.odd(x)))));
    String name = FuzzInputs.pick(r, List.of("friends", "friends", "everyone", "add_person", "nobody", "",
        FuzzInputs.odd(r)));
    field(r, f, "name", x -> string(x, name));
    field(r, f, "params", x -> params(x, name));
    if (r.nextInt(3) == 0) {
      field(r, f, "branch", x -> string(x, FuzzInputs.pick(x, List.of("main", NO_BRANCH, "", FuzzInputs.odd(x)))));
    }
    if (r.nextInt(4) == 0) {
      field(r, f, "snapshot", x -> string(x, FuzzInputs.pick(x, List.of(NO_COMMIT, "", FuzzInputs.odd(x)))));
    }
    return f;
  }

  private static List<String[]> mutateFields(SplittableRandom r) {
    List<String[]> f = new ArrayList<>();
    field(r, f, r.nextInt(4) == 0 ? "query_source" : "query", x -> string(x, x.nextBoolean() ? MUTATIONS
        : FuzzInputs.mutated(x, List.of(MUTATIONS), List.of("{", "}", "$name", "$age", "insert", "delete", "?"), 3)));
    String name = FuzzInputs.pick(r, List.of("add_person", "add_pair", "set_age", "forget", "add_two_then_bad_edge",
        "add_and_age", "everyone", "", FuzzInputs.odd(r)));
    field(r, f, r.nextInt(4) == 0 ? "query_name" : "name", x -> string(x, name));
    field(r, f, "params", x -> params(x, name));
    if (r.nextInt(3) == 0) {
      field(r, f, "branch", x -> string(x, FuzzInputs.pick(x, List.of("main", NO_BRANCH, "", FuzzInputs.odd(x)))));
    }
    return f;
  }

  /** Always ends with the missing base, so the body as built is refused once decoded. */
  private static String branchObject(SplittableRandom r) {
    List<String[]> f = new ArrayList<>();
    field(r, f, "name", x -> string(x, FuzzInputs.pick(x, List.of("feature", "a/b", "main", "Main", "-x", "a..b",
        "x.lock", "a//b", "b".repeat(300), FuzzInputs.odd(x), FuzzInputs.text(x, 40)))));
    if (r.nextInt(4) == 0) {
      f.add(r.nextInt(f.size() + 1), new String[] {FuzzInputs.pick(r, UNKNOWN_FIELDS), value(r, 2)});
    }
    if (r.nextInt(4) == 0 && !f.isEmpty()) {
      f.add(0, new String[] {"name", value(r, 2)});
    }
    f.add(new String[] {"from", string(r, NO_BRANCH)});
    return join(r, f);
  }

  private static List<String[]> exportFields(SplittableRandom r) {
    List<String[]> f = new ArrayList<>();
    field(r, f, "branch", x -> string(x, FuzzInputs.pick(x, List.of("main", NO_BRANCH, "", FuzzInputs.odd(x)))));
    field(r, f, "type_names", x -> {
      List<String> names = new ArrayList<>();
      for (int i = x.nextInt(4); i > 0; i--) {
        names.add(x.nextInt(4) == 0 ? value(x, 1)
            : string(x, FuzzInputs.pick(x, List.of("Person", "knows", "Robot", "", FuzzInputs.odd(x)))));
      }
      return "[" + String.join(",", names) + "]";
    });
    return f;
  }

  /** The parameters each sample declaration takes. */
  private static final Map<String, List<String>> DECLARED = Map.of("friends", List.of("name"), "everyone", List.of(),
      "add_person", List.of("name", "age"), "add_pair", List.of("a", "b", "since"), "add_two_then_bad_edge",
      List.of("a", "b"), "set_age", List.of("name", "age"), "add_and_age", List.of("name"), "forget",
      List.of("name"));

  /**
   * Parameters for declaration {@code query}: the ones it declares, each with a value of its type
   * (odd strings, integers in and out of range) or of any type, one sometimes left out and an
   * undeclared one sometimes added; or any value in place of the object.
   */
  private static String params(SplittableRandom r, String query) {
    if (r.nextInt(6) == 0) {
      return value(r, 3);
    }
    List<String> names = new ArrayList<>(DECLARED.getOrDefault(query, List.of("name")));
    if (r.nextInt(6) == 0 && !names.isEmpty()) {
      names.remove(r.nextInt(names.size()));
    }
    if (r.nextInt(6) == 0) {
      names.add(FuzzInputs.pick(r, List.of("name", "age", "a", "since", "nope")));
    }
    List<String[]> f = new ArrayList<>();
    for (String name : names) {
      f.add(new String[] {name, r.nextInt(5) > 0 ? typedParam(r, name) : value(r, 2)});
    }
    return object(r, f);
  }

  /** A value of parameter {@code name}'s type: integers in and out of range, odd or arbitrary strings. */
  private static String typedParam(SplittableRandom r, String name) {
    return name.equals("age") || name.equals("since")
        ? FuzzInputs.pick(r, List.of("0", "7", "-1", "150", "151", "2147483647", "2147483648", "1.5", "1e2", "null"))
        : string(r, r.nextBoolean() ? FuzzInputs.odd(r) : FuzzInputs.text(r, 24));
  }

  /** A JSON value of any type: odd strings, huge and malformed numbers, now and then nesting past the limit. */
  private static String value(SplittableRandom r, int depth) {
    switch (r.nextInt(depth <= 0 ? 8 : 13)) {
      case 0, 1, 2 -> {
        return string(r, r.nextBoolean() ? FuzzInputs.text(r, 40) : FuzzInputs.pick(r, List.of("ann", "zed", "")));
      }
      case 3, 4 -> {
        return FuzzInputs.pick(r, NUMBERS);
      }
      case 5 -> {
        return FuzzInputs.pick(r, List.of("true", "false", "null"));
      }
      case 6, 7 -> {
        return string(r, FuzzInputs.odd(r));
      }
      case 8, 9 -> {
        List<String> items = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
          items.add(value(r, depth - 1));
        }
        return "[" + String.join(",", items) + "]";
      }
      case 10, 11 -> {
        List<String[]> f = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          f.add(new String[] {FuzzInputs.pick(r, List.of("a", "name", "", "\u00e9")), value(r, depth - 1)});
        }
        return join(r, f);
      }
      default -> {
        int d = FuzzInputs.depth(r, 1000, 3000);
        return r.nextBoolean() ? FuzzInputs.nested("[", "1", "]", d) : FuzzInputs.nested("{\"a\":", "1", "}", d);
      }
    }
  }

  /**
   * {@code s} as a JSON string: quotes, backslashes, controls and every surrogate escaped (so a lone
   * one reaches the server as {@code \ud800}), other chars raw UTF-8 or, one time in four, escaped.
   */
  private static String string(SplittableRandom r, String s) {
    boolean escapeAll = r.nextInt(4) == 0;
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || Character.isSurrogate(c) || (escapeAll && c > 0x7e)) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  // --- the NDJSON load route ------------------------------------------------------------------------

  private static final List<String> NDJSON_SAMPLES = List.of(SEED,
      "{\"type\":\"Person\",\"data\":{\"name\":\"dan\",\"age\":1,\"email\":\"d@b\"}}\n"
          + "{\"type\":\"Company\",\"data\":{\"name\":\"initech\",\"founded\":\"1999-12-31\"}}\n"
          + "{\"edge\":\"WorksAt\",\"from\":\"dan\",\"to\":\"initech\",\"data\":{\"role\":\"x\"}}\n"
          + "{\"edge\":\"Knows\",\"from\":\"dan\",\"to\":\"ann\",\"data\":{\"since\":1}}\n");

  private Req loadRequest(SplittableRandom r) {
    byte[] lines = switch (r.nextInt(6)) {
      case 0, 1 -> FuzzInputs.mutated(r, NDJSON_SAMPLES, FuzzInputs.NDJSON_TOKENS, 5).getBytes(StandardCharsets.UTF_8);
      case 2 -> FuzzInputs.byteEdited(r, FuzzInputs.pick(r, NDJSON_SAMPLES).getBytes(StandardCharsets.UTF_8));
      case 3 -> FuzzInputs.ndjsonLines(r).getBytes(StandardCharsets.UTF_8);
      case 4 -> FuzzInputs.bytes(r, 256);
      default -> ("{\"type\":\"Person\",\"data\":{\"name\":\"a\",\"tags\":"
          + FuzzInputs.nested("[", "\"x\"", "]", FuzzInputs.depth(r, 1000, 5000)) + "}}")
          .getBytes(StandardCharsets.UTF_8);
    };
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(lines, 0, lines.length);
    String tail = (lines.length > 0 && lines[lines.length - 1] == '\n' ? "" : "\n") + POISON
        + (r.nextBoolean() ? "\n" : "");
    body.writeBytes(tail.getBytes(StandardCharsets.UTF_8));

    StringBuilder query = new StringBuilder();
    int modeRoll = r.nextInt(10);
    if (modeRoll < 8) {
      query.append("mode=").append(modeRoll < 6 ? FuzzInputs.pick(r, List.of("merge", "append", "overwrite"))
          : encode(FuzzInputs.pick(r, List.of("", "MERGE", "sideways", FuzzInputs.odd(r)))));
    }
    if (r.nextInt(4) == 0) {
      query.append(query.isEmpty() ? "" : "&").append("branch=")
          .append(encode(FuzzInputs.pick(r, List.of("main", NO_BRANCH, "a/b", FuzzInputs.odd(r)))));
    }
    if (r.nextInt(5) == 0) {
      query.append(query.isEmpty() ? "" : "&").append("from=").append(NO_BRANCH);
    }
    List<String> headers = new ArrayList<>();
    contentType(r, headers, GraphResource.NDJSON);
    return new Req("POST", "/graphs/" + GRAPH + "/load/ndjson" + (query.isEmpty() ? "" : "?" + query), headers,
        body.toByteArray(), true);
  }

  // --- paths, parameters, methods, headers ----------------------------------------------------------

  private Req oddRequest(SplittableRandom r) {
    List<String> headers = new ArrayList<>();
    String g = "/graphs/" + GRAPH;
    String validRead = "{\"query\":\"query q() { match { $p: Person } return { $p.name } }\"}";
    Req req = switch (r.nextInt(9)) {
      case 0 -> new Req("GET", "/graphs/" + oddSegment(r) + "/snapshot", headers, null, false);
      case 1 -> new Req("GET", g + "/commits?" + FuzzInputs.pick(r, List.of("branch", "limit", "cursor")) + "="
          + encode(FuzzInputs.pick(r, List.of("0", "-1", "1001", "1e3", "99999999999999999999", "main",
              FuzzInputs.odd(r), FuzzInputs.text(r, 30)))), headers, null, false);
      case 2 -> new Req("GET", g + "/commits/" + oddSegment(r), headers, null, false);
      case 3 -> new Req("GET", g + "/snapshot?branch=" + encode(FuzzInputs.odd(r) + FuzzInputs.text(r, 8)),
          headers, null, false);
      case 4 -> new Req("DELETE", g + "/branches/" + FuzzInputs.pick(r, List.of("main", "Main", NO_BRANCH,
          "a/../main", "main/", oddSegment(r))), headers, null, true);
      case 5 -> {
        String route = FuzzInputs.pick(r, List.of("query", "mutate", "mutate/if-graph-commit", "load/ndjson",
            "export", "branches", "schema"));
        // No PUT: ServiceEndpointsTest counts the PUTs answered 405 exactly.
        String method = FuzzInputs.pick(r, List.of("GET", "PATCH", "DELETE", "HEAD", "OPTIONS"));
        boolean writeRoute = route.startsWith("mutate") || route.equals("load/ndjson") || route.equals("branches");
        yield new Req(method, g + "/" + route, headers, method.equals("GET") || method.equals("HEAD") ? null
            : validRead.getBytes(StandardCharsets.UTF_8), writeRoute && (method.equals("PATCH")
            || method.equals("DELETE")));
      }
      case 6 -> new Req("POST", "/graphs/" + oddSegment(r) + "/query", headers,
          validRead.getBytes(StandardCharsets.UTF_8), false);
      case 7 -> new Req("POST", g + "/" + FuzzInputs.pick(r, List.of("query/extra", "nope", "query;x=1",
          "query?branch=" + NO_BRANCH, "load/ndjson/../query")), headers,
          validRead.getBytes(StandardCharsets.UTF_8), false);
      default -> new Req("POST", g + "/query", headers, validRead.getBytes(StandardCharsets.UTF_8), false);
    };
    if (req.body() != null) {
      contentType(r, headers, "application/json");
    }
    accept(r, headers);
    if (r.nextInt(3) == 0) {
      headers.addAll(List.of("Authorization", FuzzInputs.pick(r, List.of("", "Bearer", "Bearer ", "Basic "
          + GraphsTestResource.ALICE_TOKEN, "Bearer " + GraphsTestResource.ALICE_TOKEN + "x", "bearer "
          + GraphsTestResource.ALICE_TOKEN, "Bearer  " + GraphsTestResource.ALICE_TOKEN + " ", "Bearer "
          + oddHeaderValue(r)))));
    }
    if (r.nextInt(4) == 0) {
      headers.addAll(List.of(FuzzInputs.pick(r, List.of("X-Fuzz", "Content-Encoding", "Accept-Charset",
          GraphResource.IF_GRAPH_COMMIT)), oddHeaderValue(r)));
    }
    return req;
  }

  /** Sets Content-Type: {@code right} mostly; otherwise none, a wrong one, odd parameters, or two headers. */
  private static void contentType(SplittableRandom r, List<String> headers, String right) {
    int roll = r.nextInt(10);
    if (roll == 0) {
      return;
    }
    if (roll < 7) {
      headers.addAll(List.of("Content-Type", right));
      return;
    }
    String odd = FuzzInputs.pick(r, List.of("text/plain", "application/json", GraphResource.NDJSON,
        right + "; charset=utf-8", right + "; charset=utf-16", right + "; charset=ISO-8859-1",
        right + "; charset=no-such-charset", right + ";", right + ";;;", right + "; charset=\"", right.toUpperCase(),
        "application/*", "*/*", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded",
        oddHeaderValue(r)));
    headers.addAll(List.of("Content-Type", odd));
    if (r.nextInt(4) == 0) {
      headers.addAll(List.of("Content-Type", right));
    }
  }

  private static void accept(SplittableRandom r, List<String> headers) {
    if (r.nextInt(6) == 0) {
      headers.addAll(List.of("Accept", FuzzInputs.pick(r, List.of("text/html", "application/xml", "*/*",
          "application/json;q=0", "text/plain, */*;q=0.1", GraphResource.NDJSON, ";;", oddHeaderValue(r)))));
    }
  }

  /** A header value the client can send: printable ASCII, spaces, and bytes 0x80-0xFF (not UTF-8 on the wire). */
  private static String oddHeaderValue(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    for (int n = 1 + r.nextInt(12); n > 0; n--) {
      b.append(r.nextInt(3) == 0 ? (char) r.nextInt(0x80, 0x100) : (char) r.nextInt(0x21, 0x7f));
    }
    return b.toString();
  }

  /** A path segment: an odd string percent-encoded as UTF-8, or escapes that decode to no UTF-8 at all. */
  private static String oddSegment(SplittableRandom r) {
    if (r.nextInt(3) == 0) {
      return FuzzInputs.pick(r, List.of("%FF", "%C3", "%ED%A0%80", "%00", "%2F", "%2e%2e", "..", "%C0%AF", "%20",
          "fuzz%00", "g%2Fh"));
    }
    return encode(FuzzInputs.odd(r) + FuzzInputs.text(r, 12));
  }

  /** Percent-encodes {@code s} (UTF-8; an unpaired surrogate as {@code ?}), leaving only unreserved chars. */
  private static String encode(String s) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xFF;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
          || c == '_' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(String.format("%02X", c));
      }
    }
    return b.toString();
  }
}
