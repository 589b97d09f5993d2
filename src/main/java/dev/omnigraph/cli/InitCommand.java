package dev.omnigraph.cli;

import dev.omnigraph.engine.Omnigraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph init --schema F [--store] URI}: create a graph. */
@Command(name = "init", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph init --schema people.pg ./g", description = "Create a graph from a .pg schema.")
public class InitCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--schema", required = true, paramLabel = "FILE", description = "The .pg schema file.")
  Path schema;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--json", description = "Print the snapshot JSON of the new graph.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    String source = InputFiles.read(graph.command, "--schema", schema);
    try (Omnigraph g = Omnigraph.init(graph.config(positional), source, graph.actor())) {
      var snapshot = g.snapshot(dev.omnigraph.api.BranchName.MAIN, java.util.Optional.empty());
      if (json) {
        Output.json(snapshot);
      } else {
        System.out.println("initialised " + g.config().rootUri() + " with " + snapshot.datasets().size()
            + " datasets (schema " + g.schemaIdentity().substring(0, 12) + ")");
      }
    }
    return ExitCodes.OK;
  }
}
