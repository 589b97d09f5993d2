package dev.omnigraph.cli;

import dev.omnigraph.api.EnsureIndicesOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph index ensure [--branch B] [--json]} (docs/indexes-and-search.md, "Building
 * indexes: index ensure"): builds every index the schema declares that the branch's tables lack, as
 * one graph commit; locally ({@code --store URI} or a positional URI) or on a running server
 * ({@code --server URL --graph ID}, {@code POST /graphs/{id}/indexes/ensure}). Exit 3 while a
 * recovery sidecar on the branch needs a rollback, or for drift (nothing written).
 */
@Command(name = "index", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph index ensure --store ./g", description = "Build the indexes the schema declares.",
    subcommands = {IndexCommand.Ensure.class})
public class IndexCommand {

  @Command(name = "ensure", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph index ensure --branch main --json --store ./g", description = "Build every declared index the branch's tables lack (BTree, full-text,"
      + " vector) as one graph commit; a second run builds nothing.")
  static class Ensure implements Callable<Integer> {

    @Mixin GraphOptions graph;

    @Option(names = "--branch", description = "Graph branch (default main).")
    String branch;

    @Option(names = "--json", description = "Print the EnsureIndicesOutput JSON.")
    boolean json;

    @Mixin ProgressOption progress;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() {
      EnsureIndicesOutput out;
      var remote = graph.remote();
      if (remote.isPresent()) {
        if (positional != null) {
          throw new UsageError(graph.command.commandLine(), "give --server or a graph root, not both",
              "drop the graph root argument, or --server URL --graph ID");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        if (branch != null) {
          body.put("branch", branch);
        }
        out = remote.get().post("/indexes/ensure", body, Map.of(), EnsureIndicesOutput.class);
      } else {
        try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE)) {
          out = progress.steps("index ensure " + (branch == null || branch.isBlank() ? "main" : branch),
              listener -> g.ensureIndices(dev.omnigraph.api.BranchName.existingOrMain(branch), graph.actor(),
                  listener));
        }
      }
      if (json) {
        Output.json(out);
        return ExitCodes.OK;
      }
      for (EnsureIndicesOutput.Table t : out.tables()) {
        System.out.printf("%-20s %-8s v%d -> v%d%s: %s%n", t.tableKey(),
            t.nativeBranch() == null ? "main" : t.nativeBranch(), t.fromVersion(), t.toVersion(),
            t.firstTouch() ? " (forked)" : "",
            t.indexes().stream().map(i -> i.property() + " " + i.kind()).collect(Collectors.joining(", ")));
      }
      for (EnsureIndicesOutput.Pending p : out.pending()) {
        System.out.printf("pending: %s.%s: %s%n", p.typeKey(), p.property(), p.reason());
      }
      System.out.println(out.changed() ? "published commit " + out.graphCommitId() + " on " + out.branch()
          : "every declared index exists on " + out.branch() + "; nothing to build");
      return ExitCodes.OK;
    }
  }
}
