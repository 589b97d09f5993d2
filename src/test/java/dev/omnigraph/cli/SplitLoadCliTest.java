package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph load --split} (issue 45 item 5): an append over the 8,192-row bound of one write
 * lands as a sequence of bounded load commits, each all or nothing, and {@code --resume-from LINE}
 * continues a run that stopped.
 */
class SplitLoadCliTest {

  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    Omnigraph.init(StorageConfig.local(root), Files.readString(Path.of(
        SplitLoadCliTest.class.getClassLoader().getResource("graphs/people.pg").toURI())), Optional.of("setup")).close();
  }

  /** 19,998 people, then 2 Knows edges whose endpoints are all in the first chunk: 20,000 lines. */
  private static List<String> input() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 19_998; i++) {
      lines.add("{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":" + (i % 100) + "}}");
    }
    lines.add("{\"edge\":\"Knows\",\"from\":\"p0\",\"to\":\"p1\"}");
    lines.add("{\"edge\":\"Knows\",\"from\":\"p1\",\"to\":\"p8191\"}");
    return lines;
  }

  private int commits() {
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_ONLY)) {
      return g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().size();
    }
  }

  /** Entity count by dataset type name, as {@code snapshot --json} reports it. */
  private Map<String, Long> counts() throws Exception {
    Run snapshot = CliHarness.run("snapshot", "--json", "--store", root.toString());
    assertThat(snapshot.exit()).as(snapshot.err()).isZero();
    Map<String, Long> counts = new TreeMap<>();
    snapshot.json().get("datasets").forEach(d -> counts.put(d.get("type_name").asText(), d.get("entity_count").asLong()));
    return counts;
  }

  @Test
  void twentyThousandLinesLandAsThreeBoundedCommits() throws Exception {
    Path data = Files.write(dir.resolve("big.ndjson"), input());
    int before = commits();

    Run load = CliHarness.run("load", "--data", data.toString(), "--split", "--progress", "--store", root.toString());

    assertThat(load.exit()).as(load.err()).isZero();
    List<String> out = load.out().lines().toList();
    assertThat(out).hasSize(4); // the chunk lines on stdout, the live line (issue 45 item 6) on stderr only
    assertThat(load.err().stripTrailing()).matches("(?s)\r.*\rread 20,000 lines, [0-9.]+ / [0-9.]+ MiB \\(100%\\)"
        + "(, [0-9.,]+ lines/s)?, done");
    assertThat(out.get(0)).matches("committed lines 1-8192 \\(commit [0-9A-Z]{26}, 8192 rows\\)");
    assertThat(out.get(1)).matches("committed lines 8193-16384 \\(commit [0-9A-Z]{26}, 8192 rows\\)");
    assertThat(out.get(2)).matches("committed lines 16385-20000 \\(commit [0-9A-Z]{26}, 3616 rows\\)");
    assertThat(out.get(3)).isEqualTo("loaded 20000 rows into main as 3 commits (lines 1-20000)");
    assertThat(commits()).isEqualTo(before + 3);
    assertThat(counts()).containsEntry("Person", 19_998L).containsEntry("Knows", 2L);
  }

  @Test
  void aBadLineInTheSecondChunkKeepsTheFirstAndTheResumeCommandFinishesTheRun() throws Exception {
    List<String> lines = input();
    String good = lines.get(9_999);
    lines.set(9_999, "{\"type\":\"Person\",\"data\":{\"name\":\"p9999\",\"age\":\"old\"}}");
    Path data = Files.write(dir.resolve("big.ndjson"), lines);
    int before = commits();

    Run failed = CliHarness.run("load", "--data", data.toString(), "--mode", "append", "--split", root.toString());

    assertThat(failed.exit()).as(failed.err()).isEqualTo(ExitCodes.ERROR);
    assertThat(failed.out()).matches("committed lines 1-8192 \\(commit [0-9A-Z]{26}, 8192 rows\\)\n");
    String resume = "omnigraph load --store " + root + " --data " + data + " --mode append --split --resume-from 8193";
    List<String> err = failed.err().lines().toList();
    assertThat(err).hasSize(3);
    assertThat(err.get(0)).startsWith("error: line 10000: Person.age: ");
    assertThat(err.get(1)).isEqualTo("1 commits landed, through line 8192; after fixing the input, continue with:");
    assertThat(err.get(2)).isEqualTo("  " + resume);
    assertThat(commits()).isEqualTo(before + 1);
    assertThat(counts()).containsEntry("Person", 8_192L).containsEntry("Knows", 0L);

    lines.set(9_999, good);
    Files.write(data, lines);
    Run resumed = CliHarness.run(resume.substring("omnigraph ".length()).split(" "));

    assertThat(resumed.exit()).as(resumed.err()).isZero();
    assertThat(resumed.out().lines().toList()).hasSize(3).first().asString()
        .matches("committed lines 8193-16384 \\(commit [0-9A-Z]{26}, 8192 rows\\)");
    assertThat(resumed.out()).endsWith("loaded 11808 rows into main as 2 commits (lines 8193-20000)\n");
    assertThat(commits()).isEqualTo(before + 3);
    assertThat(counts()).containsEntry("Person", 19_998L).containsEntry("Knows", 2L);
  }

  @Test
  void splitWithOverwriteOrResumeWithoutSplitIsAUsageErrorThatChangesNothing() throws Exception {
    Path data = Files.write(dir.resolve("one.ndjson"), List.of("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}"));
    int before = commits();

    Run overwrite = CliHarness.run("load", "--data", data.toString(), "--mode", "overwrite", "--split", root.toString());
    assertThat(overwrite.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(overwrite.err()).isEqualTo("error: omnigraph load: --split cannot overwrite: an overwrite replaces its"
        + " tables in one commit\ndrop --split to overwrite in one commit, or use --mode append or merge with --split\n");
    Run resume = CliHarness.run("load", "--data", data.toString(), "--resume-from", "2", root.toString());
    assertThat(resume.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(resume.err()).startsWith("error: omnigraph load: --resume-from continues a --split run\n");
    assertThat(commits()).isEqualTo(before);
  }
}
