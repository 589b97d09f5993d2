package dev.omnigraph.cli;

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

  @Option(names = "--progress", negatable = true, description = "Show progress on stderr (default: on a terminal).")
  Boolean progress;

  @Override
  public Integer call() throws Exception {
    Progress p = Progress.start(Progress.wanted(progress), "exported", 0);
    try (OutputStream target = output == null ? System.out : Files.newOutputStream(output);
        OutputStream out = new BufferedOutputStream(Progress.counting(p, target), 1 << 16)) {
      var remote = graph.remote();
      if (remote.isPresent()) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("branch", branch);
        request.put("type_names", types);
        remote.get().postStream("/export", request, out);
      } else {
        try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
          g.export(Optional.ofNullable(branch), types, graph.actor()).writeTo(out);
        }
      }
      out.flush();
    } finally {
      Progress.end(p);
    }
    return ExitCodes.OK;
  }
}
