package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.storage.StorageConfig;
import picocli.CommandLine.Option;

/** How a command names its graph: {@code --store URI} (a local path or {@code s3://bucket/prefix}). */
public class GraphOptions {

  @Option(names = "--store", paramLabel = "URI", description = "Graph root: a directory or s3://bucket/prefix.")
  String store;

  @Option(names = "--actor", paramLabel = "ID", description = "Actor id recorded in the commit lineage.")
  String actor;

  StorageConfig config(String positional) {
    String uri = store != null ? store : positional;
    if (uri == null || uri.isBlank()) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "missing --store URI");
    }
    return StorageConfig.fromEnvironment(uri);
  }

  Omnigraph open(OpenMode mode) {
    return Omnigraph.open(config(null), mode);
  }

  java.util.Optional<String> actor() {
    return java.util.Optional.ofNullable(actor).or(() -> java.util.Optional.ofNullable(System.getenv("OMNIGRAPH_ACTOR")));
  }
}
