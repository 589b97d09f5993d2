package dev.omnigraph.cli;

import dev.omnigraph.api.ChangeFeedOutput;
import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph changes poll}: one poll of a branch's change feed ({@code GET /changes}, or the
 * engine on a local graph). It prints one page and where to continue: a consumer stores the cursor only
 * from a terminal page, after applying its blocks (docs/http-api.md, "Change feed").
 */
@Command(name = "changes", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph changes poll --start beginning --store ./g", description = "The branch change feed.", subcommands = ChangesCommand.Poll.class)
public class ChangesCommand {

  /** {@code changes poll}. */
  @Command(name = "poll", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph changes poll --start beginning --limit 50 --store ./g", description = {
      "One poll of a branch's first-parent changes after --cursor, --start (now|beginning|after:ID) or --page-token.",
      "Text: one change a line; the last line on stderr is 'cursor: C' (terminal page) or 'more: … --page-token T'."})
  public static class Poll implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--branch", defaultValue = "main") String branch;

    @Option(names = "--cursor", paramLabel = "C", description = "A durable cursor from a terminal page or a baseline.")
    String cursor;

    @Option(names = "--start", paramLabel = "MODE", description = "now (default), beginning or after:<commit id>.")
    String start;

    @Option(names = "--page-token", paramLabel = "T", description = "Continue the previous page of this poll.")
    String pageToken;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + ChangesPage.DEFAULT_LIMIT,
        description = "Changes per page, 1 to " + ChangesPage.MAX_LIMIT + " (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--kind", paramLabel = "KIND", description = "node or edge (repeatable).") List<String> kinds;

    @Option(names = "--type", paramLabel = "TYPE", description = "A node or edge type name (repeatable).")
    List<String> types;

    @Option(names = "--op", paramLabel = "OP", description = "insert, update or delete (repeatable).") List<String> ops;

    @Option(names = "--json", description = "Print the reference ChangeFeedOutput JSON.") boolean json;

    @Override
    public Integer call() {
      ChangesPage filter = ChangesPage.parse(Integer.toString(limit), null, kinds, types, ops); // before any I/O
      var remote = graph.remote();
      ChangeFeedOutput out;
      if (remote.isPresent()) {
        out = remote.get().get(path(filter), ChangeFeedOutput.class);
      } else {
        try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
          out = g.changes(dev.omnigraph.api.BranchName.existing(branch), Optional.ofNullable(cursor),
              Optional.ofNullable(start), Optional.ofNullable(pageToken), filter, Optional.empty());
        }
      }
      if (json) {
        Output.json(out);
        return ExitCodes.OK;
      }
      for (ChangeFeedOutput.Block b : out.blocks()) {
        for (CommitChangesOutput.EntityChange c : b.changes()) {
          System.out.printf("%s %-6s %-4s %s %s%n", b.cause().graphCommitId(), c.op().wire(), c.kind(),
              c.type().name(), c.id());
        }
      }
      if (out.nextPageToken() != null) {
        System.err.println("more: " + graph.again() + " --branch " + branch + " --limit " + limit
            + " --page-token " + out.nextPageToken());
      } else {
        System.err.println("cursor: " + out.cursor() + (Boolean.TRUE.equals(out.caughtUp()) ? " (caught up)" : ""));
      }
      return ExitCodes.OK;
    }

    private String path(ChangesPage p) {
      List<String> q = new ArrayList<>();
      q.add("branch=" + RemoteGraph.encode(branch));
      q.add("limit=" + p.limit());
      if (cursor != null) {
        q.add("cursor=" + RemoteGraph.encode(cursor));
      }
      if (start != null) {
        q.add("start=" + RemoteGraph.encode(start));
      }
      if (pageToken != null) {
        q.add("page_token=" + RemoteGraph.encode(pageToken));
      }
      p.kinds().stream().sorted().forEach(k -> q.add("kind=" + RemoteGraph.encode(k)));
      p.types().stream().sorted().forEach(t -> q.add("type=" + RemoteGraph.encode(t)));
      p.ops().stream().sorted().forEach(o -> q.add("op=" + o.wire()));
      return "/changes?" + String.join("&", q);
    }
  }
}
