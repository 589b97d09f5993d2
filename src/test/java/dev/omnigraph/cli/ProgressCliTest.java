package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 6: load, export, index ensure, optimize, branch merge and cleanup draw a progress
 * line on stderr with {@code --progress} (on a terminal by default), their stdout is the same as
 * with {@code --no-progress}, and without a terminal and without the flag nothing is drawn.
 *
 * <p>Two graphs go through the same commands, one with {@code --progress}, one with
 * {@code --no-progress}; stdouts are compared with commit ids masked (each graph mints its own).
 * Surefire's stderr is no terminal and the launcher's property is unset, so the default is off.
 */
class ProgressCliTest {

  @TempDir Path dir;

  /** The final line each command draws (its last state, marked done), by command. */
  private static final Map<String, Pattern> FINAL_LINE = new LinkedHashMap<>();

  static {
    FINAL_LINE.put("load", Pattern.compile("read 3 lines, 0\\.0 / 0\\.0 MiB \\(100%\\)(, [0-9.,]+ lines/s)?, done"));
    FINAL_LINE.put("merge", Pattern.compile("merge feature into main: 1/1 tables(, [0-9.,]+ rows/s)?, done"));
    FINAL_LINE.put("index ensure", Pattern.compile("index ensure main: 4/4 tables(, [0-9.,]+ rows/s)?, done"));
    FINAL_LINE.put("optimize", Pattern.compile("optimize main: 2/2 tables(, [0-9.,]+ rows/s)?, done"));
    FINAL_LINE.put("cleanup", Pattern.compile("cleanup: 5/5 tables(, [0-9.,]+ tables/s)?, done"));
    FINAL_LINE.put("export", Pattern.compile("exported 5 / 5 rows \\(100%\\), 0\\.0 MiB(, [0-9.,]+ rows/s)?, done"));
  }

  /** Anything a progress display draws: a carriage return, or a line of one of the six shapes. */
  private static final Pattern ANY_PROGRESS = Pattern.compile(
      "\r|(?m)^(read|exported) \\d+ .*(lines|rows)|^(merge .* into .*|index ensure .*|optimize .*|cleanup): .*tables");

  /** What differs between two graphs built alike: commit ids, and a byte or so of Lance metadata. */
  private static final Pattern PER_GRAPH = Pattern.compile("[0-9A-HJKMNP-TV-Z]{26}|\\(\\d+ bytes\\)");

  private Path graph(String name) throws Exception {
    Path root = dir.resolve(name);
    Omnigraph.init(StorageConfig.local(root), Files.readString(Path.of(
        ProgressCliTest.class.getClassLoader().getResource("graphs/people.pg").toURI())), Optional.of("setup")).close();
    return root;
  }

  private Path data(String name, String... lines) throws Exception {
    Path p = dir.resolve(name);
    if (!Files.exists(p)) {
      Files.write(p, Arrays.asList(lines));
    }
    return p;
  }

  /** The six commands (and the branch set-up between them) on {@code root}, each given {@code flag}. */
  private Map<String, Run> six(Path root, String... flag) throws Exception {
    String store = root.toString();
    Path base = data("base.ndjson", "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":40}}", "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}");
    Map<String, Run> runs = new LinkedHashMap<>();
    runs.put("load", CliHarness.run(with(flag, "load", "--data", base.toString(), "--store", store)));
    // A row on each side, so that the merge writes (one handle: the set-up is not under test).
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_WRITE)) {
      g.branchCreate("feature", "main", Optional.empty());
      g.load("feature", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"cid\",\"age\":50}}\n"),
          LoadMode.APPEND, Optional.empty());
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"dee\",\"age\":60}}\n"),
          LoadMode.APPEND, Optional.empty());
    }
    runs.put("merge", CliHarness.run(with(flag, "branch", "merge", "feature", "--store", store)));
    runs.put("index ensure", CliHarness.run(with(flag, "index", "ensure", "--store", store)));
    runs.put("optimize", CliHarness.run(with(flag, "optimize", "--store", store)));
    runs.put("cleanup", CliHarness.run(with(flag, "cleanup", "--store", store)));
    runs.put("export", CliHarness.run(with(flag, "export", "--store", store)));
    runs.values().forEach(ProgressCliTest::ok);
    return runs;
  }

  private static String[] with(String[] flag, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(Arrays.asList(flag));
    return all.toArray(String[]::new);
  }

  private static void ok(Run r) {
    assertThat(r.exit()).as(r.err()).isZero();
  }

  @Test
  void eachCommandDrawsOnlyWhenAskedAndNeverTouchesStdout() throws Exception {
    Map<String, Run> shown = six(graph("shown"), "--progress");
    Path quietRoot = graph("quiet");
    Map<String, Run> quiet = six(quietRoot, "--no-progress");

    for (String command : FINAL_LINE.keySet()) {
      Run s = shown.get(command);
      List<String> drawn = Arrays.asList(s.err().split("[\r\n]"));
      assertThat(drawn).as(command + " stderr: " + s.err())
          .anySatisfy(line -> assertThat(line.stripTrailing()).matches(FINAL_LINE.get(command)));
      assertThat(s.err()).as(command).endsWith("\n").satisfies(e -> assertThat(e.stripTrailing()).endsWith(", done"));
      assertThat(PER_GRAPH.matcher(s.out()).replaceAll("PER_GRAPH")).as(command)
          .isEqualTo(PER_GRAPH.matcher(quiet.get(command).out()).replaceAll("PER_GRAPH"));
      assertThat(quiet.get(command).err()).as(command).doesNotContainPattern(ANY_PROGRESS);
    }
    assertThat(shown.get("export").out().lines()).hasSize(5);

    // No flag: drawn only when stderr is a terminal. Every command decides through the same
    // ProgressOption, so a stream command and a step command stand for the six. Surefire's JVM has
    // no console; the launcher says what `[ -t 2 ]` found.
    String store = quietRoot.toString();
    Run load = CliHarness.run("load", "--data", dir.resolve("base.ndjson").toString(), "--mode", "merge",
        "--store", store);
    ok(load);
    assertThat(load.err()).doesNotContainPattern(ANY_PROGRESS);
    try {
      System.setProperty(Progress.STDERR_TTY, "false");
      Run optimize = CliHarness.run("optimize", "--store", store);
      ok(optimize);
      assertThat(optimize.err()).doesNotContainPattern(ANY_PROGRESS);
      System.setProperty(Progress.STDERR_TTY, "true");
      Run optimizeOnATerminal = CliHarness.run("optimize", "--store", store);
      ok(optimizeOnATerminal);
      assertThat(optimizeOnATerminal.err().stripTrailing()).matches("(?s)\r(.*\r)?optimize main: 0/0 tables(, [0-9.]+ tables/s)?, done"); // one draw when it is quick
    } finally {
      System.clearProperty(Progress.STDERR_TTY);
    }
  }
}
