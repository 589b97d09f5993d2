package dev.omnigraph.cli;

import dev.omnigraph.api.NdjsonExport;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph export [--branch B] [--type T]... [--output F]}: the branch's pinned state as
 * NDJSON in the load format, streamed one Lance batch at a time (read-only open).
 */
@Command(name = "export", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph export --branch main --output backup.ndjson --store ./g", description = "Stream a branch's data as NDJSON that load accepts (read-only).")
public class ExportCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--branch", paramLabel = "B", description = "Branch to export (default main).")
  String branch;

  @Option(names = "--type", paramLabel = "T", description = "Only these node/edge types (repeatable).")
  List<String> types = List.of();

  @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of stdout.")
  Path output;

  @Mixin ProgressOption progress;

  /** Writes the export to a stream. */
  private interface Body {
    void writeTo(OutputStream out) throws Exception;
  }

  @Override
  public Integer call() throws Exception {
    var remote = graph.remote();
    if (remote.isPresent()) {
      Map<String, Object> request = new LinkedHashMap<>();
      request.put("branch", branch);
      request.put("type_names", types);
      stream(-1, out -> remote.get().postStream("/export", request, out)); // the server sends no total
    } else {
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        NdjsonExport export = g.export(Optional.ofNullable(branch).map(dev.omnigraph.api.BranchName::existing), types,
            graph.actor());
        stream(export.rows(), export::writeTo);
      }
    }
    return ExitCodes.OK;
  }

  /** Streams {@code body} to the output, counting its lines ({@code totalRows}: -1 when unknown). */
  private void stream(long totalRows, Body body) throws Exception {
    StreamMeter meter = new StreamMeter("exported", "rows", 0, totalRows, Progress.now());
    Progress p = Progress.start(progress.wanted(), meter);
    try (OutputStream target = output == null ? System.out : Files.newOutputStream(output);
        OutputStream out = new BufferedOutputStream(meter.counting(target), 1 << 16)) {
      body.writeTo(out);
      out.flush();
      Progress.finish(p);
    } finally {
      Progress.end(p);
    }
  }
}
