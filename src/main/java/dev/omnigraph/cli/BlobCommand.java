package dev.omnigraph.cli;

import dev.omnigraph.api.BlobRead;
import dev.omnigraph.api.BlobWriteOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph blob get|stat|put}: one Blob cell, locally or on a running server
 * ({@code GET|HEAD|PUT /graphs/{id}/blob}; docs/cli.md, "blob"). {@code get} writes the bytes
 * binary-safe to {@code --output} or stdout, with a progress line for a large Blob.
 */
@Command(name = "blob", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph blob get --type Doc --id a --property body --output a.bin --store ./g",
    description = "Read, describe or replace one Blob cell.",
    subcommands = {BlobCommand.Get.class, BlobCommand.Stat.class, BlobCommand.Put.class})
public class BlobCommand {

  /** A progress line is drawn (when wanted) only for a Blob over this. */
  static final long PROGRESS_OVER = 4L * 1024 * 1024;

  /** The cell's selectors, as the HTTP route names them. */
  static class Cell {
    @Option(names = "--entity", defaultValue = "node", description = "node or edge (default node).")
    String entity;

    @Option(names = "--type", required = true, description = "The node or edge type.")
    String type;

    @Option(names = "--id", required = true, description = "The row's id.")
    String id;

    @Option(names = "--property", required = true, description = "The Blob property.")
    String property;

    /** The route's query string, with the read's branch or snapshot. */
    String query(Optional<String> branch, Optional<String> snapshot) {
      StringBuilder q = new StringBuilder("/blob?entity=" + RemoteGraph.encode(entity) + "&type="
          + RemoteGraph.encode(type) + "&id=" + RemoteGraph.encode(id) + "&property=" + RemoteGraph.encode(property));
      branch.ifPresent(b -> q.append("&branch=").append(RemoteGraph.encode(b)));
      snapshot.ifPresent(s -> q.append("&snapshot=").append(RemoteGraph.encode(s)));
      return q.toString();
    }
  }

  /** {@code --branch} or {@code --snapshot}. */
  static class At {
    @Option(names = "--branch", description = "Read at this branch's head (default main).")
    String branch;

    @Option(names = "--snapshot", paramLabel = "COMMIT", description = "Read at this commit.")
    String snapshot;
  }

  /** The read route's query string for {@code at} (none given: main's head). */
  static String readQuery(Cell c, At at) {
    return c.query(Optional.ofNullable(at == null ? null : at.branch), Optional.ofNullable(at == null ? null : at.snapshot));
  }

  /** Opens a read cell locally: the caller closes the graph after the cell. */
  static BlobRead open(Omnigraph g, Cell c, At at, GraphOptions graph) {
    return g.readBlob(c.entity, c.type, c.id, c.property,
        Optional.ofNullable(at == null ? null : at.branch).map(dev.omnigraph.api.BranchName::existing),
        Optional.ofNullable(at == null ? null : at.snapshot).map(dev.omnigraph.api.CommitId::existing), graph.actor());
  }

  @Command(name = "get", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph blob get --type Doc --id a --property body --range 0-1023 --output head.bin --store ./g",
      description = "Write a Blob cell's bytes (or one range of them) to a file or stdout.")
  static class Get implements Callable<Integer> {
    @Mixin GraphOptions graph;
    @Mixin Cell cell;
    @ArgGroup(exclusive = true) At at;
    @Mixin ProgressOption progress;

    @Option(names = "--range", paramLabel = "A-B", description = "Bytes A to B inclusive (A- : to the end).")
    String range;

