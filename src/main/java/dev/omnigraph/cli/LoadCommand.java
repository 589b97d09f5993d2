package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.GraphBatchLoadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.WriteOutputs;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.WriteResult;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph load --data F --mode M [--branch B] URI}: one NDJSON load, one commit. */
@Command(name = "load", description = "Load NDJSON nodes and edges as one graph commit.")
public class LoadCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--data", required = true, paramLabel = "FILE", description = "NDJSON input ('-' for stdin).")
  String data;

  @Option(names = "--mode", defaultValue = "append", description = "append (strict insert), merge (upsert) or overwrite.")
  String mode;

  @Option(names = "--branch", defaultValue = "main") String branch;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    LoadMode loadMode = LoadMode.parse(mode);
    var remote = graph.remote();
    if (remote.isPresent()) {
      if (positional != null) {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
            "give --server or a graph root, not both");
      }
      var body = data.equals("-")
          ? java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> System.in)
          : java.net.http.HttpRequest.BodyPublishers.ofFile(Path.of(data));
      print(remote.get().postNdjson("/load/ndjson?mode=" + loadMode.wire() + "&branch=" + RemoteGraph.encode(branch),
          body, GraphBatchLoadOutput.class));
      return ExitCodes.OK;
    }
    try (Omnigraph g = Omnigraph.open(graph.config(positional), OpenMode.READ_WRITE);
        Reader in = data.equals("-")
            ? new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8)
            : Files.newBufferedReader(Path.of(data), StandardCharsets.UTF_8)) {
      WriteResult r = g.load(branch, in, loadMode, graph.actor());
      print(WriteOutputs.load(g, branch, false, loadMode, Optional.empty(), graph.actor(), r));
    }
    return ExitCodes.OK;
  }

  /** {@code --json}: the reference {@code GraphBatchLoadOutput}, locally and remotely alike. */
  private void print(GraphBatchLoadOutput out) {
    if (json) {
      Output.json(out);
    } else if (out.commit() == null) {
      System.out.println("nothing to load");
    } else {
      System.out.println("loaded into " + out.branch() + " as commit " + out.commit().graphCommitId()
          + " (manifest version " + out.commit().graphManifestVersion() + ")");
      out.nodes().forEach(d -> System.out.println("  node " + d.name() + ": " + d.entitiesLoaded() + " loaded"));
      out.edges().forEach(d -> System.out.println("  edge " + d.name() + ": " + d.entitiesLoaded() + " loaded"));
    }
  }
}
