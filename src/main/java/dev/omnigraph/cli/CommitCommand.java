package dev.omnigraph.cli;

import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitPage;
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

  @Command(name = "list", description = {
      "Commits reachable from a branch head, one page, newest first by (manifest version, created-at, id).",
      "When more follow, the last line on stderr is the command for the next page (--json: next_cursor)."})
  static class ListCommits implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--branch", defaultValue = "main") String branch;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + CommitPage.DEFAULT_LIMIT,
        description = "Commits per page, 1 to " + CommitPage.MAX_LIMIT + " (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--cursor", paramLabel = "C",
        description = "Start after the previous page: its next_cursor, as printed on its 'more:' line.")
    String cursor;

    @Option(names = "--json", description = "Print the reference CommitListOutput JSON (plus next_cursor).")
    boolean json;

    @Override
    public Integer call() {
      CommitPage page = CommitPage.parse(Integer.toString(limit), cursor); // a bad limit fails before any I/O
      var remote = graph.remote();
      if (remote.isPresent()) {
        StringBuilder path = new StringBuilder("/commits?branch=").append(RemoteGraph.encode(branch))
            .append("&limit=").append(page.limit());
        page.cursor().ifPresent(c -> path.append("&cursor=").append(RemoteGraph.encode(c)));
        print(remote.get().get(path.toString(), CommitListOutput.class));
        return ExitCodes.OK;
      }
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        print(g.commits(branch, page));
      }
      return ExitCodes.OK;
    }

    private void print(CommitListOutput out) {
      if (json) {
        Output.json(out);
        return;
      }
      out.commits().forEach(CommitCommand::print);
      if (out.nextCursor() != null) {
        // A hint, not data: stdout stays one commit per line.
        System.err.println("more: " + nextPageCommand(out.nextCursor()));
      }
    }

    /** The command that lists the next page, with this one's graph options. */
    String nextPageCommand(String next) {
      StringBuilder cmd = new StringBuilder("omnigraph commit list");
      if (graph.server != null) {
        cmd.append(" --server ").append(shellWord(graph.server)).append(" --graph ").append(shellWord(graph.graphId));
      } else if (graph.store != null) {
        cmd.append(" --store ").append(shellWord(graph.store));
      }
      cmd.append(" --branch ").append(shellWord(branch));
      if (limit != CommitPage.DEFAULT_LIMIT) {
        cmd.append(" --limit ").append(limit);
      }
      return cmd.append(" --cursor ").append(shellWord(next)).toString();
    }
  }

  /** {@code s} as one POSIX shell word: as is when plainly safe, else single-quoted. */
  static String shellWord(String s) {
    if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./:=@%+,".indexOf(c) >= 0)) {
      return s;
    }
    return "'" + s.replace("'", "'\\''") + "'";
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
    System.out.printf("%s  %s  %-12s v%-5d %s%s%n", c.graphCommitId(), at, c.branchName(),
        c.graphManifestVersion(), c.actorId() == null ? "-" : c.actorId(),
        c.parentCommitId() == null ? "  (genesis)" : "");
  }
}
