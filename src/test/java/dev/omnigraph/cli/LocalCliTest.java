package dev.omnigraph.cli;

import dev.omnigraph.api.CommitPage;
import dev.omnigraph.cli.CliHarness.Run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The CLI on a local graph ({@code --store DIR}) for input it must refuse: the exit code, the one
 * {@code error:} line, and that the graph root is exactly as before (no commit, no file, no
 * directory).
 */
class LocalCliTest {

  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    Omnigraph.init(StorageConfig.local(root), resource("graphs/people.pg"), Optional.of("setup")).close();
  }

  private static Run run(String... args) {
    return CliHarness.run(args);
  }

  /** Every path under the root, directories included, so an empty orphan directory shows too. */
  private List<String> tree() throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  private int commits() {
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_ONLY)) {
      return g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    }
  }

  /**
   * Issue 17: a write against a root whose writer lease is live elsewhere exits 3 naming the holder
   * and changes nothing; read-only commands still work.
   */
  @Test
  void aSecondWriterIsRefusedWithExitThreeNamingTheHolderWhileReadsWork() throws Exception {
    Path data = Files.writeString(dir.resolve("one.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n");
    try (dev.omnigraph.storage.StorageAdapter store = dev.omnigraph.storage.StorageAdapters.open(
        StorageConfig.local(root))) {
      dev.omnigraph.lease.WriterLease held = new dev.omnigraph.lease.LeaseManager(store, java.time.Clock.systemUTC())
          .acquire(new dev.omnigraph.lease.LeaseOwner("owner-svc", "pod-1", 7), java.time.Duration.ofMinutes(5));
      List<String> before = tree();
      int commits = commits();

      Run load = run("load", "--data", data.toString(), "--mode", "append", "--store", root.toString());
      assertThat(load.exit()).as(load.err()).isEqualTo(ExitCodes.CONFLICT);
      assertThat(load.err()).startsWith("error: graph is served by owner-svc (pod-1 pid 7) since ")
          .contains("; use --server URL or stop it");
      Run branch = run("branch", "create", "side", "--store", root.toString());
      assertThat(branch.exit()).as(branch.err()).isEqualTo(ExitCodes.CONFLICT);
      assertThat(tree()).isEqualTo(before);
      assertThat(commits()).isEqualTo(commits);

      Run snapshot = run("snapshot", "--store", root.toString());
      assertThat(snapshot.exit()).as(snapshot.err()).isZero();
      Run lease = run("lease", "show", "--store", root.toString());
      assertThat(lease.out()).contains("owner-svc (pod-1 pid 7)");
      held.release();
    }
    Run load = run("load", "--data", data.toString(), "--mode", "append", "--store", root.toString());
    assertThat(load.exit()).as(load.err()).isZero();
    assertThat(Files.exists(root.resolve(dev.omnigraph.lease.LeaseManager.KEY))).as("released at exit").isFalse();
  }

  /** Before: 20,000 nested '[' in a .pg file overflowed the parser's stack and crashed the command. */
  /**
   * A commit-id option is parsed with the arguments (CommitIdConverter): an empty {@code --if-commit}
   * or {@code --to} names no commit, so it is a usage error naming the option, before the graph is
   * opened (no lease taken, nothing written), as the server's 400 for an empty
   * {@code Omnigraph-If-Graph-Commit}.
   */
  @Test
  void anEmptyCommitIdOptionIsAUsageErrorBeforeAnyIo() throws Exception {
    List<String> before = tree();
    Path gq = Files.writeString(dir.resolve("w.gq"), resource("graphs/people.gq"));
    for (String[] args : List.of(
        new String[] {"mutate", "add_person", "--query", gq.toString(), "--params", "{\"name\":\"x\"}",
            "--if-commit", "", "--store", root.toString()},
        new String[] {"revert", "--to", "", "--store", root.toString()},
        new String[] {"blob", "put", "--type", "Person", "--id", "x", "--property", "photo", "--input", gq.toString(),
            "--if-commit", "", "--store", root.toString()})) {
      Run r = run(args);
      assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.USAGE);
      assertThat(r.err()).as(String.join(" ", args)).contains("Invalid value for option '--")
          .contains("a commit id is not empty");
    }
    assertThat(tree()).isEqualTo(before);
  }

  @Test
  void initRefusesASchemaNestedPastTheLimitAtItsPosition() throws Exception {
    Path schema = Files.writeString(dir.resolve("deep.pg"),
        "node P {\n  tags: " + "[".repeat(20_000) + "String" + "]".repeat(20_000) + "\n}\n");
    Run init = run("init", "--schema", schema.toString(), "--store", dir.resolve("deep").toString());
    assertThat(init.exit()).as(init.err()).isEqualTo(1);
    assertThat(init.err()).isEqualTo("error: 2:" + ("  tags: ".length() + 64)
        + ": '[' nests deeper than 64 levels of brackets ({ [ ( together), the schema language's limit\n");
  }

  /** {@code queries list --query F}: the catalog those files would serve, with the server's load checks. */
  @Test
  void queriesListLocalIsTheCatalogOfTheFiles() throws Exception {
    Path reads = Files.writeString(dir.resolve("reads.gq"),
        "query find($name: String) { match { $p: Person { name: $name } } return { $p.name } }\n");
    Path writes = Files.writeString(dir.resolve("writes.gq"),
        "query add($name: String, $tags: [String]?) { insert Person { name: $name } }\n");
    Run json = run("queries", "list", "--query", reads.toString(), "--query", writes.toString(), "--json");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.json()).isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
        {"queries":[
          {"name":"add","tool_name":"add","mutation":true,"description":null,"instruction":null,"params":[
            {"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false},
            {"name":"tags","kind":"list","item_kind":"string","vector_dim":null,"nullable":true}]},
          {"name":"find","tool_name":"find","mutation":false,"description":null,"instruction":null,"params":[
            {"name":"name","kind":"string","item_kind":null,"vector_dim":null,"nullable":false}]}]}"""));
    Run twice = run("queries", "list", "--query", reads.toString(), "--query", reads.toString());
    assertThat(twice.exit()).isEqualTo(1);
    assertThat(twice.err()).isEqualTo("error: stored queries: query 'find' is declared in both " + reads + " and "
        + reads + " (a stored query's name is its identity)\n");
    Run none = run("queries", "list");
    assertThat(none.exit()).isEqualTo(1);
    assertThat(none.err()).contains("--query FILE");
  }

  /** {@code commit changes --page-token}: its {@code more:} line is the next page's whole command, runnable as printed. */
  @Test
  void commitChangesPagePrintsTheCommandForTheNextPage() throws Exception {
    Path data = Files.writeString(dir.resolve("three.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}\n{\"type\":\"Person\",\"data\":{\"name\":\"cat\"}}\n");
    assertThat(run("load", "--data", data.toString(), "--mode", "append", "--store", root.toString()).exit()).isZero();
    String id = run("commit", "list", "--json", "--store", root.toString()).json().get("commits").get(0)
        .get("graph_commit_id").asText();
    String token;
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_ONLY)) {
      token = g.commitChanges(id, dev.omnigraph.api.ChangesPage.parse("1", null, List.of("node"), null, null)).nextPageToken();
    }
    Run page = run("commit", "changes", id, "--limit", "1", "--kind", "node", "--page-token", token, "--store", root.toString());
    assertThat(page.exit()).as(page.err()).isZero();
    assertThat(page.out().lines()).hasSize(1);
    String prefix = "more: omnigraph commit changes --store " + root + " " + id + " --limit 1 --kind node --page-token ";
    assertThat(page.err()).startsWith(prefix);
    Run next = run(page.err().strip().substring("more: omnigraph ".length()).split(" "));
    assertThat(next.exit()).as(next.err()).isZero();
    assertThat(next.out().lines()).hasSize(1).doesNotContainAnyElementsOf(page.out().lines().toList());
  }

  /** {@code changes poll} on a local graph: blocks from a start, a terminal cursor, then a caught-up poll. */
  @Test
  void changesPollReadsTheFeedAndPrintsWhereToContinue() throws Exception {
    Path data = Files.writeString(dir.resolve("people.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n{\"type\":\"Person\",\"data\":{\"name\":\"ben\"}}\n");
    Run load = run("load", "--data", data.toString(), "--mode", "append", "--store", root.toString());
    assertThat(load.exit()).as(load.err()).isZero();
    Run page = run("changes", "poll", "--start", "beginning", "--limit", "1", "--store", root.toString());
    assertThat(page.exit()).as(page.err()).isZero();
    assertThat(page.out()).matches("[0-9A-Z]{26} insert node Person ann\n");
    assertThat(page.err()).startsWith("more: omnigraph changes poll --store " + root + " --branch main --limit 1"
        + " --page-token ");
    String token = page.err().strip().substring(page.err().lastIndexOf(' ') + 1);
    Run rest = run("changes", "poll", "--page-token", token, "--limit", "1", "--json", "--store", root.toString());
    assertThat(rest.exit()).as(rest.err()).isZero();
    assertThat(rest.json().get("blocks").get(0).get("changes").get(0).get("id").asText()).isEqualTo("ben");
    assertThat(rest.json().get("caught_up").asBoolean()).isTrue();
    String cursor = rest.json().get("cursor").asText();
    Run again = run("changes", "poll", "--cursor", cursor, "--json", "--store", root.toString());
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.json().get("blocks").size()).isZero();
    Run both = run("changes", "poll", "--cursor", cursor, "--start", "now", "--store", root.toString());
    assertThat(both.exit()).isEqualTo(1);
    assertThat(both.err()).isEqualTo("error: 'cursor', 'start' and 'page_token' are mutually exclusive\n");
  }

  /** Before: a --server nobody listens on printed "cannot reach …: null". */
  @Test
  void aServerThatIsDownIsNamedWithTheCause() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Run down = run("snapshot", "--server", "http://127.0.0.1:" + port, "--graph", "g");
    assertThat(down.exit()).as(down.err()).isEqualTo(ExitCodes.ERROR);
    assertThat(down.err()).isEqualTo("error: cannot reach http://127.0.0.1:" + port
        + "/graphs/g: connection refused (is the server running?)\n");
  }

  /** Before: an S3 endpoint nobody listens on was an internal failure; now it is the store unavailable. */
  @Test
  void anUnreachableS3EndpointIsAStorageErrorWithItsExitCode() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    java.util.Map<String, String> env = java.util.Map.of("AWS_ENDPOINT", "http://127.0.0.1:" + port,
        "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s", "AWS_ALLOW_HTTP", "true");
    GraphOptions.env = env::get;
    try {
      Run snapshot = run("snapshot", "--store", "s3://bucket/graph");
      assertThat(snapshot.exit()).as(snapshot.err()).isEqualTo(dev.omnigraph.engine.ErrorKind.STORAGE_UNAVAILABLE.exitCode());
      assertThat(snapshot.err()).startsWith("error: the object store did not answer (connection refused): endpoint "
          + "http://127.0.0.1:" + port + ", graph root s3://bucket/graph; retry later")
          .doesNotContain("Exception").doesNotContain("internal error");
    } finally {
      GraphOptions.env = System::getenv;
    }
  }

  @Test
  void loadRefusesTrailingContentAndInvalidUtf8NamingTheLineAndCommitsNothing() throws Exception {
    List<String> before = tree();
    Path twoObjects = Files.writeString(dir.resolve("two.ndjson"), """
        {"type":"Person","data":{"name":"ann"}}
        {"type":"Person","data":{"name":"ben"}}{"type":"Person","data":{"name":"dropped"}}
        """);
    Run two = run("load", "--data", twoObjects.toString(), "--mode", "append", "--store", root.toString());
    assertThat(two.exit()).as(two.err()).isEqualTo(1);
    assertThat(two.err()).isEqualTo(
        "error: line 2: unexpected content after the JSON object at column 40 (exactly one object per line)\n");

    Path garbage = Files.writeString(dir.resolve("garbage.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}} ]]] garbage\n");
    Run trailing = run("load", "--data", garbage.toString(), "--store", root.toString());
    assertThat(trailing.exit()).isEqualTo(1);
    assertThat(trailing.err()).startsWith("error: line 1: unexpected content after the JSON object at column 41");

    ByteArrayOutputStream latin1 = new ByteArrayOutputStream();
    latin1.write("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n\n".getBytes(StandardCharsets.UTF_8));
    latin1.write("{\"type\":\"Person\",\"data\":{\"name\":\"Jos".getBytes(StandardCharsets.UTF_8));
    latin1.write(0xe9); // é in ISO-8859-1: not UTF-8
    latin1.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
    Path bad = Files.write(dir.resolve("latin1.ndjson"), latin1.toByteArray());
    Run utf8 = run("load", "--data", bad.toString(), "--store", root.toString());
    assertThat(utf8.exit()).isEqualTo(1);
    assertThat(utf8.err()).isEqualTo(
        "error: line 3: invalid UTF-8 at column 37 (1 malformed byte); NDJSON input must be UTF-8\n");

    assertThat(tree()).isEqualTo(before);
    assertThat(commits()).isEqualTo(1);

    // Whitespace after the object is not content; a real UTF-8 é is fine.
    Path ok = Files.writeString(dir.resolve("ok.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}  \t\n{\"type\":\"Person\",\"data\":{\"name\":\"José\"}}\n");
    Run loaded = run("load", "--data", ok.toString(), "--store", root.toString());
    assertThat(loaded.exit()).as(loaded.err()).isZero();
    assertThat(commits()).isEqualTo(2);
  }

  @Test
  void anUnknownLoadModeIsAUsageErrorBeforeAnyIo() throws Exception {
    List<String> before = tree();
    Run bogus = run("load", "--data", dir.resolve("absent.ndjson").toString(), "--mode", "bogus",
        "--store", root.toString());
    assertThat(bogus.exit()).isEqualTo(2);
    assertThat(bogus.err()).contains("Invalid value for option '--mode': unknown load mode 'bogus' "
        + "(append, merge, overwrite)");
    assertThat(tree()).isEqualTo(before);
  }

  @Test
  void branchNamesTheStoreCannotHoldAreRefusedBeforeAnyEffect() throws Exception {
    List<String> before = tree();
    Run main = run("branch", "create", "main", "--store", root.toString());
    assertThat(main.exit()).isEqualTo(1);
    assertThat(main.err()).isEqualTo("error: branch name 'main' is reserved: the main branch always exists\n");

    String deep = "a" + "/a".repeat(99); // 199 characters, 99 '/'
    Run tooLong = run("branch", "create", deep, "--store", root.toString());
    assertThat(tooLong.exit()).isEqualTo(1);
    assertThat(tooLong.err()).startsWith("error: branch name is too long for the store: ")
        .contains("397 of at most 250");
    assertThat(tree()).isEqualTo(before);
    assertThat(Files.exists(root.resolve("__manifest/tree"))).isFalse();

    Run list = run("branch", "list", "--store", root.toString());
    assertThat(list.out()).isEqualTo("main\n");
  }

  @Test
  void commitListIsPagedAndNamesTheCommandForTheNextPage() throws Exception {
    for (String name : List.of("ann", "ben", "cat")) {
      Path one = Files.writeString(dir.resolve(name + ".ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}\n");
      assertThat(run("load", "--data", one.toString(), "--mode", "append", "--store", root.toString()).exit()).isZero();
    }
    Run all = run("commit", "list", "--json", "--store", root.toString());
    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(all.json().has("next_cursor")).isFalse();
    List<String> ids = new ArrayList<>();
    all.json().get("commits").forEach(c -> ids.add(c.get("graph_commit_id").asText()));
    assertThat(ids).hasSize(4).doesNotHaveDuplicates();
    // --json carries the wire shape (main is graph_branch null); the text line still says main.
    all.json().get("commits").forEach(c -> assertThat(c.get("graph_branch").isNull()).isTrue());

    Run first = run("commit", "list", "--limit", "3", "--store", root.toString());
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out().lines().map(l -> l.substring(0, l.indexOf(' ')))).containsExactlyElementsOf(ids.subList(0, 3));
    String prefix = "more: omnigraph commit list --store " + root + " --branch main --limit 3 --cursor ";
    assertThat(first.err()).startsWith(prefix).endsWith("\n");
    String cursor = first.err().strip().substring(prefix.length());

    Run second = run("commit", "list", "--limit", "3", "--cursor", cursor, "--store", root.toString());
    assertThat(second.exit()).as(second.err()).isZero();
    assertThat(second.out().lines().map(l -> l.substring(0, l.indexOf(' ')))).containsExactly(ids.get(3));
    assertThat(second.out()).contains("(genesis)").contains(" main ");
    assertThat(second.err()).isEmpty();

    Run json = run("commit", "list", "--json", "--limit", "2", "--store", root.toString());
    assertThat(json.json().get("commits")).hasSize(2);
    Run jsonNext = run("commit", "list", "--json", "--limit", "2", "--cursor",
        json.json().get("next_cursor").asText(), "--store", root.toString());
    assertThat(jsonNext.json().get("commits").get(0).get("graph_commit_id").asText()).isEqualTo(ids.get(2));
    assertThat(jsonNext.json().has("next_cursor")).isFalse();

    Run zero = run("commit", "list", "--limit", "0", "--store", root.toString());
    assertThat(zero.exit()).isEqualTo(1);
    assertThat(zero.err()).isEqualTo("error: 'limit' must be between 1 and 1000, got 0\n");
    Run junk = run("commit", "list", "--cursor", "junk!", "--store", root.toString());
    assertThat(junk.exit()).isEqualTo(1);
    assertThat(junk.err()).startsWith("error: 'cursor' is not a commit-list cursor");
    assertThat(run("commit", "list", "--limit", "ten", "--store", root.toString()).exit()).isEqualTo(2);
  }

  @Test
  void hostileQueriesExitOneWithATypedMessageAndNothingCrashes() throws Exception {
    Path people = Files.writeString(dir.resolve("people.ndjson"), """
        {"type":"Person","data":{"name":"ann","age":30}}
        {"type":"Person","data":{"name":"ben","age":40}}
        {"type":"Person","data":{"name":"cat"}}
        """);
    assertThat(run("load", "--data", people.toString(), "--store", root.toString()).exit()).isZero();

    // Before: StackOverflowError out of the parser.
    Path nots = Files.writeString(dir.resolve("nots.gq"), "query q() { match { $p: Person "
        + "not { $p.age > 1 ".repeat(3_000) + "}".repeat(3_000) + " } return { $p.name } }");
    int column = ("query q() { match { $p: Person " + "not { $p.age > 1 ".repeat(62) + "not ").length() + 1;
    Run deep = run("query", "q", "--query", nots.toString(), "--store", root.toString());
    assertThat(deep.exit()).isEqualTo(1);
    assertThat(deep.err()).isEqualTo("error: 1:" + column + ": '{' nests deeper than 64 levels of brackets"
        + " ({ [ ( together), the query language's limit\n");

    // Before: the lone surrogate reached the Lance filter (an internal error).
    Path friends = Files.writeString(dir.resolve("named.gq"),
        "query named($name: String) { match { $p: Person { name: $name } } return { $p.name } }");
    Run surrogate = run("query", "named", "--query", friends.toString(), "--params", "{\"name\": \"\\ud800\"}",
        "--store", root.toString());
    assertThat(surrogate.exit()).isEqualTo(1);
    assertThat(surrogate.err()).isEqualTo("error: query 'named': parameter $name: unpaired surrogate U+D800 at"
        + " character 0; strings must be valid Unicode\n");

    // Before: 14 unconstrained variables over 3 people (4.8M bindings) → OutOfMemoryError.
    StringBuilder product = new StringBuilder("query product() { match {");
    for (int i = 0; i < 14; i++) {
      product.append(" $v").append(i).append(": Person");
    }
    Path wide = Files.writeString(dir.resolve("product.gq"), product.append(" } return { count($v0) as n } }"));
    Run budget = run("query", "product", "--query", wide.toString(), "--store", root.toString());
    assertThat(budget.exit()).isEqualTo(1);
    assertThat(budget.err()).isEqualTo("error: read budget exceeded: intermediate_rows reached 1000001, limit 1000000"
        + " (omnigraph.read.max-intermediate-rows); narrow the query or raise the limit\n");
    assertThat(commits()).isEqualTo(2);
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = LocalCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void branchMergeFastForwardsAndExitsThreeListingEveryConflict() throws Exception {
    String store = root.toString();
    assertThat(run("branch", "create", "feature", "--store", store).exit()).isZero();
    Path one = Files.writeString(dir.resolve("one.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":1}}\n");
    Path two = Files.writeString(dir.resolve("two.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":2}}\n");
    assertThat(run("load", "--data", one.toString(), "--branch", "feature", "--store", store).exit()).isZero();
    String featureHead = run("commit", "list", "--branch", "feature", "--limit", "1", "--store", store).out()
        .split(" ")[0];
    Run diff = run("commit", "changes", featureHead, "--store", store);
    assertThat(diff.exit()).as(diff.err()).isZero();
    assertThat(diff.out()).isEqualTo("insert node:Person ann  after={\"age\":1,\"email\":null,\"name\":\"ann\"}\n");
    Run merged = run("branch", "merge", "feature", "--json", "--store", store);
    assertThat(merged.exit()).as(merged.err()).isZero();
    assertThat(merged.out()).contains("\"outcome\" : \"fast_forward\"").contains("\"target\" : \"main\"");

    assertThat(run("branch", "create", "other", "--store", store).exit()).isZero();
    assertThat(run("load", "--data", two.toString(), "--mode", "merge", "--branch", "other", "--store", store).exit())
        .isZero();
    Path three = Files.writeString(dir.resolve("three.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":3}}\n");
    assertThat(run("load", "--data", three.toString(), "--mode", "merge", "--store", store).exit()).isZero();
    int before = commits();
    Run conflict = run("branch", "merge", "other", "--into", "main", "--store", store);
    assertThat(conflict.exit()).isEqualTo(3);
    assertThat(conflict.err()).contains("1 conflict(s)").contains("divergent_update node:Person ann");
    assertThat(commits()).isEqualTo(before);

    Run deleted = run("branch", "merge", "feature", "--delete-branch", "--store", store);
    assertThat(deleted.exit()).as(deleted.err()).isZero();
    assertThat(deleted.out()).contains("up to date").contains("deleted branch feature");
  }

  /** D₂ per query (issue 13): the file's mixed mutation is refused when it is the one run, not before. */
  /**
   * Issue 44 item 6: a key given twice is refused in every input, as JSON bodies refuse it. Before,
   * {@code --params '{"name":"L9","name":"L10"}'} inserted L10 and the NDJSON line loaded L10.
   */
  @Test
  void aKeyGivenTwiceInParamsOrInAnNdjsonLineExitsOneAndCommitsNothing() throws Exception {
    Path file = Files.writeString(dir.resolve("add.gq"), "query add($name: String) { insert Person { name: $name } }");
    Run mutate = run("mutate", "add", "--query", file.toString(), "--params", "{\"name\":\"L9\",\"name\":\"L10\"}",
        "--store", root.toString());
    assertThat(mutate.exit()).isEqualTo(1);
    assertThat(mutate.err()).isEqualTo("error: --params: field 'name' appears twice in one object at column 14\n");
    Run query = run("query", "add", "--query", file.toString(), "--params", "{\"a\":1} {\"a\":2}",
        "--store", root.toString());
    assertThat(query.exit()).isEqualTo(1);
    assertThat(query.err()).startsWith("error: --params: unexpected content after the JSON value");
    Path data = Files.writeString(dir.resolve("dup.ndjson"), """
        {"type":"Person","data":{"name":"L8"}}
        {"type":"Person","data":{"name":"L9","name":"L10"}}
        """);
    Run load = run("load", "--data", data.toString(), "--store", root.toString());
    assertThat(load.exit()).isEqualTo(1);
    assertThat(load.err()).isEqualTo("error: line 2: field 'name' appears twice in one object at column 38\n");
    assertThat(commits()).isEqualTo(1);
  }

  @Test
  void aFileWithOneMixedMutationStillRunsItsOtherQueries() throws Exception {
    Path file = Files.writeString(dir.resolve("mixed.gq"), """
        query everyone() {
          match { $p: Person }
          return { $p.name }
        }
        query mixed($n: String) {
          insert Person { name: $n }
          delete Person where name = $n
        }
        """);
    Run read = run("query", "everyone", "--query", file.toString(), "--store", root.toString());
    assertThat(read.exit()).as(read.err()).isZero();
    Run mixed = run("mutate", "mixed", "--query", file.toString(), "--params", "{\"n\":\"x\"}", "--store",
        root.toString());
    assertThat(mixed.exit()).isEqualTo(1);
    assertThat(mixed.err()).contains("query 'mixed': a mutation cannot mix insert with delete");
    assertThat(commits()).isEqualTo(1);
  }

  /** The /healthz shape (issue 13): version is the API version served, source_version our build. */
  @Test
  void versionJsonNamesTheApiVersionAndOurBuild() throws Exception {
    Run v = run("version", "--json");
    assertThat(v.exit()).isZero();
    assertThat(v.json().get("version").asText()).isEqualTo(dev.omnigraph.Versions.API_VERSION).startsWith("0.10.");
    assertThat(v.json().get("source_version").asText()).isEqualTo("omnigraph-jvm " + dev.omnigraph.Versions.version());
  }
}
