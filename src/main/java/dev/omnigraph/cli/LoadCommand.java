package dev.omnigraph.cli;

import dev.omnigraph.engine.LoadInput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.GraphBatchLoadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.WriteOutputs;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
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
    footer = {"  omnigraph load --data people.ndjson --mode append ./g",
        "  omnigraph load --data big.ndjson --split ./g   # over 8,192 rows: one commit per 8,192 lines"},
    description = "Load NDJSON nodes and edges as one graph commit (with --split: a sequence of bounded commits).")
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

  @Mixin ProgressOption progress;

  @Option(names = "--split", description = "Append or merge an input of any size as a sequence of commits of at most"
      + " 8,192 lines each, each all or nothing; prints the last committed line after each (graph root only).")
  boolean split;

  @Option(names = "--resume-from", paramLabel = "LINE", description = "With --split: skip the lines before LINE"
      + " (the failed run prints the exact command).")
  Long resumeFrom;

  @Override
  public Integer call() throws Exception {
    if (!data.equals("-")) {
      InputFiles.require(graph.command, "--data", Path.of(data));
    }
    var remote = graph.remote();
    checkSplit(remote.isPresent());
    if (remote.isPresent()) {
      if (positional != null) {
        throw new UsageError(graph.command.commandLine(), "give --server or a graph root, not both",
            "drop the graph root argument, or --server URL --graph ID");
      }
      StreamMeter meter = new StreamMeter("sent", "lines", size(), -1, Progress.now());
      Progress p = Progress.start(progress.wanted(), meter);
      GraphBatchLoadOutput out;
      try {
        var body = java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> meter.counting(open()));
        out = remote.get().postNdjson("/load/ndjson?mode=" + loadMode.wire() + "&branch=" + RemoteGraph.encode(branch),
            body, GraphBatchLoadOutput.class);
        Progress.finish(p);
      } finally {
        Progress.end(p);
      }
      print(out);
      return ExitCodes.OK;
    }
    if (split) {
      return splitLoad();
    }
    StreamMeter meter = new StreamMeter("read", "lines", size(), -1, Progress.now());
    Progress p = Progress.start(progress.wanted(), meter);
    WriteResult r;
    try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE);
        Reader in = new java.io.BufferedReader(LoadInput.strictUtf8(meter.counting(open())))) {
      try {
        r = g.load(dev.omnigraph.api.BranchName.existing(branch), in, loadMode, graph.actor());
        Progress.finish(p);
      } finally {
        Progress.end(p);
      }
      print(WriteOutputs.load(g, branch, false, loadMode, Optional.empty(), graph.actor(), r));
    }
    return ExitCodes.OK;
  }

  /**
   * {@code --split} is an append or merge on a graph root: an overwrite replaces its tables in one
   * commit (a split one would leave each chunk replacing the last), and the HTTP route loads one body
   * as one commit.
   */
  private void checkSplit(boolean remote) {
    var cli = graph.command.commandLine();
    if (resumeFrom != null && !split) {
      throw new UsageError(cli, "--resume-from continues a --split run", "add --split, or drop --resume-from");
    }
    if (!split) {
      return;
    }
    if (loadMode == LoadMode.OVERWRITE) {
      throw new UsageError(cli, "--split cannot overwrite: an overwrite replaces its tables in one commit",
          "drop --split to overwrite in one commit, or use --mode append or merge with --split");
    }
    if (remote) {
      throw new UsageError(cli, "--split loads into a graph root only", "name the graph root with --store URI");
    }
    if (resumeFrom != null && resumeFrom < 1) {
      throw new UsageError(cli, "--resume-from takes a line number from 1, got " + resumeFrom,
          "give the line the failed run printed");
    }
  }

  /**
   * {@code --split}: one ordinary load commit per chunk ({@link LoadInput#chunks}), through the same
   * write path as any load. A chunk is all or nothing; the chunks before a failure stay committed,
   * so a failure prints the command that continues from the first line not committed.
   */
  private int splitLoad() throws Exception {
    long from = resumeFrom == null ? 1 : resumeFrom;
    long next = from;
    int commits = 0;
    long rows = 0;
    java.util.List<GraphBatchLoadOutput> outputs = new java.util.ArrayList<>();
    java.io.PrintStream log = json ? System.err : System.out;
    StreamMeter meter = new StreamMeter("read", "lines", size(), -1, Progress.now());
    Progress p = Progress.start(progress.wanted(), meter);
    try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE);
        java.io.InputStream in = meter.counting(open())) {
      LoadInput.Chunks chunks = LoadInput.chunks(in, from);
      try {
        for (var chunk = chunks.next(); chunk.isPresent(); chunk = chunks.next()) {
          var c = chunk.get();
          GraphBatchLoadOutput out = WriteOutputs.load(g, branch, false, loadMode, Optional.empty(), graph.actor(),
              g.load(dev.omnigraph.api.BranchName.existing(branch), c, loadMode, graph.actor()));
          next = c.lastLine() + 1;
          if (out.commit() != null) {
            commits++;
            rows += out.totalEntities();
            outputs.add(out);
          }
          // The chunk's line takes the live line's place; the display redraws below it.
          Progress.printAbove(p, log, "committed lines " + c.firstLine() + "-" + c.lastLine() + (out.commit() == null
              ? " (nothing to load)" : " (commit " + out.commit().graphCommitId() + ", " + out.totalEntities() + " rows)"));
        }
        Progress.finish(p);
      } catch (RuntimeException | java.io.IOException e) {
        Progress.end(p);
        p = null;
        var cli = graph.command.commandLine();
        int code = new ExitCodes.ExceptionHandler().handleExecutionException(e, cli, null);
        cli.getErr().println((commits == 0 ? "nothing committed by this run" : commits + " commits landed, through line "
            + (next - 1)) + "; after fixing the input, continue with:");
        cli.getErr().println("  " + resumeCommand(next));
        cli.getErr().flush();
        return code;
      } finally {
        Progress.end(p);
      }
    }
    if (json) {
      Output.json(outputs);
    } else {
      System.out.println("loaded " + rows + " rows into " + branch + " as " + commits + " commit"
          + (commits == 1 ? "" : "s") + " (lines " + from + "-" + (next - 1) + ")");
    }
    return ExitCodes.OK;
  }

  /** This load again, from {@code line}: every option of this run that names what and where it loads. */
  private String resumeCommand(long line) {
    StringBuilder cmd = new StringBuilder(graph.again());
    if (graph.store == null) {
      cmd.append(" --store ").append(StoreOptions.shellWord(positional));
    }
    if (graph.actor != null) {
      cmd.append(" --actor ").append(StoreOptions.shellWord(graph.actor));
    }
    cmd.append(" --data ").append(StoreOptions.shellWord(data)).append(" --mode ").append(loadMode.wire());
    if (!branch.equals("main")) {
      cmd.append(" --branch ").append(StoreOptions.shellWord(branch));
    }
    return cmd.append(" --split --resume-from ").append(line).toString();
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
