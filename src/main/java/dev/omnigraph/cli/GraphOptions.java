package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.storage.StorageConfig;
import picocli.CommandLine.Option;

/**
 * How a command names its graph: {@code --store URI} (a local path or {@code s3://bucket/prefix}),
 * or, for the commands with a remote form, {@code --server URL [--graph ID]} with the bearer token
 * in {@code $OMNIGRAPH_TOKEN}.
 */
public class GraphOptions {

  /** The environment, replaceable by tests (a JVM cannot change its own). */
  static java.util.function.Function<String, String> env = System::getenv;

  @Option(names = "--server", paramLabel = "URL",
      description = "A running omnigraph server (token from $OMNIGRAPH_TOKEN) instead of --store.")
  String server;

  @Option(names = "--graph", paramLabel = "ID", defaultValue = "default",
      description = "The graph id on --server (default: default).")
  String graphId;

  @Option(names = "--store", paramLabel = "URI", description = "Graph root: a directory or s3://bucket/prefix.")
  String store;

  @Option(names = "--actor", paramLabel = "ID", description = "Actor id recorded in the commit lineage.")
  String actor;

  /** The remote graph when {@code --server} is given. */
  java.util.Optional<RemoteGraph> remote() {
    if (server == null) {
      return java.util.Optional.empty();
    }
    if (store != null) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
          "give --store or --server, not both");
    }
    return java.util.Optional.of(new RemoteGraph(server, graphId,
        java.util.Optional.ofNullable(env.apply("OMNIGRAPH_TOKEN")).filter(t -> !t.isBlank())));
  }

  StorageConfig config(String positional) {
    if (server != null) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
          "this command has no --server form; name the graph with --store");
    }
    String uri = store != null ? store : positional;
    if (uri == null || uri.isBlank()) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing --store URI");
    }
    return StorageConfig.fromEnvironment(uri, new java.util.AbstractMap<String, String>() {
      // A view of {@link #env}: StorageConfig only looks names up, so tests can point it at a store.
      @Override
      public String get(Object name) {
        return name instanceof String n ? env.apply(n) : null;
      }

      @Override
      public java.util.Set<Entry<String, String>> entrySet() {
        return java.util.Set.of();
      }
    });
  }

  Omnigraph open(OpenMode mode) {
    return Omnigraph.open(config(null), mode);
  }

  java.util.Optional<String> actor() {
    return java.util.Optional.ofNullable(actor).or(() -> java.util.Optional.ofNullable(System.getenv("OMNIGRAPH_ACTOR")));
  }
}
