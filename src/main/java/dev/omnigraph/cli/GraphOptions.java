package dev.omnigraph.cli;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a command with a remote form names its graph: {@code --store URI} as in {@link StoreOptions},
 * or {@code --server URL [--graph ID]} with the bearer token in {@code $OMNIGRAPH_TOKEN}.
 */
public class GraphOptions extends StoreOptions {

  @Option(names = "--server", paramLabel = "URL",
      description = "A running omnigraph server (token from $OMNIGRAPH_TOKEN) instead of --store.")
  String server;

  @Option(names = "--graph", paramLabel = "ID", defaultValue = "default",
      description = "The graph id on --server (default: default).")
  String graphId;

  /** The remote graph when {@code --server} is given. */
  Optional<RemoteGraph> remote() {
    if (server == null) {
      return Optional.empty();
    }
    if (store != null) {
      throw new UsageError(command.commandLine(), "give --store or --server, not both",
          "keep one: --store URI for a graph root, --server URL --graph ID for a running server");
    }
    return Optional.of(new RemoteGraph(server, graphId,
        Optional.ofNullable(env.apply("OMNIGRAPH_TOKEN")).filter(t -> !t.isBlank())));
  }

  @Override
  StorageConfig config(String positional) {
    if (server != null) {
      // A command whose remote form does not cover what was asked (it calls config() with --server given).
      throw new UsageError(command.commandLine(), "this form of " + command.qualifiedName() + " has no --server form",
          "name the graph root with --store URI");
    }
    return super.config(positional);
  }

  @Override
  String again() {
    if (server == null) {
      return super.again();
    }
    return command.qualifiedName() + " --server " + shellWord(server) + " --graph " + shellWord(graphId);
  }
}
