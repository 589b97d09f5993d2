package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RevertOutput;
import dev.omnigraph.engine.Omnigraph;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph revert --to ID [--branch B] [--if-commit ID] [--json]} (docs/write-path.md,
 * "Revert"): one commit on the branch whose state equals commit {@code ID}'s; locally or on a
 * running server ({@code POST /graphs/{id}/branches/{branch}/revert}, ours). Exit 3 for a refusal
 * (a commit outside the history, a schema change since it) or a moved head (nothing written).
 */
@Command(name = "revert", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph revert --to 01J9Z... --branch main --store ./g",
    description = "Make one commit whose graph state equals an earlier commit of the branch.")
public class RevertCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--to", required = true, paramLabel = "ID", converter = CommitIdConverter.class,
      description = "The commit whose state to restore.")
  dev.omnigraph.api.CommitId to;

  @Option(names = "--branch", defaultValue = "main", description = "Graph branch (default main).")
  String branch;

  @Option(names = "--if-commit", paramLabel = "ID", converter = CommitIdConverter.class,
      description = "Run only if the branch head is this commit.")
  dev.omnigraph.api.CommitId ifCommit;

  @Option(names = "--json", description = "Print the RevertOutput JSON.")
  boolean json;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    RevertOutput out;
    var remote = graph.remote();
    if (remote.isPresent()) {
      if (positional != null) {
        throw new UsageError(graph.command.commandLine(), "give --server or a graph root, not both",
            "drop the graph root argument, or --server URL --graph ID");
      }
      out = remote.get().post("/branches/" + RemoteGraph.encode(branch).replace("%2F", "/") + "/revert",
          Map.of("to", to.value()), ifCommit == null ? Map.of() : Map.of("Omnigraph-If-Graph-Commit", ifCommit.value()),
          RevertOutput.class);
    } else {
      try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE)) {
        out = g.revert(dev.omnigraph.api.BranchName.existingOrMain(branch), to, graph.actor(),
            Optional.ofNullable(ifCommit));
      }
    }
    if (json) {
      Output.json(out);
      return ExitCodes.OK;
    }
    for (RevertOutput.Table t : out.tables()) {
      System.out.printf("%-20s v%d -> v%d (the content of v%d, %d rows)%n", t.tableKey(), t.fromVersion(),
          t.toVersion(), t.restoredVersion(), t.rowCount());
    }
    System.out.println(out.reverted() ? "published commit " + out.graphCommitId() + " on " + out.branch()
        + ": the state of " + out.to() : out.branch() + " already has the state of " + out.to() + "; nothing to do");
    return ExitCodes.OK;
  }
}
