package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cases on local FS, and {@code omnigraph gqt} itself: its lines, summary and exit codes. */
class GqtCasesLocalTest extends AbstractGqtCasesTest {

  @TempDir Path dir;

  @Override
  protected Function<String, StorageConfig> roots() {
    return label -> StorageConfig.local(dir.resolve(label));
  }

  @Test
  void theCommandFailsABrokenExpectationWithTheDiffAndExitsOne() throws Exception {
    Path fixtures = resources("gqt-fixtures");
    Path store = dir.resolve("runs");
    Run run = CliHarness.run("gqt", "--store", store.toString(), fixtures.resolve("broken_expectation.gqt").toString(),
        fixtures.resolve("unsupported_seam.gqt").toString());
    assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.ERROR);
    String broken = fixtures.resolve("broken_expectation.gqt").toString();
    assertThat(run.out()).contains("FAIL        " + broken + " (")
        .contains("\n  " + broken + ":14: step 1 (query heavy): expectation at line 20: rows differ (unordered):"
            + " expected 2 rows, got 2\n"
            + "    - {\"f.kg\": 0.25, \"f.name\": \"lime\"}   (expected, missing)\n"
            + "    + {\"f.kg\": 0.25, \"f.name\": \"kiwi\"}   (actual, not expected)\n")
        .contains("UNSUPPORTED " + fixtures.resolve("unsupported_seam.gqt") + ": " + fixtures.resolve(
            "unsupported_seam.gqt") + ":11: unsupported: --- seam\n")
        .endsWith("0 passed, 1 failed, 1 unsupported\n");
    // Every graph of the run under its own prefix of the store.
    try (var runs = Files.list(store)) {
      assertThat(runs.map(p -> p.getFileName().toString()).toList()).singleElement().asString().startsWith("gqt-");
    }
  }

  @Test
  void passingCasesExitZeroAndJsonListsEveryVerdict() throws Exception {
    Path one = resources("gqt").resolve("fulltext_one_row_table.gqt");
    Path unsupported = resources("gqt-fixtures").resolve("unsupported_seam.gqt");
    Run run = CliHarness.run("gqt", "--json", one.toString(), unsupported.toString());
    assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.OK);
    var json = run.json();
    assertThat(json.get("passed").asInt()).isEqualTo(1);
    assertThat(json.get("failed").asInt()).isZero();
    assertThat(json.get("unsupported").asInt()).isEqualTo(1);
    assertThat(json.get("cases").get(0).get("status").asText()).isEqualTo("passed");
    assertThat(json.get("cases").get(1).get("status").asText()).isEqualTo("unsupported");
  }

  @Test
  void aDirectoryWithoutCasesOrAMissingFileIsAUsageError() throws Exception {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Run none = CliHarness.run("gqt", empty.toString());
    assertThat(none.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(none.err()).startsWith("error: omnigraph gqt: no .gqt file in " + empty);
    Run missing = CliHarness.run("gqt", dir.resolve("nope.gqt").toString());
    assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(missing.err()).startsWith("error: omnigraph gqt: file not found: " + dir.resolve("nope.gqt"));
    Run nothing = CliHarness.run("gqt");
    assertThat(nothing.exit()).isEqualTo(ExitCodes.USAGE);
  }
}
