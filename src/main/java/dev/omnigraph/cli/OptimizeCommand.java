package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.maintenance.OptimizeReport;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph optimize [--branch B]}: compacts every data table of the branch that has more
 * than one fragment or a deletion file and publishes one maintenance commit (docs/maintenance.md).
 * Writes also trigger it automatically past the configured thresholds; this runs it on demand.
 * Exit 3 while a recovery sidecar on the branch is pending or a table drifted (nothing written).
 */
@Command(name = "optimize", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph optimize --branch main --store ./g", description = "Compact the branch's data tables (rows, row ids and time travel are"
    + " unchanged) and publish one maintenance commit.")
public class OptimizeCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--branch", description = "Graph branch (default main).")
  String branch;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Mixin ProgressOption progress;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    try (Omnigraph g = graph.open(graph.config(positional), OpenMode.READ_WRITE)) {
      OptimizeReport r = progress.steps("optimize " + (branch == null || branch.isBlank() ? "main" : branch),
          listener -> g.optimize(dev.omnigraph.api.BranchName.existingOrMain(branch), graph.actor(), listener));
      if (json) {
        Output.json(r);
        return ExitCodes.OK;
      }
      for (OptimizeReport.Table t : r.tables()) {
        String branchName = t.nativeBranch() == null ? "main" : t.nativeBranch();
        if (t.fragmentsBefore() == t.fragmentsAfter() && t.deletionFragmentsBefore() == t.deletionFragmentsAfter()) {
          // Nothing was rewritten: the pass folded the fragments into the table's indexes (a bare
          // "1 -> 1 fragments" beside a published commit read as if nothing had happened).
          System.out.printf("%-20s %-8s v%d -> v%d: indexes brought up to date over %d fragments%n", t.tableKey(),
              branchName, t.fromVersion(), t.toVersion(), t.fragmentsAfter());
        } else {
          System.out.printf("%-20s %-8s v%d -> v%d: %d -> %d fragments, %d -> %d with deletions%n", t.tableKey(),
              branchName, t.fromVersion(), t.toVersion(),
              t.fragmentsBefore(), t.fragmentsAfter(), t.deletionFragmentsBefore(), t.deletionFragmentsAfter());
        }
        if (!t.indexesPending().isEmpty()) {
          System.out.printf("%-20s          indexes still pending: %s%n", "", String.join(", ", t.indexesPending()));
        }
      }
      System.out.println(r.commitId().map(c -> "published maintenance commit " + c)
          .orElse("nothing to compact on " + r.branch()));
    }
    return ExitCodes.OK;
  }
}
