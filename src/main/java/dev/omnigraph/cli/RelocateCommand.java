package dev.omnigraph.cli;

import dev.omnigraph.api.storage.RelocationReport;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph relocate [--dry-run]}: after a graph root was copied or moved (a {@code cp -r},
 * a restored backup, a sync to another bucket or prefix), points every dataset location Lance
 * recorded for the old root at this one ({@link Omnigraph#relocate}). Exit 0 unless a location
 * names no dataset of the root and so cannot be relocated (1); {@code doctor} is the check that
 * fails while anything points outside.
 */
@Command(name = "relocate", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph relocate --store /backup/g    # after: cp -r ./g /backup/g",
    description = "Point a copied or moved graph root at itself: rewrite the parent locations Lance recorded in"
        + " its branch manifests for the old root (a read-write open does it too; read-only opens refuse"
        + " until then). --dry-run lists them.")
public class RelocateCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--dry-run", description = "List the files that point outside the root; write nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    StorageConfig config = graph.config(positional);
    RelocationReport r = Omnigraph.relocate(config, dryRun);
    if (json) {
      Output.json(r);
    } else {
      r.outside().stream().map(ref -> (ref.relocatedTo() == null ? "outside    " : dryRun ? "would move " : "moved      ")
          + ref.file() + ": " + ref.recorded() + (ref.relocatedTo() == null ? " (names no dataset of this root)"
              : " -> " + ref.relocatedTo())).distinct().forEach(System.out::println);
      r.refsUpdated().forEach(k -> System.out.println((dryRun ? "would update " : "updated    ") + k));
      if (r.clean()) {
        System.out.println("nothing to relocate: the " + r.filesChecked()
            + " branch manifests and transactions under " + r.root() + " name only this root");
      } else {
        System.out.println((dryRun ? "dry run: " : "") + r.filesRewritten().size() + " file(s) "
            + (dryRun ? "would be" : "were") + " pointed from " + String.join(", ", r.recordedRoots()) + " at "
            + r.root() + (dryRun ? "; rerun without --dry-run to relocate" : ""));
      }
    }
    if (!r.unrelocatable().isEmpty()) {
      System.err.println("error: " + r.unrelocatable().size() + " location(s) name no dataset of " + r.root()
          + " and were left as they are; restore the datasets they name or rebuild via export/import");
      return ExitCodes.ERROR;
    }
    return ExitCodes.OK;
  }
}
