package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.RootContents;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph repair [--apply]}: explains uncovered HEAD drift; {@code --apply} restores each
 * drifted table to its pinned version and publishes the restored heads. Without {@code --apply} the
 * graph is opened read-only and nothing is written. Exit 0 when the report holds no invariant
 * violation, 1 when it does, 3 while a recovery sidecar is pending. A pending sidecar recovery cannot
 * read is named with its {@code omnigraph recover --quarantine} command (exit 3 on a dry run, 1 with
 * {@code --apply}, whose read-write open it fails), since {@code recover} cannot settle it.
 */
@Command(name = "repair", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph repair --apply --store ./g", description = "Explain uncovered drift (live Lance HEAD ahead of the manifest pin);"
    + " --apply restores drifted tables to their pins. Commits are recorded as omnigraph:repair.")
public class RepairCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--apply", description = "Resolve what is found (default: report only, read-only).")
  boolean apply;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    StorageConfig config = graph.config(positional);
    try (Omnigraph g = graph.open(config, apply ? OpenMode.READ_WRITE : OpenMode.READ_ONLY)) {
      RepairReport r;
      try {
        r = g.repair(apply, graph.actor());
      } catch (RecoveryPending e) {
        List<UnreadableSidecar> unreadable;
        try (RootContents contents = RootContents.open(config)) {
          unreadable = contents.unreadableSidecars();
        }
        if (unreadable.isEmpty()) {
          throw e;
        }
        System.err.println("error: " + e.getMessage());
        return unreadable(config, unreadable, ExitCodes.CONFLICT);
      }
      if (json) {
        Output.json(r);
      } else {
        print(r);
      }
      if (!r.invariantViolations().isEmpty()) {
        System.err.println("error: invariant violation: " + r.invariantViolations().size()
            + " table pin(s) have a live HEAD behind the manifest pin; repair never changes them");
        return ExitCodes.ERROR;
      }
    } catch (UnreadableSidecar e) {
      System.err.println("error: " + e.getMessage());
      return unreadable(config, List.of(e), ExitCodes.ERROR);
    }
    return ExitCodes.OK;
  }

  /** Recover cannot settle these: point at the quarantine command for each. */
  private static int unreadable(StorageConfig config, List<UnreadableSidecar> unreadable, int exit) {
    for (UnreadableSidecar u : unreadable) {
      System.err.println("recovery sidecar " + u.key() + " cannot be read (" + u.reason() + "); omnigraph recover"
          + " cannot settle it. Inspect it and move it aside with: omnigraph recover --quarantine "
          + u.operationId() + " --store " + config.rootUri());
    }
    return exit;
  }

  /** One line per unexplained file or directory: its path, kind and why (shared with cleanup and doctor). */
  static void printResidue(List<RepairReport.Residue> residue) {
    for (RepairReport.Residue x : residue) {
      System.out.printf("residue %s%s [%s]: %s%s%n", x.path(), x.directory() ? "/" : "",
          x.kind().name().toLowerCase(java.util.Locale.ROOT), x.why(), x.removed() ? " -> removed"
              : x.removable() ? " (blocks nothing; cleanup removes it)" : " (blocks nothing; not ours to remove: check it by hand)");
    }
  }

  private static void print(RepairReport r) {
    if (r.clean()) {
      // Leftover refs and residue block nothing, so they do not make a graph unclean; still listed.
      System.out.println("no drift: " + r.pinsChecked() + " table pins match their live Lance HEADs");
    }
    for (RepairReport.TableDrift d : r.drift()) {
      System.out.printf("drift  %-10s %-20s pinned %d, live HEAD %d%s%n", d.branch(), d.tableKey(), d.pinnedVersion(),
          d.liveHead(), d.restoredHead() == null ? "" : " -> restored as version " + d.restoredHead());
      for (RepairReport.Transaction t : d.transactions()) {
        System.out.printf("       v%d %s %s%n", t.version(), t.operation() == null ? "?" : t.operation(),
            t.uuid() == null ? t.error() : t.uuid());
      }
    }
    for (RepairReport.UnreferencedRef u : r.unreferencedRefs()) {
      System.out.printf("ref    %-10s %-20s Lance branch %s (fork %d, head %d) not referenced%s%n", u.branch(),
          u.tableKey(), u.nativeBranch(), u.forkVersion(), u.head(),
          u.removed() ? " -> deleted" : u.keptBecause() == null ? "" : " -> kept: " + u.keptBecause());
    }
    for (RepairReport.LeftoverRef l : r.leftoverRefs()) {
      System.out.printf("left   %-10s %-20s Lance branch %s of a deleted graph branch%s%n", l.nativeBranch(),
          l.tableKey(), l.nativeBranch(), l.removed() ? " -> deleted" : l.keptBecause() != null
              ? " (kept: " + l.keptBecause() + ")" : " (blocks nothing; cleanup removes it)");
    }
    printResidue(r.residue());
    for (RepairReport.HeadBehindPin v : r.invariantViolations()) {
      System.out.printf("BROKEN %-10s %-20s pinned %d: %s%n", v.branch(), v.tableKey(), v.pinnedVersion(), v.detail());
    }
    r.commits().forEach(c -> System.out.println("published " + c.commitId() + " on " + c.branch()
        + " (manifest version " + c.manifestVersion() + ")"));
    if (!r.applied() && (!r.drift().isEmpty() || !r.unreferencedRefs().isEmpty())) {
      System.out.println("dry run: rerun with --apply to restore the pinned versions");
    }
  }
}
