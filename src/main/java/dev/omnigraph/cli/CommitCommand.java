package dev.omnigraph.cli;

import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph commit list|show}: the graph commit lineage. */
@Command(name = "commit", description = "Inspect graph commits.",
    subcommands = {CommitCommand.ListCommits.class, CommitCommand.Show.class})
public class CommitCommand {

  @Command(name = "list", description = "Commits reachable from a branch head, most recent first.")
  static class ListCommits implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--branch", defaultValue = "main") String branch;

    @Option(names = "--json", description = "Print the reference CommitListOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      if (remote.isPresent()) {
        print(remote.get().get("/commits?branch=" + RemoteGraph.encode(branch), CommitListOutput.class));
        return ExitCodes.OK;
      }
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        print(g.commits(branch));
      }
      return ExitCodes.OK;
    }

    private void print(CommitListOutput out) {
      if (json) {
        Output.json(out);
      } else {
        out.commits().forEach(CommitCommand::print);
      }
    }
  }

  @Command(name = "show", description = "One commit.")
  static class Show implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Parameters(index = "0", paramLabel = "ID") String id;

    @Option(names = "--json", description = "Print the reference CommitOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      CommitOutput out;
      if (remote.isPresent()) {
        out = remote.get().get("/commits/" + RemoteGraph.encode(id), CommitOutput.class);
      } else {
        try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
          out = g.commit(id);
        }
      }
      if (json) {
        Output.json(out);
      } else {
        print(out);
      }
      return ExitCodes.OK;
    }
  }

  static void print(CommitOutput c) {
    Instant at = Instant.ofEpochSecond(c.createdAt() / 1_000_000, (c.createdAt() % 1_000_000) * 1000);
    System.out.printf("%s  %s  %-12s v%-5d %s%s%n", c.graphCommitId(), at, c.graphBranch(),
        c.graphManifestVersion(), c.actorId() == null ? "-" : c.actorId(),
        c.parentCommitId() == null ? "  (genesis)" : "");
  }
}
