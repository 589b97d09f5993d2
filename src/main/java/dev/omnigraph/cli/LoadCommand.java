package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.WriteResult;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
    try (Omnigraph g = Omnigraph.open(graph.config(positional), OpenMode.READ_WRITE);
        Reader in = data.equals("-")
            ? new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8)
            : Files.newBufferedReader(Path.of(data), StandardCharsets.UTF_8)) {
      WriteResult r = g.load(branch, in, loadMode, graph.actor());
      if (json) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("branch", branch);
        out.put("mode", loadMode.wire());
        out.put("graph_commit_id", r.commitId().orElse(null));
        out.put("graph_manifest_version", r.manifestVersion());
        out.put("row_counts", r.rowCounts());
        Output.json(out);
      } else if (r.commitId().isEmpty()) {
        System.out.println("nothing to load");
      } else {
        System.out.println("loaded into " + branch + " as commit " + r.commitId().get() + " (manifest version "
            + r.manifestVersion() + ")");
        r.rowCounts().forEach((table, rows) -> System.out.println("  " + table + ": " + rows + " rows"));
      }
    }
    return ExitCodes.OK;
  }
}
