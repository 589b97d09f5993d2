package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.GraphBatchLoadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.WriteOutputs;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.NdjsonInput;
import dev.omnigraph.write.WriteResult;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph load --data F --mode M [--branch B] URI}: one NDJSON load, one commit. */
@Command(name = "load", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph load --data people.ndjson --mode append ./g", description = "Load NDJSON nodes and edges as one graph commit.")
public class LoadCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--data", required = true, paramLabel = "FILE", description = "NDJSON input ('-' for stdin).")
  String data;

  @Option(names = "--mode", defaultValue = "append", converter = ModeConverter.class,
      description = "append (strict insert), merge (upsert) or overwrite.")
  LoadMode loadMode;

  @Option(names = "--branch", defaultValue = "main") String branch;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--progress", negatable = true, description = "Show progress on stderr (default: on a terminal).")
  Boolean progress;

  @Override
  public Integer call() throws Exception {
    if (!data.equals("-")) {
      InputFiles.require(graph.command, "--data", Path.of(data));
    }
    var remote = graph.remote();
    if (remote.isPresent()) {
      if (positional != null) {
        throw new UsageError(graph.command.commandLine(), "give --server or a graph root, not both",
            "drop the graph root argument, or --server URL --graph ID");
      }
      Progress p = Progress.start(Progress.wanted(progress), "sent", size());
      GraphBatchLoadOutput out;
      try {
        var body = java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> Progress.counting(p, open()));
        out = remote.get().postNdjson("/load/ndjson?mode=" + loadMode.wire() + "&branch=" + RemoteGraph.encode(branch),
            body, GraphBatchLoadOutput.class);
      } finally {
        Progress.end(p);
      }
      print(out);
      return ExitCodes.OK;
    }
    Progress p = Progress.start(Progress.wanted(progress), "read", size());
    WriteResult r;
    try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE);
        Reader in = new java.io.BufferedReader(NdjsonInput.strictUtf8(Progress.counting(p, open())))) {
      try {
        r = g.load(branch, in, loadMode, graph.actor());
      } finally {
        Progress.end(p);
      }
      print(WriteOutputs.load(g, branch, false, loadMode, Optional.empty(), graph.actor(), r));
    }
    return ExitCodes.OK;
  }

  /** {@code --mode} is parsed with the arguments, so a wrong one is a usage error (exit 2) before any I/O. */
  static final class ModeConverter implements picocli.CommandLine.ITypeConverter<LoadMode> {
    @Override
    public LoadMode convert(String value) {
      try {
        return LoadMode.parse(value);
      } catch (dev.omnigraph.api.InvalidRequest e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  private java.io.InputStream open() {
    try {
      return data.equals("-") ? System.in : Files.newInputStream(Path.of(data));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read " + data, e);
    }
  }

  /** The input's size for a percentage; 0 (unknown) for stdin. */
  private long size() {
    try {
      return data.equals("-") ? 0 : Files.size(Path.of(data));
    } catch (java.io.IOException e) {
      return 0;
    }
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
