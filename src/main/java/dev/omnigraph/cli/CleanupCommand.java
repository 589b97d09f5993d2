package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.maintenance.CleanupReport;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph cleanup [--dry-run]}: removes data-table versions no reachable graph commit pins.
 * {@code --dry-run} opens the graph read-only and only reports. Exit 3 while a recovery sidecar is
 * pending (nothing is removed).
 */
@Command(name = "cleanup", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph cleanup --dry-run --store ./g", description = "Garbage-collect Lance versions that no reachable graph commit pins;"
    + " time travel to every commit keeps working.")
public class CleanupCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--dry-run", description = "Report what would be removed; write nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Mixin ProgressOption progress;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    try (Omnigraph g = graph.open(graph.config(positional), dryRun ? OpenMode.READ_ONLY : OpenMode.READ_WRITE)) {
      CleanupReport r = progress.steps(dryRun ? "cleanup (dry run)" : "cleanup",
          listener -> g.cleanup(dryRun, graph.actor(), listener));
      if (json) {
        Output.json(r);
        return ExitCodes.OK;
      }
      for (CleanupReport.TableCleanup t : r.tables()) {
        System.out.printf("%-20s %-8s head %-5d kept from %-5d %s%n", t.tableKey(),
            t.nativeBranch() == null ? "main" : t.nativeBranch(), t.head(), t.retainFrom(),
            t.removedVersions().isEmpty() ? "nothing to remove"
                : (dryRun ? "would remove " : "removed ") + t.removedVersions()
                    + (t.bytesRemoved() == null ? "" : " (" + t.bytesRemoved() + " bytes)"));
      }
      for (dev.omnigraph.api.maintenance.RepairReport.LeftoverRef l : r.leftoverRefs()) {
        System.out.printf("%-20s %-8s Lance branch of a deleted graph branch: %s%n", l.tableKey(), l.nativeBranch(),
            l.keptBecause() != null ? "kept (" + l.keptBecause() + ")" : l.removed() ? "removed" : "would remove");
      }
      for (dev.omnigraph.api.maintenance.RepairReport.Residue x : r.residue()) {
        System.out.printf("residue %s%s [%s]: %s%n", x.path(), x.directory() ? "/" : "",
            x.kind().name().toLowerCase(java.util.Locale.ROOT), !x.removable() ? "kept, not ours to remove ("
                + x.why() + "): check it by hand" : x.removed() ? "removed" : dryRun ? "would remove" : "could not be"
                + " removed (see the log); the next cleanup tries again");
      }
      System.out.println((dryRun ? "dry run: " : "") + r.versionsRemoved() + " version(s) "
          + (dryRun ? "would be removed" : "removed") + "; " + r.commitsScanned() + " commits keep their versions");
    }
    return ExitCodes.OK;
  }
}
