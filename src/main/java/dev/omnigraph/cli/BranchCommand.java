package dev.omnigraph.cli;

import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.BranchListOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph branch create|list|delete}. */
@Command(name = "branch", description = "Create, list and delete graph branches.",
    subcommands = {BranchCommand.Create.class, BranchCommand.ListBranches.class, BranchCommand.Delete.class})
public class BranchCommand {

  @Command(name = "create", description = "Create a branch (data is shared until first write).")
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
        print(g.branchCreate(name, from, graph.actor()));
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

  @Command(name = "list", description = "List branches (main first).")
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
        print(g.branchList());
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

  @Command(name = "delete", description = "Delete a branch.")
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
        print(g.branchDelete(name, graph.actor()));
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
}