    @Option(names = "--output", paramLabel = "FILE", description = "Write here (default stdout).")
    Path output;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() throws Exception {
      long[] span = parseRange();
      var remote = graph.remote();
      AtomicLong done = new AtomicLong();
      AtomicLong total = new AtomicLong();
      Progress.Meter meter = nanos -> "blob " + Progress.mib(done.get()) + (total.get() > 0 ? " / "
          + Progress.mib(total.get()) + " (" + (100 * done.get() / total.get()) + "%)" : "");
      Progress p = null;
      try (OutputStream target = output == null ? System.out : Files.newOutputStream(output);
          OutputStream out = new BufferedOutputStream(counting(target, done), 1 << 16)) {
        if (remote.isPresent()) {
          Map<String, String> headers = span == null ? Map.of()
              : Map.of("Range", "bytes=" + span[0] + "-" + (span[1] < 0 ? "" : Long.toString(span[1])));
          Progress[] shown = {null};
          remote.get().getRaw(readQuery(cell, at), headers, out, length -> {
                total.set(length);
                shown[0] = length > PROGRESS_OVER ? Progress.start(progress.wanted(), meter) : null;
              });
          p = shown[0];
        } else {
          try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_ONLY);
              BlobRead blob = open(g, cell, at, graph)) {
            long from = span == null ? 0 : span[0];
            long to = span == null || span[1] < 0 ? blob.size() - 1 : Math.min(span[1], blob.size() - 1);
            if (from >= blob.size() && blob.size() > 0) {
              throw new UsageError(graph.command.commandLine(), "--range starts past the Blob's "
                  + blob.size() + " bytes", "give a range inside 0-" + (blob.size() - 1));
            }
            total.set(Math.max(0, to - from + 1));
            p = total.get() > PROGRESS_OVER ? Progress.start(progress.wanted(), meter) : null;
            blob.copyTo(from, total.get(), out);
          }
        }
        out.flush();
        Progress.finish(p);
      } finally {
        Progress.end(p);
      }
      return ExitCodes.OK;
    }

    private long[] parseRange() {
      if (range == null) {
        return null;
      }
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)-(\\d*)").matcher(range.strip());
      if (!m.matches() || (!m.group(2).isEmpty() && Long.parseLong(m.group(2)) < Long.parseLong(m.group(1)))) {
        throw new UsageError(graph.command.commandLine(), "--range must be A-B (A <= B) or A-, got '" + range + "'",
            "for example --range 0-1023");
      }
      return new long[] {Long.parseLong(m.group(1)), m.group(2).isEmpty() ? -1 : Long.parseLong(m.group(2))};
    }

    private static OutputStream counting(OutputStream out, AtomicLong done) {
      return new java.io.FilterOutputStream(out) {
        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
          out.write(b, off, len);
          done.addAndGet(len);
        }
      };
    }
  }

  @Command(name = "stat", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph blob stat --type Doc --id a --property body --store ./g",
      description = "Print a Blob cell's size, content type (if any), ETag and snapshot; reads no bytes.")
  static class Stat implements Callable<Integer> {
    @Mixin GraphOptions graph;
    @Mixin Cell cell;
    @ArgGroup(exclusive = true) At at;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() {
      Map<String, Object> out = new LinkedHashMap<>();
      var remote = graph.remote();
      if (remote.isPresent()) {
        RemoteGraph.RawAnswer a = remote.get().getRaw(readQuery(cell, at), Map.of(), null, n -> { });
        out.put("size", Long.parseLong(a.header("Content-Length").orElse("0")));
        a.header("Content-Type").filter(t -> !t.equals("application/octet-stream"))
            .ifPresent(t -> out.put("content_type", t));
        out.put("etag", a.header("ETag").orElse(null));
        out.put("snapshot", a.header("Omnigraph-Snapshot-Id").orElse(null));
      } else {
        try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_ONLY);
            BlobRead blob = open(g, cell, at, graph)) {
          // A managed cell has no content type of its own: none is printed.
          out.put("size", blob.size());
          out.put("etag", blob.etag());
          out.put("snapshot", blob.snapshotId());
        }
      }
      if (json) {
        Output.json(out);
      } else {
        out.forEach((k, v) -> System.out.println(k + ": " + v));
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "put", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph blob put --type Doc --id a --property body --input a.bin --store ./g",
      description = "Replace a Blob cell's bytes with a file's (at most 32 MiB), as one commit; --clear empties"
          + " a Blob? cell.")
  static class Put implements Callable<Integer> {
    @Mixin GraphOptions graph;
    @Mixin Cell cell;

    @Option(names = "--branch", defaultValue = "main", description = "Graph branch (default main).")
    String branch;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static class Source {
      @Option(names = "--input", paramLabel = "FILE", description = "The new bytes.")
      Path input;

      @Option(names = "--clear", description = "Make the cell null (a Blob? property only).")
      boolean clear;
    }

    @Option(names = "--if-match", paramLabel = "ETAG", description = "Write only if the cell has this ETag.")
    String ifMatch;

    @Option(names = "--if-commit", paramLabel = "ID", converter = CommitIdConverter.class,
        description = "Write only if the branch head is this commit.")
    dev.omnigraph.api.CommitId ifCommit;

    @Option(names = "--json", description = "Print the BlobWriteOutput JSON.")
    boolean json;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() throws Exception {
      BlobWriteOutput out;
      var remote = graph.remote();
      if (remote.isPresent()) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (ifMatch != null) {
          headers.put("If-Match", ifMatch);
        }
        if (ifCommit != null) {
          headers.put("Omnigraph-If-Graph-Commit", ifCommit.value());
        }
        String path = cell.query(Optional.of(branch), Optional.empty());
        out = source.clear ? remote.get().delete(path, headers, BlobWriteOutput.class)
            : remote.get().putRaw(path, java.net.http.HttpRequest.BodyPublishers.ofFile(source.input), headers,
                BlobWriteOutput.class);
      } else {
        try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE);
            InputStream in = source.clear ? null : Files.newInputStream(source.input)) {
          out = g.writeBlob(dev.omnigraph.api.BranchName.existingOrMain(branch), cell.entity, cell.type, cell.id,
              cell.property, Optional.ofNullable(in),
              Optional.ofNullable(ifMatch), Optional.ofNullable(ifCommit), graph.actor());
        }
      }
      if (json) {
        Output.json(out);
      } else {
        System.out.println("published commit " + out.graphCommitId() + " on " + out.branch() + (out.etag() == null
            ? ": the cell is null" : ": " + out.size() + " bytes, etag " + out.etag()));
      }
      return ExitCodes.OK;
    }
  }
}
