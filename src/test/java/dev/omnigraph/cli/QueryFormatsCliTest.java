package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query --format jsonl|csv} as the reference CLI renders them, and {@code --snapshot} as the
 * reference's name for {@code --commit}.
 */
class QueryFormatsCliTest {

  @TempDir Path dir;
  private Path root;
  private Path gq;
  private String firstCommit;

  @BeforeEach
  void seed() throws Exception {
    root = dir.resolve("g");
    try (Omnigraph g = Omnigraph.init(StorageConfig.local(root), resource("graphs/people.pg"), Optional.of("t"))) {
      firstCommit = g.load("main", new StringReader(
          "{\"type\":\"Person\",\"data\":{\"name\":\"ann, \\\"the\\\" first\",\"age\":30}}\n"
              + "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}"), LoadMode.APPEND, Optional.of("t"))
          .commitId().orElseThrow();
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"cy\",\"age\":5}}"), LoadMode.APPEND,
          Optional.of("t"));
    }
    gq = Files.writeString(dir.resolve("q.gq"), """
        query people() {
          match { $p: Person }
          return { $p.name, $p.age }
          order { $p.name }
        }
        """);
  }

  @Test
  void csvQuotesWhatNeedsItAndSpellsNull() {
    Run r = CliHarness.run("query", "people", "--query", gq.toString(), "--format", "csv", "--store", root.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("p.name,p.age\n\"ann, \"\"the\"\" first\",30\nbob,null\ncy,5\n");
  }

  @Test
  void jsonlIsAMetadataLineThenARowPerLine() throws Exception {
    Run r = CliHarness.run("query", "people", "--query", gq.toString(), "--format", "jsonl", "--store",
        root.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines().toList()).containsExactly(
        "{\"kind\":\"metadata\",\"query_name\":\"people\",\"target\":{\"branch\":\"main\",\"snapshot\":null},"
            + "\"row_count\":3}",
        "{\"p.name\":\"ann, \\\"the\\\" first\",\"p.age\":30}",
        // A null cell's key is omitted, as the reference writes rows (RFC 0051).
        "{\"p.name\":\"bob\"}",
        "{\"p.name\":\"cy\",\"p.age\":5}");
  }

  @Test
  void snapshotIsTheCommitOption() {
    Run bySnapshot = CliHarness.run("query", "people", "--query", gq.toString(), "--format", "csv", "--snapshot",
        firstCommit, "--store", root.toString());
    Run byCommit = CliHarness.run("query", "people", "--query", gq.toString(), "--format", "csv", "--commit",
        firstCommit, "--store", root.toString());
    assertThat(bySnapshot.exit()).as(bySnapshot.err()).isZero();
    assertThat(bySnapshot.out()).isEqualTo(byCommit.out()).isEqualTo("p.name,p.age\n\"ann, \"\"the\"\" first\",30\n"
        + "bob,null\n");
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = QueryFormatsCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void explainPrintsThePlanWithoutRunningIt() throws Exception {
    Path q = Files.writeString(dir.resolve("e.gq"), """
        query one($n: String) { match { $p: Person { name: $n } } return { $p.age } }
        query degree() {
          match { $p: Person  $p knows $f }
          return { $p.name, count($f) as d }
          order { d desc }
          limit 10
        }
        """);
    Run one = CliHarness.run("query", "one", "--query", q.toString(), "--params", "{\"n\":\"it's\"}", "--explain",
        "--store", root.toString());
    assertThat(one.exit()).as(one.err()).isZero();
    assertThat(plan(one)).containsExactly("$p: Person, id probe from its @key (the id BTree), pushed"
        + " filter (`id` IN ('it''s')) AND (`name` = 'it''s'), columns id,name,age");
    Run degree = CliHarness.run("query", "degree", "--query", q.toString(), "--explain", "--store", root.toString());
    assertThat(degree.exit()).as(degree.err()).isZero();
    assertThat(plan(degree)).containsExactly(
        "$p: Person, unfiltered, columns id", // the name is the id (a lone String @key): not read
        "$f: Person, unfiltered, columns id",
        "streamed aggregate, grouped by $p, over the Knows adjacency out of each node (src/dst only, no row per edge)",
        "top-k heap of 10 rows by d desc");
  }

  /**
   * The plan lines of an explain: without the column cache's lines, which this process adds when
   * earlier tests' reads left columns of the root cached (a fresh CLI process holds none; the cache's
   * explain lines are ColumnCacheReadTest's).
   */
  private static java.util.List<String> plan(Run r) {
    return r.out().lines().filter(l -> !l.contains(": column cache ")).toList();
  }
}
