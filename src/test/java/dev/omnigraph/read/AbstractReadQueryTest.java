package dev.omnigraph.read;

import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import dev.omnigraph.table.TestIndexes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Golden read queries over one fixture graph (graphs/social.*) per backend: every construct of the
 * read language with nulls and ties, on main, on a branch that inherits main's tables untouched,
 * on a branch that was written, and at an older commit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractReadQueryTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACTOR = "act-read";

  protected abstract StorageConfig newRoot() throws Exception;

  /**
   * Whether the scalar properties get BTree indexes part-way through the load, so every golden runs
   * on indexes that cover some fragments and not others (rows loaded after the build, and the
   * written branch's own rows): the answers must be the unindexed ones.
   */
  protected boolean indexed() {
    return false;
  }

  private StorageConfig config;
  private Omnigraph graph;
  private String queries;
  private String fixtureCommit;

  @BeforeAll
  void fixture() throws Exception {
    config = newRoot();
    graph = Omnigraph.init(config, resource("graphs/social.pg"), Optional.of(ACTOR));
    String data = resource("graphs/social.ndjson");
    if (indexed()) {
      // dave and eve (and every edge) arrive after the indexes: their fragments are not covered.
      List<String> lines = data.lines().toList();
      Predicate<String> late = l -> l.contains("\"edge\"") || l.contains("\"dave\"") || l.contains("\"eve\"");
      graph.load("main", new StringReader(String.join("\n", lines.stream().filter(late.negate()).toList())),
          LoadMode.APPEND, Optional.of(ACTOR));
      TestIndexes.ensure(config, "main", "node:Person", List.of("name", "age", "score"),
          List.of(TestIndexes.Kind.BTREE, TestIndexes.Kind.BTREE, TestIndexes.Kind.BTREE));
      TestIndexes.ensure(config, "main", "node:Company", List.of("name", "founded"),
          List.of(TestIndexes.Kind.BTREE, TestIndexes.Kind.BTREE));
      graph.load("main", new StringReader(String.join("\n", lines.stream().filter(late).toList())),
          LoadMode.APPEND, Optional.of(ACTOR));
    } else {
      graph.load("main", new StringReader(data), LoadMode.APPEND, Optional.of(ACTOR));
    }
    queries = resource("graphs/social.gq");
    fixtureCommit = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId();
    graph.branchCreate("untouched", "main", Optional.of(ACTOR));
    graph.branchCreate("written", "main", Optional.of(ACTOR));
    graph.load("written", new StringReader(
        "{\"type\":\"Person\",\"data\":{\"name\":\"frank\",\"age\":19}}\n"
            + "{\"edge\":\"Knows\",\"from\":\"eve\",\"to\":\"frank\",\"data\":{}}"),
        LoadMode.APPEND, Optional.of(ACTOR));
    // Issue 47: alice knows herself, on a branch of its own so main's goldens keep their rows.
    graph.branchCreate("looped", "main", Optional.of(ACTOR));
    graph.load("looped", new StringReader("{\"edge\":\"Knows\",\"from\":\"alice\",\"to\":\"alice\",\"data\":{\"since\":2024}}"),
        LoadMode.APPEND, Optional.of(ACTOR));
  }

  @AfterAll
  void close() {
    graph.close();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = AbstractReadQueryTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private ReadOutput run(Optional<String> branch, Optional<String> commit, String name, Object... kv) {
    ObjectNode params = JSON.createObjectNode();
    for (int i = 0; i < kv.length; i += 2) {
      params.set((String) kv[i], JSON.valueToTree(kv[i + 1]));
    }
    return graph.query(branch.map(dev.omnigraph.api.BranchName::existing), commit.map(dev.omnigraph.api.CommitId::existing), queries, name, params);
  }

  private ReadOutput q(String name, Object... kv) {
    return run(Optional.empty(), Optional.empty(), name, kv);
  }

  /** The rows as value lists in column order. */
  private static List<List<Object>> rows(ReadOutput out) {
    List<List<Object>> rows = new ArrayList<>();
    for (Map<String, Object> r : out.rows()) {
      List<Object> line = new ArrayList<>();
      for (String c : out.columns()) {
        line.add(r.get(c));
      }
      rows.add(line);
    }
    return rows;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private static List<Object> names(ReadOutput out) {
    return rows(out).stream().map(r -> r.get(0)).toList();
  }

  @Test
  void aBindingWithAConstraintProjectsColumnsAndAliases() {
    ReadOutput out = q("person", "name", "alice");
    assertThat(out.queryName()).isEqualTo("person");
    assertThat(out.columns()).containsExactly("p.name", "age", "p.tags");
    assertThat(rows(out)).containsExactly(row("alice", 30, List.of("admin", "dev")));
    assertThat(out.rowCount()).isEqualTo(1);
    assertThat(out.target()).isEqualTo(new ReadOutput.Target("main", null));
    assertThat(out.graphCommitId()).isEqualTo(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId());
    assertThat(q("person", "name", "nobody").rows()).isEmpty();
  }

  @Test
  void orderIsTotalWithNullsFirstAscendingAndTiesBrokenById() {
    assertThat(rows(q("everyone"))).containsExactly(row("dave", null), row("bob", 25), row("alice", 30),
        row("carol", 30), row("eve", 41));
    assertThat(rows(q("younger_or_equal", "max", 31))).containsExactly(row("alice", 30), row("carol", 30),
        row("bob", 25));
    assertThat(rows(q("top_two"))).containsExactly(row("eve", 41), row("alice", 30));
    assertThat(rows(q("founded"))).containsExactly(row("acme", "2001-02-03"), row("globex", null));
  }

  @Test
  void comparisonFilters() {
    assertThat(names(q("older_than", "min", 29))).containsExactly("alice", "carol", "eve");
    assertThat(names(q("cmp_ops"))).containsExactly("alice", "carol");
    assertThat(names(q("no_age"))).containsExactly("dave");
    assertThat(names(q("by_id", "id", "bob"))).containsExactly("bob");
  }

  @Test
  void containsAndStartsWith() {
    assertThat(names(q("tagged", "tag", "dev"))).containsExactly("alice", "bob");
    assertThat(names(q("tagged", "tag", "nobody"))).isEmpty();
    assertThat(names(q("named_in"))).containsExactly("eve", "bob");
    assertThat(names(q("name_has", "part", "a"))).containsExactly("alice", "carol", "dave");
    assertThat(names(q("name_starts", "prefix", "ca"))).containsExactly("carol");
  }

  @Test
  void traversalsFollowTheEdgeDirectionAndReportEachDestinationOnce() {
    assertThat(names(q("friends", "name", "alice"))).containsExactly("bob", "carol");
    assertThat(names(q("reach", "name", "alice"))).containsExactly("bob", "carol", "dave");
    assertThat(names(q("fof", "name", "alice"))).containsExactly("dave");
    assertThat(rows(q("employees", "company", "acme"))).containsExactly(row("alice", "acme"), row("bob", "acme"));
    assertThat(rows(q("older_friends"))).containsExactly(row("bob", "carol"));
  }

  /** A read on branch {@code looped} (main plus alice→alice) of {@code match}, returning the given columns. */
  private List<List<Object>> looped(String match, String columns) {
    String source = "query q() { match { " + match + " } return { " + columns + " } order { " + columns + " } }";
    return rows(graph.query(Optional.of(dev.omnigraph.api.BranchName.existing("looped")), Optional.empty(), source, "q", null));
  }

  /**
   * Issue 47: a self-loop is one hop from its node to itself, as the reference's
   * docs/user/queries/traversal.md has it ("the start node is returned only through its own self-loop,
   * which counts as one hop, never through a cycle"; its case issue_613). Before the fix the origin
   * sat in the breadth-first visited set before the first hop, so every traversal pruned the loop.
   */
  @Test
  void aSelfLoopIsOneHopFromItsNodeToItself() {
    assertThat(looped("$a: Person $a knows $a", "$a.name")).containsExactly(row("alice"));
    assertThat(looped("$a knows $a", "$a.name")).containsExactly(row("alice"));
    assertThat(looped("$a: Person $a <knows> $a", "$a.name")).containsExactly(row("alice"));
    assertThat(looped("$a knows $b", "$a.name, $b.name")).containsExactly(row("alice", "alice"),
        row("alice", "bob"), row("alice", "carol"), row("bob", "carol"), row("carol", "dave"), row("dave", "alice"));
    assertThat(looped("$a: Person not { $a knows $a }", "$a.name")).containsExactly(row("bob"), row("carol"),
        row("dave"), row("eve"));
    // From the target's end (the reverse adjacency): alice is known by dave and by herself.
    assertThat(looped("$b: Person { name: \"alice\" } $a knows $b", "$a.name")).containsExactly(row("alice"),
        row("dave"));
    // Hop bounds count the loop as the one hop that reaches alice; no node is reached twice, so
    // {2,2} from alice is only dave (alice is one hop away), and a cycle back never returns her.
    assertThat(looped("$a: Person { name: \"alice\" } $a knows{1,1} $b", "$b.name")).containsExactly(row("alice"),
        row("bob"), row("carol"));
    assertThat(looped("$a: Person { name: \"alice\" } $a knows{1,3} $b", "$b.name")).containsExactly(row("alice"),
        row("bob"), row("carol"), row("dave"));
    assertThat(looped("$a: Person { name: \"alice\" } $a knows{2,2} $b", "$b.name")).containsExactly(row("dave"));
    assertThat(looped("$a: Person { name: \"dave\" } $a knows{2,3} $b", "$b.name")).containsExactly(row("bob"),
        row("carol"));
    assertThat(looped("$a: Person { name: \"bob\" } $a knows{1,3} $b", "$b.name")).containsExactly(row("alice"),
        row("carol"), row("dave"));
    // The edge variable and the traversal now agree on the loop.
    assertThat(looped("$a $w:knows $a", "$a.name, $w.since")).containsExactly(row("alice", 2024L));
    // On main, without the loop, alice still never reaches herself through the cycle back to her.
    assertThat(names(q("reach", "name", "alice"))).doesNotContain("alice");
  }

  @Test
  void negationIsAnAntiJoin() {
    assertThat(names(q("unemployed"))).containsExactly("dave", "eve");
    assertThat(names(q("not_at_acme"))).containsExactly("carol", "dave", "eve");
  }

  @Test
  void aggregatesGroupByTheOtherColumns() {
    ReadOutput out = q("per_company");
    assertThat(out.columns()).containsExactly("company", "n", "avg_age", "youngest", "last", "total");
    assertThat(rows(out)).containsExactly(row("acme", 2L, 27.5, 25, "bob", 3.5),
        row("globex", 1L, 30.0, 30, "carol", null));
    assertThat(rows(q("by_age"))).containsExactly(row(null, 1L, 0L), row(25, 1L, 1L), row(30, 2L, 1L),
        row(41, 1L, 1L));
    assertThat(rows(q("head_count"))).containsExactly(row(0L, null));
  }

  @Test
  void branchesReadTheirOwnStateOrInheritMain() {
    ReadOutput untouched = run(Optional.of("untouched"), Optional.empty(), "everyone");
    assertThat(rows(untouched)).isEqualTo(rows(q("everyone")));
    assertThat(untouched.target()).isEqualTo(new ReadOutput.Target("untouched", null));
    assertThat(untouched.graphCommitId()).isEqualTo(fixtureCommitOnMainHead());
    ReadOutput written = run(Optional.of("written"), Optional.empty(), "friends", "name", "eve");
    assertThat(names(written)).containsExactly("frank");
    assertThat(names(q("friends", "name", "eve"))).isEmpty();
    assertThat(names(run(Optional.of("written"), Optional.empty(), "everyone"))).contains("frank");
  }

  private String fixtureCommitOnMainHead() {
    return graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId();
  }

  @Test
  void timeTravelReadsTheStateACommitPublished() {
    ReadOutput then = run(Optional.empty(), Optional.of(fixtureCommit), "everyone");
    assertThat(then.target()).isEqualTo(new ReadOutput.Target(null, fixtureCommit));
    assertThat(then.graphCommitId()).isEqualTo(fixtureCommit);
    assertThat(names(then)).containsExactlyInAnyOrder("alice", "bob", "carol", "dave", "eve");
    assertThatThrownBy(() -> run(Optional.of("main"), Optional.of(fixtureCommit), "everyone"))
        .isInstanceOf(InvalidRequest.class);
  }

  @Test
  void aMutationIsNotRunAsAQuery() {
    assertThatThrownBy(() -> q("add_person", "name", "x")).isInstanceOf(InvalidRequest.class)
        .hasMessageContaining("mutation");
  }

  @Test
  void awkwardValuesRoundTripThroughInsertAndEveryStringFilter() {
    List<String> awkward = List.of("o'brien", "say \"hi\"", "back\\slash", "100%", "a_b", "x' OR '1'='1",
        "'; DROP TABLE nodes; --", "tab\there", "ünï😀");
    List<String> decoys = List.of("1000", "ab", "abb", "x", "back");
    graph.branchCreate("escapes", "main", Optional.of(ACTOR));
    // One name through the mutation path, the rest in one load: both insert paths, few round trips.
    graph.mutate("escapes", queries, "add_person", JSON.createObjectNode().put("name", awkward.get(0)),
        Optional.of(ACTOR), Optional.empty());
    StringBuilder ndjson = new StringBuilder();
    for (String name : concat(awkward.subList(1, awkward.size()), decoys)) {
      ObjectNode line = JSON.createObjectNode().put("type", "Person");
      line.set("data", JSON.createObjectNode().put("name", name));
      ndjson.append(line.toString()).append('\n');
    }
    graph.load("escapes", new StringReader(ndjson.toString()), LoadMode.APPEND, Optional.of(ACTOR));
    Optional<String> b = Optional.of("escapes");
    for (String name : awkward) {
      assertThat(names(run(b, Optional.empty(), "person", "name", name))).as("= %s", name).containsExactly(name);
      assertThat(names(run(b, Optional.empty(), "name_starts", "prefix", name))).as("starts_with %s", name)
          .containsExactly(name);
      assertThat(names(run(b, Optional.empty(), "name_has", "part", name))).as("contains %s", name)
          .containsExactly(name);
    }
    assertThat(names(run(b, Optional.empty(), "name_has", "part", "%"))).containsExactly("100%");
    assertThat(names(run(b, Optional.empty(), "name_has", "part", "_"))).containsExactly("a_b");
    assertThat(names(run(b, Optional.empty(), "name_starts", "prefix", "100"))).containsExactly("100%", "1000");
    assertThat(names(run(b, Optional.empty(), "name_starts", "prefix", "a_"))).containsExactly("a_b");
    assertThat(names(run(b, Optional.empty(), "name_has", "part", "'"))).containsExactly("'; DROP TABLE nodes; --",
        "o'brien", "x' OR '1'='1");
  }

  /** The fixture's root (the local variant runs a child JVM on it). */
  protected StorageConfig config() {
    return config;
  }

  private ReadOutput query(String source, String name, ReadSettings budgets) {
    return graph.query(Optional.empty(), Optional.empty(), source, name, null, budgets);
  }

  @Test
  void resultJsonSpellsDateTimeDateF32AndNullAsTheReference() throws Exception {
    // Issue 47.6, the reference's case issue_618_json_f32_datetime_null_spelling and RFC 0051: a
    // DateTime is UTC wall-clock time with no Z (and no .000), a Date YYYY-MM-DD, an F32 its 32-bit
    // digits, and a null cell's key is left out of the row.
    String source = """
        query spelled($w: F32, $none: String?) {
          match { $c: Company }
          return { $c.name, $c.founded, datetime("2024-01-01T11:54:56.789Z") as at,
                   datetime("2024-01-01T00:00:00+01:00") as t0, $w, $none }
          order { $c.name }
        }
        """;
    ReadOutput out = graph.query(Optional.empty(), Optional.empty(), source, "spelled",
        JSON.createObjectNode().put("w", 0.99));
    assertThat(out.columns()).containsExactly("c.name", "c.founded", "at", "t0", "w", "none");
    assertThat(JSON.writeValueAsString(out.rows())).isEqualTo("["
        + "{\"c.name\":\"acme\",\"c.founded\":\"2001-02-03\",\"at\":\"2024-01-01T11:54:56.789\","
        + "\"t0\":\"2023-12-31T23:00:00\",\"w\":0.99},"
        + "{\"c.name\":\"globex\",\"at\":\"2024-01-01T11:54:56.789\",\"t0\":\"2023-12-31T23:00:00\",\"w\":0.99}]");
  }

  private List<Object> ages(String condition) {
    String source = "query q() { match { $p: Person " + condition + " } return { $p.name } order { $p.name } }";
    return names(graph.query(Optional.empty(), Optional.empty(), source, "q", null));
  }

  @Test
  void anIntegerPropertyComparesWithADecimalOrOutOfRangeNumberByValue() {
    // Issue 47.5: Lance failed the scan (20.5 does not convert to Int32); the reference compares
    // numerically. Ages: alice 30, bob 25, carol 30, dave null, eve 41.
    assertThat(ages("$p.age > 29.5")).containsExactly("alice", "carol", "eve");
    assertThat(ages("$p.age >= 30.5")).containsExactly("eve");
    assertThat(ages("$p.age < 30.5")).containsExactly("alice", "bob", "carol");
    assertThat(ages("$p.age <= 29.9")).containsExactly("bob");
    assertThat(ages("$p.age = 30.0")).containsExactly("alice", "carol");
    assertThat(ages("$p.age = 30.5")).isEmpty();
    assertThat(ages("$p.age != 30.5")).containsExactly("alice", "bob", "carol", "eve");
    assertThat(ages("$p.age < -0.5")).isEmpty();
    assertThat(ages("$p.age > 3000000000")).isEmpty();
    assertThat(ages("$p.age < 3000000000")).containsExactly("alice", "bob", "carol", "eve");
    assertThat(ages("$p.age >= -3000000000.5")).containsExactly("alice", "bob", "carol", "eve");
    // The same comparisons evaluated in the JVM ($p is outer to the not, so nothing is pushed).
    assertThat(ages("not { $p.age > 29.5 }")).containsExactly("bob", "dave");
    assertThat(ages("not { $p.age != 30.5 }")).containsExactly("dave");
    assertThat(ages("not { $p.age <= 29.9 }")).containsExactly("alice", "carol", "dave", "eve");
    assertThat(ages("not { $p.age > 3000000000 }")).containsExactly("alice", "bob", "carol", "dave", "eve");
    // And a parameter of a floating type, bound per invocation.
    String source = "query q($min: F64) { match { $p: Person $p.age > $min } return { $p.name } order { $p.name } }";
    ObjectNode params = JSON.createObjectNode().put("min", 29.5);
    assertThat(names(graph.query(Optional.empty(), Optional.empty(), source, "q", params)))
        .containsExactly("alice", "carol", "eve");
  }

  @Test
  void filtersBeyondWhatIsPushedToLanceAreEvaluatedInTheJvmWithTheSameSemantics() {
    // 100 filters: 64 go into the scan, the rest (among them age < 41, where dave's null age is
    // unknown and so not a match) are tested on the scanned rows.
    assertThat(ReadExecutor.MAX_PUSHED_CONDITIONS).isEqualTo(64);
    assertThat(names(graph.query(Optional.empty(), Optional.empty(), ManyFilters.query(100), "many", null)))
        .containsExactly("bob", "carol");
    // The same filters with the decisive one among the pushed: the same rows.
    assertThat(names(graph.query(Optional.empty(), Optional.empty(), ManyFilters.query(10), "many", null)))
        .containsExactly("bob", "carol");
  }

  /** {@code n} unconstrained Person variables: a 5^n-row cartesian product over the fixture. */
  private static String product(int n) {
    StringBuilder q = new StringBuilder("query product() { match {");
    for (int i = 0; i < n; i++) {
      q.append(" $v").append(i).append(": Person");
    }
    return q.append(" } return { count($v0) as n } }").toString();
  }

  @Test
  void twelveUnconstrainedVariablesStopAtTheRowBudgetInsteadOfExhaustingTheHeap() {
    // Before: 244M bindings, OutOfMemoryError. Rows are charged as produced: 5 + 25 + … + 5^8
    // (488,280) plus the candidate scans fit; the step making 5^9 crosses 1,000,000.
    ReadBudgetExceeded e = catchThrowableOfType(ReadBudgetExceeded.class,
        () -> query(product(12), "product", ReadSettings.defaults()));
    assertThat(e).isNotNull();
    assertThat(e.budget()).isEqualTo(ReadBudgetExceeded.Budget.INTERMEDIATE_ROWS);
    assertThat(e.limit()).isEqualTo(1_000_000);
    assertThat(e.actual()).isEqualTo(1_000_001);
    assertThat(e.getMessage()).isEqualTo("read budget exceeded: intermediate_rows reached 1000001, limit 1000000"
        + " (omnigraph.read.max-intermediate-rows); narrow the query or raise the limit");
    // The handle is unharmed and reads on.
    assertThat(names(q("everyone"))).hasSize(5);
  }

  @Test
  void tenThousandVariablesStopAtTheBytesBudget() {
    // Before: 12.7 s of work for 10,000 variables, and no limit. A binding row's estimate grows by
    // 8 bytes per variable, so the bytes budget stops the product long before the rows one would.
    ReadBudgetExceeded e = catchThrowableOfType(ReadBudgetExceeded.class,
        () -> query(product(10_000), "product", ReadSettings.defaults()));
    assertThat(e.budget()).isEqualTo(ReadBudgetExceeded.Budget.INTERMEDIATE_BYTES);
    assertThat(e.limit()).isEqualTo(ReadSettings.defaults().maxIntermediateBytes());
    assertThat(e.actual()).isGreaterThan(e.limit());
    assertThat(names(q("everyone"))).hasSize(5);
  }

  @Test
  void theRowBudgetCountsScannedCandidatesAndProducedBindingsExactly() {
    // everyone: 5 candidate rows scanned, 5 bindings made.
    assertThat(query(resourceQueries(), "everyone", new ReadSettings(10, Long.MAX_VALUE, 30_000)).rowCount())
        .isEqualTo(5);
    ReadBudgetExceeded e = catchThrowableOfType(ReadBudgetExceeded.class,
        () -> query(resourceQueries(), "everyone", new ReadSettings(9, Long.MAX_VALUE, 30_000)));
    assertThat(e.budget()).isEqualTo(ReadBudgetExceeded.Budget.INTERMEDIATE_ROWS);
    assertThat(e.limit()).isEqualTo(9);
    assertThat(e.actual()).isEqualTo(10);
  }

  @Test
  void theByteBudgetBoundsWideBindings() {
    // Three variables: a binding row is 16 + 8·3 = 40 bytes; 5 candidate rows of 2 columns are 32 each.
    ReadBudgetExceeded e = catchThrowableOfType(ReadBudgetExceeded.class,
        () -> query(product(3), "product", new ReadSettings(Long.MAX_VALUE, 1_000, 30_000)));
    assertThat(e.budget()).isEqualTo(ReadBudgetExceeded.Budget.INTERMEDIATE_BYTES);
    assertThat(e.limit()).isEqualTo(1_000);
    assertThat(e.actual()).isGreaterThan(1_000).isLessThanOrEqualTo(1_040);
  }

  @Test
  void aReadPastItsTimeoutStopsWithTheTimeoutNamed() {
    // Eight variables: eight candidate scans and 488,280 bindings, far beyond 1 ms.
    ReadBudgetExceeded e = catchThrowableOfType(ReadBudgetExceeded.class,
        () -> query(product(8), "product", new ReadSettings(Long.MAX_VALUE, Long.MAX_VALUE, 1)));
    assertThat(e.budget()).isEqualTo(ReadBudgetExceeded.Budget.TIMEOUT_MS);
    assertThat(e.limit()).isEqualTo(1);
    assertThat(e.actual()).isGreaterThan(1);
    assertThat(e.getMessage()).startsWith("read budget exceeded: timeout_ms reached ");
  }

  private String resourceQueries() {
    return queries;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  static {
    // Fail fast on a missing resource rather than with a confusing NPE.
    if (AbstractReadQueryTest.class.getClassLoader().getResource("graphs/social.gq") == null) {
      throw new UncheckedIOException(new IOException("graphs/social.gq missing"));
    }
  }
}
