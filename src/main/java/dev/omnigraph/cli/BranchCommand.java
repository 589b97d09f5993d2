package dev.omnigraph.cli;

import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.BranchListOutput;
import dev.omnigraph.api.BranchMergeOutput;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeConflicts;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph branch create|list|delete|merge}. */
@Command(name = "branch", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph branch create feature --store ./g", description = "Create, list, delete and merge graph branches.",
    subcommands = {BranchCommand.Create.class, BranchCommand.ListBranches.class, BranchCommand.Delete.class,
        BranchCommand.Merge.class})
public class BranchCommand {

  @Command(name = "create", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph branch create feature --from main --store ./g", description = "Create a branch (data is shared until first write).")
  static class Create implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Parameters(index = "0", paramLabel = "NAME") String name;

    @Option(names = "--from", defaultValue = "main", description = "Parent branch (default main).")
    String from;

    @Option(names = "--json", description = "Print the reference BranchCreateOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      if (remote.isPresent()) {
        print(remote.get().post("/branches", java.util.Map.of("name", name, "from", from), java.util.Map.of(),
            BranchCreateOutput.class));
        return ExitCodes.OK;
      }
      try (Omnigraph g = graph.open(OpenMode.READ_WRITE)) {
        print(g.branchCreate(name, dev.omnigraph.api.BranchName.existingOrMain(from), graph.actor()));
      }
      return ExitCodes.OK;
    }

    private void print(BranchCreateOutput out) {
      if (json) {
        Output.json(out);
      } else {
        System.out.println("created branch " + out.name() + " from " + out.from());
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph branch list --server http://127.0.0.1:8080 --graph default", description = "List branches (main first).")
  static class ListBranches implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--json", description = "Print the reference BranchListOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      if (remote.isPresent()) {
        print(remote.get().get("/branches", BranchListOutput.class));
        return ExitCodes.OK;
      }
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        print(g.branchList(graph.actor()));
      }
      return ExitCodes.OK;
    }

    private void print(BranchListOutput out) {
      if (json) {
        Output.json(out);
      } else {
        out.branches().forEach(System.out::println);
      }
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph branch delete feature --store ./g", description = "Delete a branch.")
  static class Delete implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Parameters(index = "0", paramLabel = "NAME") String name;

    @Option(names = "--json", description = "Print the reference BranchDeleteOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      if (remote.isPresent()) {
        print(remote.get().delete("/branches/" + RemoteGraph.encode(name).replace("%2F", "/"),
            BranchDeleteOutput.class));
        return ExitCodes.OK;
      }
      try (Omnigraph g = graph.open(OpenMode.READ_WRITE)) {
        print(g.branchDelete(dev.omnigraph.api.BranchName.existing(name), graph.actor()));
      }
      return ExitCodes.OK;
    }

    private void print(BranchDeleteOutput out) {
      if (json) {
        Output.json(out);
      } else {
        System.out.println("deleted branch " + out.name());
      }
    }
  }

  @Command(name = "merge", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph branch merge feature --into main --delete-branch --store ./g", description = "Merge SOURCE into a branch (default main): three-way, entity by entity,"
      + " one atomic commit. Exit 3 on conflicts, each listed.")
  static class Merge implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Parameters(index = "0", paramLabel = "SOURCE") String source;

    @Option(names = "--into", defaultValue = "main", description = "Target branch (default main).")
    String into;

    @Option(names = "--delete-branch", description = "Delete SOURCE after a successful merge (a failed deletion"
        + " is a warning; the merge stands).")
    boolean deleteBranch;

    @Option(names = "--json", description = "Print the reference BranchMergeOutput JSON (on conflicts, the"
        + " ErrorOutput with merge_conflicts[]).")
    boolean json;

    @Mixin ProgressOption progress;

    @Override
    public Integer call() {
      BranchMergeOutput out;
      try {
        var remote = graph.remote();
        if (remote.isPresent()) {
          java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
          body.put("source", source);
          body.put("target", into);
          body.put("delete_branch", deleteBranch);
          out = remote.get().post("/branches/merge", body, java.util.Map.of(), BranchMergeOutput.class);
        } else {
          try (Omnigraph g = graph.open(OpenMode.READ_WRITE)) {
            out = progress.steps("merge " + source + " into " + into,
                listener -> g.branchMerge(dev.omnigraph.api.BranchName.existing(source),
                    dev.omnigraph.api.BranchName.existingOrMain(into), deleteBranch, graph.actor(), listener));
          }
        }
      } catch (MergeConflicts conflicts) {
        if (json) {
          java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
          body.put("error", conflicts.getMessage());
          body.put("code", "conflict");
          body.put("merge_conflicts", conflicts.conflicts());
          Output.json(body);
        }
        System.err.println("error: merge of " + source + " into " + into + " has " + conflicts.conflicts().size()
            + " conflict(s); nothing was written:");
        for (MergeConflict c : conflicts.conflicts()) {
          System.err.println("  " + c.kind().wire() + " " + c.entityKind() + ":" + c.typeName()
              + (c.entityId() == null ? "" : " " + c.entityId()) + ": " + c.message());
        }
        return ExitCodes.CONFLICT;
      }
      if (json) {
        Output.json(out);
      } else {
        System.out.println(switch (out.outcome()) {
          case ALREADY_UP_TO_DATE -> into + " is already up to date with " + source;
          case FAST_FORWARD -> "fast-forwarded " + into + " to " + source + " (commit " + out.commitId() + ")";
          case MERGED -> "merged " + source + " into " + into + " (commit " + out.commitId() + ")";
        });
      }
      if (Boolean.FALSE.equals(out.branchDeleted())) {
        System.err.println("warning: the merge landed but branch " + source + " was not deleted: "
            + out.branchDeleteError());
      } else if (Boolean.TRUE.equals(out.branchDeleted()) && !json) {
        System.out.println("deleted branch " + source);
      }
      return ExitCodes.OK;
    }
  }
}
