package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code omnigraph snapshot}: the published datasets of a branch (or of a commit). */
@Command(name = "snapshot", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph snapshot --json --store ./g", description = "Show the published state of a branch.")
public class SnapshotCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--branch", defaultValue = "main", description = "Branch (default main).")
  String branch;

  @Option(names = "--commit", paramLabel = "ID", description = "Show the state a commit published instead.")
  String commit;

  @Option(names = "--json", description = "Print the reference SnapshotOutput JSON.")
  boolean json;

  @Override
  public Integer call() {
    var remote = graph.remote();
    if (remote.isPresent()) {
      if (commit != null) {
        throw new dev.omnigraph.api.InvalidRequest("--commit has no --server form; use --store");
      }
      print(remote.get().get("/snapshot?branch=" + RemoteGraph.encode(branch), SnapshotOutput.class));
      return ExitCodes.OK;
    }
    try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
      print(commit != null ? g.snapshotAtCommit(dev.omnigraph.api.CommitId.existing(commit), graph.actor())
          : g.snapshot(dev.omnigraph.api.BranchName.existing(branch), graph.actor()));
    }
    return ExitCodes.OK;
  }

  private void print(SnapshotOutput s) {
    if (json) {
      Output.json(s);
      return;
    }
    System.out.printf("branch %s  manifest version %d  internal schema version %d%n",
        s.graphBranch(), s.graphManifestVersion(), s.internalSchemaVersion());
    System.out.printf("%-5s %-24s %-45s %8s %10s%n", "KIND", "TYPE", "PATH", "VERSION", "ROWS");
    for (SnapshotOutput.Dataset d : s.datasets()) {
      System.out.printf("%-5s %-24s %-45s %8d %10d%n", d.entityKind(), d.typeName(), d.datasetPath(),
          d.publishedDatasetVersion(), d.entityCount());
    }
  }
}
