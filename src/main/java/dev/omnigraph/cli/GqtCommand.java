package dev.omnigraph.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.omnigraph.engine.gqt.GqtRunner;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph gqt [--store DIR|s3://bucket/prefix] [--json] FILE|DIR...}: runs {@code .gqt}
 * logic-test cases (docs/testing.md, "Logic tests"), each on a graph of its own under the store
 * (a temporary directory, removed afterwards, when none is named). Prints a line per case (ok,
 * FAIL with the step's file:line and the diff, or UNSUPPORTED naming the section) and a summary;
 * exits 1 when a case failed, 0 otherwise (an unsupported case fails nothing but is counted).
 */
@Command(name = "gqt", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph gqt src/test/resources/gqt/ --store s3://bucket/gqt-runs",
    description = "Run .gqt logic-test cases (schema, seed, steps and their expected answers), each on a fresh"
        + " graph.")
public class GqtCommand implements Callable<Integer> {

  @Mixin StoreOptions store;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Case files, or directories whose *.gqt"
      + " files run in name order.")
  List<Path> inputs;

  @Option(names = "--json", description = "Print the results as JSON (cases, then the counts).")
  boolean json;

  /** {@code --json}: every case's verdict, then the counts. */
  record Report(@JsonProperty("cases") List<CaseOutput> cases, @JsonProperty("passed") int passed,
      @JsonProperty("failed") int failed, @JsonProperty("unsupported") int unsupported) {}

  record CaseOutput(@JsonProperty("file") String file, @JsonProperty("status") String status,
      @JsonProperty("millis") long millis, @JsonProperty("message") String message) {}

  @Override
  public Integer call() throws Exception {
    List<Path> files = cases();
    Path temp = null;
    String base;
    if (store.store == null) {
      temp = Files.createTempDirectory("omnigraph-gqt");
      base = temp.toString();
    } else {
      // Never a root an earlier run used: every graph of this run sits under its own prefix.
      base = store.store.replaceAll("/+$", "") + "/gqt-" + System.currentTimeMillis();
    }
    List<GqtRunner.Result> results = new ArrayList<>();
    try (GqtRunner runner = new GqtRunner(label -> root(base + "/" + label),
        store.actor().orElse(GqtRunner.DEFAULT_ACTOR))) {
      for (Path f : files) {
        GqtRunner.Result r = runner.run(f.toString(), Files.readString(f));
        results.add(r);
        if (!json) {
          System.out.println(line(r));
        }
      }
    } finally {
      if (temp != null) {
        delete(temp);
      }
    }
    Map<GqtRunner.Status, Integer> counts = GqtRunner.counts(results);
    int passed = counts.get(GqtRunner.Status.PASSED);
    int failed = counts.get(GqtRunner.Status.FAILED);
    int unsupported = counts.get(GqtRunner.Status.UNSUPPORTED);
    if (json) {
      Output.json(new Report(results.stream().map(r -> new CaseOutput(r.file(), r.status().name().toLowerCase(
          java.util.Locale.ROOT), r.millis(), r.message())).toList(), passed, failed, unsupported));
    } else {
      System.out.println(passed + " passed, " + failed + " failed, " + unsupported + " unsupported");
    }
    return failed > 0 ? ExitCodes.ERROR : ExitCodes.OK;
  }

  private StorageConfig root(String uri) {
    return store.configAt(uri);
  }

  private static String line(GqtRunner.Result r) {
    return switch (r.status()) {
      case PASSED -> "ok          " + r.file() + " (" + r.millis() + " ms)";
      case FAILED -> "FAIL        " + r.file() + " (" + r.millis() + " ms)\n" + indent(r.message());
      case UNSUPPORTED -> "UNSUPPORTED " + r.file() + ": " + r.message();
    };
  }

  private static String indent(String message) {
    return String.join("\n", message.lines().map(l -> "  " + l).toList());
  }

  /** The case files named, directories expanded to their *.gqt files (top level, by name). */
  private List<Path> cases() throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path in : inputs) {
      if (Files.isDirectory(in)) {
        try (Stream<Path> list = Files.list(in)) {
          List<Path> found = list.filter(p -> p.getFileName().toString().endsWith(".gqt") && Files.isRegularFile(p))
              .sorted().toList();
          if (found.isEmpty()) {
            throw new UsageError(store.command.commandLine(), "no .gqt file in " + in,
                "name case files or a directory holding *.gqt files");
          }
          out.addAll(found);
        }
      } else {
        InputFiles.require(store.command, "FILE", in);
        out.add(in);
      }
    }
    return out;
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
