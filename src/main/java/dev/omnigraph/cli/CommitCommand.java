package dev.omnigraph.cli;

import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph commit list|show|changes}: the graph commit lineage and what each commit changed. */
@Command(name = "commit", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph commit list --limit 20 --store ./g", description = "Inspect graph commits.",
    subcommands = {CommitCommand.ListCommits.class, CommitCommand.Show.class, CommitCommand.Changes.class})
public class CommitCommand {

  @Command(name = "list", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph commit list --limit 20 --json --store ./g", description = {
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
        print(g.commits(dev.omnigraph.api.BranchName.existing(branch), page, graph.actor()));
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
      StringBuilder cmd = new StringBuilder(graph.again());
      cmd.append(" --branch ").append(shellWord(branch));
      if (limit != CommitPage.DEFAULT_LIMIT) {
        cmd.append(" --limit ").append(limit);
      }
      return cmd.append(" --cursor ").append(shellWord(next)).toString();
    }
  }

  static String shellWord(String s) {
    return StoreOptions.shellWord(s);
  }

  @Command(name = "show", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph commit show 01JD8ZQ3V4N1W6X2Y7K5M9P0RS --store ./g", description = "One commit.")
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
          out = g.commit(dev.omnigraph.api.CommitId.existing(id), graph.actor());
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

  @Command(name = "changes", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph commit changes 01JD8ZQ3V4N1W6X2Y7K5M9P0RS --kind node --store ./g", description = {
      "Entity changes one commit made relative to its first parent: inserted, updated and deleted nodes and edges,",
      "nodes before edges, then by type, then by id. Pages are fetched until the last; --page-token prints one page."})
  static class Changes implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Parameters(index = "0", paramLabel = "COMMIT_ID") String id;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "" + ChangesPage.DEFAULT_LIMIT,
        description = "Changes per page, 1 to " + ChangesPage.MAX_LIMIT + " (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--page-token", paramLabel = "T", description = "Print exactly this one page (its next_page_token).")
    String pageToken;

    @Option(names = "--kind", paramLabel = "KIND", description = "node or edge (repeatable).") List<String> kinds;

    @Option(names = "--type", paramLabel = "TYPE", description = "A node or edge type name (repeatable).")
    List<String> types;

    @Option(names = "--op", paramLabel = "OP", description = "insert, update or delete (repeatable).") List<String> ops;

    @Option(names = "--json", description = {"Print the reference CommitChangesOutput JSON: one page with",
        "--page-token, else every page's changes in one array (streamed, never held whole)."})
    boolean json;

    @Override
    public Integer call() throws java.io.IOException {
      ChangesPage page = ChangesPage.parse(Integer.toString(limit), pageToken, kinds, types, ops); // before any I/O
      var remote = graph.remote();
      if (remote.isPresent()) {
        return run(page, p -> remote.get().get(path(p), CommitChangesOutput.class));
      }
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        return run(page, p -> g.commitChanges(dev.omnigraph.api.CommitId.existing(id), p, graph.actor()));
      }
    }

    private static void appendEach(StringBuilder cmd, String option, List<String> values) {
      if (values != null) {
        values.forEach(v -> cmd.append(' ').append(option).append(' ').append(shellWord(v)));
      }
    }

    /** The command that prints the next page, as {@code commit list} prints its own: runnable as it stands. */
    String nextPageCommand(String token) {
      StringBuilder cmd = new StringBuilder(graph.again()).append(' ').append(shellWord(id));
      if (limit != ChangesPage.DEFAULT_LIMIT) {
        cmd.append(" --limit ").append(limit);
      }
      // The filters again: a page token continues one filtered listing.
      appendEach(cmd, "--kind", kinds);
      appendEach(cmd, "--type", types);
      appendEach(cmd, "--op", ops);
      return cmd.append(" --page-token ").append(shellWord(token)).toString();
    }

    private String path(ChangesPage p) {
      StringBuilder path = new StringBuilder("/commits/").append(RemoteGraph.encode(id)).append("/changes?limit=")
          .append(p.limit());
      p.pageToken().ifPresent(t -> path.append("&page_token=").append(RemoteGraph.encode(t)));
      p.kinds().stream().sorted().forEach(k -> path.append("&kind=").append(RemoteGraph.encode(k)));
      p.types().stream().sorted().forEach(t -> path.append("&type=").append(RemoteGraph.encode(t)));
      p.ops().stream().sorted().forEach(o -> path.append("&op=").append(o.wire()));
      return path.toString();
    }

    private int run(ChangesPage first, java.util.function.Function<ChangesPage, CommitChangesOutput> fetch)
        throws java.io.IOException {
      CommitChangesOutput out = fetch.apply(first);
      if (pageToken != null) {
        if (json) {
          Output.json(out);
        } else {
          out.changes().forEach(CommitCommand::print);
          if (out.nextPageToken() != null) {
            System.err.println("more: " + nextPageCommand(out.nextPageToken()));
          }
        }
        return ExitCodes.OK;
      }
      // Every page, each printed before the next is fetched: memory is one page, not the commit.
      com.fasterxml.jackson.core.JsonGenerator gen = null;
      if (json) {
        gen = new com.fasterxml.jackson.databind.ObjectMapper().createGenerator(System.out)
            .disable(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET).useDefaultPrettyPrinter();
        gen.writeStartObject();
        gen.writeObjectField("cause", out.cause());
        gen.writeArrayFieldStart("changes");
      }
      while (true) {
        for (CommitChangesOutput.EntityChange c : out.changes()) {
          if (gen != null) {
            gen.writeObject(c);
          } else {
            print(c);
          }
        }
        if (gen != null) {
          gen.flush();
        }
        if (out.nextPageToken() == null) {
          break;
        }
        out = fetch.apply(first.next(out.nextPageToken()));
      }
      if (gen != null) {
        gen.writeEndArray();
        gen.writeEndObject();
        gen.close();
        System.out.println();
      }
      return ExitCodes.OK;
    }
  }

  /** {@code op kind:Type id}, then the images as compact JSON. */
  static void print(CommitChangesOutput.EntityChange c) {
    StringBuilder line = new StringBuilder().append(String.format("%-6s %s:%s %s", c.op().wire(), c.kind(),
        c.type().name(), c.id()));
    if (c.before() != null) {
      line.append("  before=").append(image(c.before()));
    }
    if (c.after() != null) {
      line.append("  after=").append(image(c.after()));
    }
    System.out.println(line);
  }

  private static String image(CommitChangesOutput.Image i) {
    return (i.endpoints() == null ? "" : i.endpoints().from() + "->" + i.endpoints().to() + " ") + i.properties();
  }

  static void print(CommitOutput c) {
    Instant at = Instant.ofEpochSecond(c.createdAt() / 1_000_000, (c.createdAt() % 1_000_000) * 1000);
    System.out.printf("%s  %s  %-12s v%-5d %s%s%n", c.graphCommitId(), at, c.branchName(),
        c.graphManifestVersion(), c.actorId() == null ? "-" : c.actorId(),
        c.parentCommitId() == null ? "  (genesis)" : "");
  }
}
