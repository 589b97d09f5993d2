package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omnigraph.cli.CliHarness.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 45 item 2, "help everywhere": every command and subcommand answers {@code -h}/
 * {@code --help} with its usage, options and an example, exits 0 and does nothing else.
 */
class CliHelpTest {

  @TempDir Path dir;

  /** Every command path of the tree, the root ({@code []}) first. */
  private static List<List<String>> commandPaths() {
    List<List<String>> paths = new ArrayList<>();
    collect(RootCommand.commandLine(null), new ArrayList<>(), paths);
    return paths;
  }

  private static void collect(CommandLine cmd, List<String> path, List<List<String>> out) {
    out.add(List.copyOf(path));
    cmd.getSubcommands().forEach((name, sub) -> {
      List<String> next = new ArrayList<>(path);
      next.add(name);
      collect(sub, next, out);
    });
  }

  private static List<String> listing(Path d) throws Exception {
    try (Stream<Path> walk = Files.walk(d)) {
      return walk.map(p -> d.relativize(p).toString()).sorted().toList();
    }
  }

  private static Run help(List<String> path, String... more) {
    List<String> args = new ArrayList<>(path);
    args.addAll(List.of(more));
    // serve --help must answer at once: were it to start serving, run() would block in waitForExit.
    return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> CliHarness.run(args.toArray(String[]::new)),
        () -> "omnigraph " + String.join(" ", args) + " returned");
  }

  @Test
  void everyCommandPrintsItsUsageAndAnExampleAndDoesNothingElse() throws Exception {
    List<List<String>> paths = commandPaths();
    assertThat(paths).hasSizeGreaterThan(30).contains(List.of("serve"), List.of("schema", "plan"),
        List.of("lease", "break"), List.of("changes", "poll"));
    Path cwd = Path.of("").toAbsolutePath();
    List<String> cwdBefore = Files.list(cwd).map(Path::toString).sorted().toList();
    Path store = dir.resolve("g");
    for (List<String> path : paths) {
      String name = String.join(" ", Stream.concat(Stream.of("omnigraph"), path.stream()).toList());
      for (String flag : List.of("--help", "-h")) {
        Run run = help(path, flag);
        assertThat(run.exit()).as("%s %s: %s", name, flag, run.err()).isZero();
        assertThat(run.err()).as("%s %s", name, flag).isEmpty();
        assertThat(run.out()).as("%s %s", name, flag)
            .startsWith("Usage: " + name)
            .contains("-h, --help")
            .contains("\nExample:\n  " + name);
      }
      // With a graph root named too: help still opens, creates and locks nothing.
      Run withStore = help(path, "--store", store.toString(), "--port", "1", "--help");
      if (withStore.exit() == 0) {
        assertThat(withStore.out()).startsWith("Usage: " + name);
      }
      assertThat(store).as(name).doesNotExist();
    }
    assertThat(listing(dir)).containsExactly("");
    assertThat(Files.list(cwd).map(Path::toString).sorted().toList()).isEqualTo(cwdBefore);
    assertThat(cwd.resolve("omnigraph-data")).doesNotExist();
  }

  @Test
  void serveHelpStartsNothingBeforeBoot() {
    for (String[] args : List.of(new String[] {"serve", "--help"}, new String[] {"serve", "-h"},
        new String[] {"serve", "--port", "0", "--store", "x", "--help"}, new String[] {"serve", "-V"},
        new String[] {"serve", "--bogus"}, new String[] {"serve", "--port", "eighty"})) {
      java.util.Map<String, String> props = new java.util.HashMap<>();
      BootSettings.apply(args, props::put);
      assertThat(props).as(String.join(" ", args))
          .containsEntry("quarkus.http.host-enabled", "false")
          .doesNotContainKeys("quarkus.http.port", "omnigraph.storage.uri");
    }
  }

  /**
   * The help texts stored at build time (HelpTexts, printed by the launcher without building the
   * command model) are the live rendering of every command: a changed option cannot leave a stale
   * text behind. And the stored path answers exactly a command path followed by -h/--help.
   */
  @Test
  void everyStoredHelpTextEqualsTheLiveRendering() {
    List<List<String>> paths = new ArrayList<>();
    HelpTexts.walk(RootCommand.commandLine(null), new ArrayList<>(), (path, cmd) -> {
      paths.add(path);
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      assertThat(HelpTexts.stored(args.toArray(String[]::new))).as(String.join(" ", args))
          .contains(HelpTexts.render(cmd));
      assertThat(HelpTexts.render(cmd)).isEqualTo(help(path, "--help").out());
      args.set(args.size() - 1, "-h");
      assertThat(HelpTexts.stored(args.toArray(String[]::new))).as(String.join(" ", args)).isPresent();
    });
    assertThat(paths).hasSizeGreaterThan(30);
    assertThat(HelpTexts.stored("load", "--data", "x.ndjson", "--help")).isEmpty();
    assertThat(HelpTexts.stored("query", "everyone", "--help")).isEmpty();
    assertThat(HelpTexts.stored("load")).isEmpty();
    assertThat(HelpTexts.stored()).isEmpty();
  }

  @Test
  void onlyCommandsWithARemoteFormListServer() {
    for (List<String> path : commandPaths()) {
      CommandLine cmd = RootCommand.commandLine(null);
      for (String p : path) {
        cmd = cmd.getSubcommands().get(p);
      }
      boolean lists = cmd.getCommandSpec().optionsMap().containsKey("--server");
      String out = help(path, "--help").out();
      assertThat(out.contains("--server=URL")).as(String.join(" ", path)).isEqualTo(lists);
    }
    for (List<String> local : List.of(List.of("init"), List.of("schema", "plan"), List.of("cleanup"),
        List.of("optimize"), List.of("recover"), List.of("repair"), List.of("relocate"), List.of("lease", "show"),
        List.of("lease", "break"))) {
      assertThat(help(local, "--help").out()).as(String.join(" ", local)).doesNotContain("--server").doesNotContain("--graph");
    }
    for (List<String> remote : List.of(List.of("query"), List.of("mutate"), List.of("load"), List.of("schema", "apply"),
        List.of("schema", "show"), List.of("snapshot"), List.of("branch", "merge"), List.of("commit", "list"))) {
      assertThat(help(remote, "--help").out()).as(String.join(" ", remote)).contains("--server=URL").contains("--graph=ID");
    }
  }

  @Test
  void initAndSchemaPlanRefuseServerAsAUsageErrorThatSaysWhatToDo() throws Exception {
    Path schema = Files.writeString(dir.resolve("people.pg"), "node Person { name: String @key }\n");
    Run init = CliHarness.run("init", "--schema", schema.toString(), "--server", "http://127.0.0.1:1",
        dir.resolve("g").toString());
    assertThat(init.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(init.err().lines().toList()).hasSize(2);
    assertThat(init.err()).startsWith("error: omnigraph init: Unknown options: '--server'")
        .endsWith("\nomnigraph init has no --server form: name the graph root with --store URI\n");
    assertThat(dir.resolve("g")).doesNotExist();

    Run plan = CliHarness.run("schema", "plan", "--schema", schema.toString(), "--server", "http://127.0.0.1:1");
    assertThat(plan.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(plan.err().lines().toList()).hasSize(2);
    assertThat(plan.err()).startsWith("error: omnigraph schema plan: Unknown options: '--server'")
        .contains("schema plan has no --server form").contains("POST /schema/apply");
  }

  @Test
  void usageErrorsNameTheCommandGiveOneFixLineAndExit2() {
    record Case(String[] args, String first, String fix) {}
    String store = dir.resolve("g").toString();
    List<Case> cases = List.of(
        new Case(new String[] {"init"}, "error: omnigraph init: Missing required option: '--schema=FILE'",
            "see omnigraph init --help for its options and an example"),
        new Case(new String[] {"branch"}, "error: omnigraph branch: Missing required subcommand",
            "name one of its commands: create, list, delete, merge (omnigraph branch --help)"),
        new Case(new String[] {"query", "q", "--qeury", "x.gq", "--store", store},
            "error: omnigraph query: Unknown options: '--qeury', 'x.gq'",
            "did you mean: --query? (omnigraph query --help lists them)"),
        new Case(new String[] {"snapshot", "--store", store, "--server", "http://127.0.0.1:1"},
            "error: omnigraph snapshot: give --store or --server, not both",
            "keep one: --store URI for a graph root, --server URL --graph ID for a running server"),
        new Case(new String[] {"branch", "list"}, "error: omnigraph branch list: missing --store URI",
            "name the graph root: omnigraph branch list --store DIR (or s3://bucket/prefix)"),
        new Case(new String[] {"commit", "list", "--limit", "ten", "--store", store},
            "error: omnigraph commit list: Invalid value for option '--limit': 'ten' is not an int",
            "see omnigraph commit list --help for its options and an example"));
    for (Case c : cases) {
      Run run = CliHarness.run(c.args());
      assertThat(run.exit()).as(String.join(" ", c.args())).isEqualTo(ExitCodes.USAGE);
      assertThat(run.err().lines().toList()).as(String.join(" ", c.args())).containsExactly(c.first(), c.fix());
      assertThat(run.err()).doesNotContain("<main class>");
    }
    assertThat(dir.resolve("g")).doesNotExist();
  }

  @Test
  void aMissingFileSaysFileNotFoundForEveryFileOption() throws Exception {
    String store = dir.resolve("g").toString();
    String cwd = Path.of("").toAbsolutePath().toString();
    record Case(String option, String file, String[] args) {}
    List<Case> cases = List.of(
        new Case("--schema", "people.pg", new String[] {"init", "--schema", "people.pg", store}),
        new Case("--schema", "new.pg", new String[] {"schema", "plan", "--schema", "new.pg", "--store", store}),
        new Case("--schema", "new.pg", new String[] {"schema", "apply", "--schema", "new.pg", "--store", store}),
        new Case("--data", "people.ndjson", new String[] {"load", "--data", "people.ndjson", "--store", store}),
        new Case("--query", "nope.gq", new String[] {"query", "q", "--query", "nope.gq", "--store", store}),
        new Case("--query", "nope.gq", new String[] {"mutate", "m", "--query", "nope.gq", "--store", store}),
        new Case("--query", "nope.gq", new String[] {"queries", "list", "--query", "nope.gq"}),
        // Remote forms read the file locally too, before any request.
        new Case("--query", "nope.gq", new String[] {"query", "q", "--query", "nope.gq", "--server", "http://127.0.0.1:1"}));
    for (Case c : cases) {
      Run run = CliHarness.run(c.args());
      String name = "omnigraph " + String.join(" ", List.of(c.args()).subList(0, c.args()[0].equals("schema")
          || c.args()[0].equals("queries") ? 2 : 1));
      assertThat(run.exit()).as(String.join(" ", c.args())).isEqualTo(ExitCodes.USAGE);
      assertThat(run.err().lines().toList()).as(String.join(" ", c.args())).containsExactly(
          "error: " + name + ": file not found: " + c.file(),
          c.option() + " takes a file; a relative path starts at " + cwd);
    }
    assertThat(dir.resolve("g")).doesNotExist();
  }
}
