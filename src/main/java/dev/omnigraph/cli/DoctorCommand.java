package dev.omnigraph.cli;

import dev.omnigraph.api.storage.RelocationReport;
import dev.omnigraph.api.storage.LanceProbeReport;
import dev.omnigraph.api.storage.LanceProbeCheck;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryPending;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.RootContents;
import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code omnigraph doctor}: proves that this binary, on this JVM, can drive Lance against a graph root
 * (create, stage, commit with a pre-minted uuid, confirm, async scan, branch) by running
 * {@link RootContents#probeLance the Lance probe} in a scratch dataset under {@code __doctor/<uuid>}, then removing the scratch.
 * It writes nothing else under the root. When the root holds a graph it also checks that nothing
 * under it points outside it ({@link Omnigraph#relocate} as a dry run: a copied or moved root whose
 * branch manifests still name the old place), naming each file, the location and the command that
 * fixes it, and lists, read-only, what {@code repair} reports as residue (files and datasets nothing
 * explains), as warnings. Exit 0 when every check passes (residue never fails it), 1 otherwise, 2
 * for a bad {@code --store}.
 */
@Command(
    name = "doctor", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph doctor --store s3://bucket/g",
    description = "Check that Lance works against a graph root (scratch dataset, removed afterwards).")
public class DoctorCommand implements Callable<Integer> {

  /** Where scratch datasets go; a prefix no graph object uses. */
  static final String SCRATCH_PREFIX = "__doctor";

  @Spec CommandSpec spec;

  @Option(names = "--store", required = true, paramLabel = "URI",
      description = "Graph root: a local directory, file:// or s3://bucket/prefix.")
  String store;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Override
  public Integer call() {
    StorageConfig config;
    try {
      config = StorageConfig.fromEnvironment(store);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--store: " + e.getMessage());
    }
    String scratchKey = SCRATCH_PREFIX + "/" + UUID.randomUUID();
    boolean createdRoot = prepareLocalRoot(config);
    try (RootContents root = RootContents.open(config)) {
      // Opening checks what can be checked without a request (credentials found, endpoint usable):
      // a store set up wrong is said in one line, before Lance's probe buries it in native warnings.
    } catch (StorageException e) {
      if (e.kind() != StorageException.Kind.CONFIGURATION) {
        throw e;
      }
      PrintWriter err = spec.commandLine().getErr();
      err.println("doctor: " + config.rootUri());
      err.println("FAIL store: " + e.clientMessage());
      err.flush();
      return ExitCodes.ERROR;
    }

    LanceProbeReport report = RootContents.probeLance(config, scratchKey);
    Cleanup cleanup = cleanUp(config, scratchKey, createdRoot);
    Locations locations = locations(config);
    Residue residue = residue(config);

    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode root = toJson(config, report, cleanup, locations);
      ObjectNode r = root.putObject("residue");
      r.put("checked", residue.checked());
      r.put("detail", residue.detail());
      r.set("found", new ObjectMapper().valueToTree(residue.found()));
      out.println(root.toPrettyString());
    } else {
      printText(out, config, report, cleanup, locations);
      out.println("residue: " + residue.detail());
      for (RepairReport.Residue x : residue.found()) {
        out.printf("WARN residue %s%s [%s]: %s%s%n", x.path(), x.directory() ? "/" : "",
            x.kind().name().toLowerCase(Locale.ROOT), x.why(),
            x.removable() ? " (omnigraph cleanup removes it)" : " (not ours to remove: check it by hand)");
      }
    }
    out.flush();
    return report.passed() && locations.passed() ? ExitCodes.OK : ExitCodes.ERROR;
  }

  /** The root-locations check: absent ({@code report} null) when the root holds no graph. */
  record Locations(RelocationReport report, String error) {
    boolean passed() {
      return error == null && (report == null || report.clean());
    }
  }

  private static Locations locations(StorageConfig config) {
    try (RootContents root = RootContents.open(config)) {
      if (!root.holdsGraph()) {
        return new Locations(null, null);
      }
      return new Locations(Omnigraph.relocate(config, true), null);
    } catch (RuntimeException e) {
      return new Locations(null, e.getMessage());
    }
  }

  private static void printLocations(PrintWriter out, StorageConfig config, Locations l) {
    if (l.error() != null) {
      out.println("FAIL root-locations: " + l.error());
    } else if (l.report() == null) {
      out.println("root-locations: no graph at " + config.rootUri() + " (nothing to check)");
    } else if (l.report().clean()) {
      out.println("ok   root-locations: the " + l.report().filesChecked()
          + " branch manifests and transactions under the root name only the root");
    } else {
      // One line per file and location (a branch's first manifest names its parent twice: as a base
      // path and in the inlined clone transaction).
      l.report().outside().stream().map(r -> r.file() + " points outside the root, at " + r.recorded()).distinct()
          .forEach(line -> out.println("FAIL root-locations: " + line));
      out.println("     the root was copied or moved" + (l.report().recordedRoots().isEmpty() ? ""
          : " from " + String.join(", ", l.report().recordedRoots())) + "; fix it with: omnigraph relocate --store "
          + config.rootUri());
    }
  }

  /**
   * What {@code repair} reports as residue, when the root holds a graph (docs/maintenance.md, "Residue"). It never
   * fails the doctor: residue blocks nothing; the exit code stays about whether Lance works here.
   *
   * @param checked whether the scan ran (no graph, a pending sidecar or a failure: false)
   */
  record Residue(boolean checked, String detail, List<RepairReport.Residue> found) {}

  private static Residue residue(StorageConfig config) {
    try (RootContents root = RootContents.open(config)) {
      if (!root.holdsGraph()) {
        return new Residue(false, "not checked: no graph at this root", List.of());
      }
    } catch (RuntimeException e) {
      return new Residue(false, "not checked: " + e.getMessage(), List.of());
    }
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      List<RepairReport.Residue> found = g.residue();
      return new Residue(true, found.isEmpty() ? "nothing under the root that no commit, sidecar or branch explains"
          : found.size() + " unexplained file(s) or dataset(s) under the root", found);
    } catch (RecoveryPending e) {
      return new Residue(false, "not checked: recovery sidecars are pending (run omnigraph recover): "
          + e.pendingSidecars(), List.of());
    } catch (RuntimeException e) {
      return new Residue(false, "not checked: " + e.getMessage(), List.of());
    }
  }

  /** Whether scratch removal succeeded; a failure leaves the scratch dataset and says where. */
  record Cleanup(boolean done, String detail) {}

  /** Creates a missing local root so Lance has a directory to write into; true if it was created. */
  private static boolean prepareLocalRoot(StorageConfig config) {
    if (config.backend() != StorageConfig.Backend.LOCAL) {
      return false;
    }
    Path root = config.localRoot();
    if (Files.isDirectory(root)) {
      return false;
    }
    try {
      Files.createDirectories(root);
      return true;
    } catch (IOException e) {
      // Lance will report the same problem as a failed check, with its own wording.
      return false;
    }
  }

  private static Cleanup cleanUp(StorageConfig config, String scratchKey, boolean createdRoot) {
    String where = config.lanceUri(scratchKey);
    if (config.backend() == StorageConfig.Backend.LOCAL && !Files.exists(Path.of(where))) {
      // The probe failed before writing anything; do not warn about scratch that never existed.
      return new Cleanup(true, "nothing to remove at " + where);
    }
    try (RootContents root = RootContents.open(config)) {
      root.deletePrefix(scratchKey);
    } catch (UnsupportedOperationException e) {
      return new Cleanup(false, "scratch left at " + where
          + ": this build has no " + config.backend() + " storage adapter yet; delete it by hand");
    } catch (StorageException e) {
      return new Cleanup(false, "scratch left at " + where + ": " + e.getMessage());
    }
    if (createdRoot) {
      // Leave the file system as we found it: a root the doctor made and that is empty again goes.
      try {
        Path scratchParent = config.localRoot().resolve(SCRATCH_PREFIX);
        Files.deleteIfExists(scratchParent);
        Files.deleteIfExists(config.localRoot());
      } catch (IOException notEmpty) {
        // Something else appeared under the root meanwhile; it is not ours to remove.
      }
    }
    return new Cleanup(true, "removed " + where);
  }

  private static void printText(
      PrintWriter out, StorageConfig config, LanceProbeReport report, Cleanup cleanup, Locations locations) {
    out.println("doctor: " + config.rootUri() + " (scratch " + report.datasetUri() + ")");
    int width = report.checks().stream().mapToInt(c -> c.name().length()).max().orElse(0);
    for (LanceProbeCheck check : report.checks()) {
      if (check.passed()) {
        out.printf("ok   %-" + width + "s  %5d ms  %s%n", check.name(), check.millis(), check.detail());
      } else {
        out.printf("FAIL %s: %s%n", check.name(), check.detail());
      }
    }
    out.println((cleanup.done() ? "cleanup: " : "cleanup WARNING: ") + cleanup.detail());
    printLocations(out, config, locations);
    boolean located = locations.report() != null || locations.error() != null;
    long failed = report.checks().stream().filter(c -> !c.passed()).count() + (locations.passed() ? 0 : 1);
    long total = report.checks().size() + (located ? 1 : 0);
    out.println(failed == 0
        ? "doctor: all " + total + " checks passed"
        : "doctor: " + failed + " of " + total + " checks failed");
  }

  private static ObjectNode toJson(StorageConfig config, LanceProbeReport report, Cleanup cleanup, Locations l) {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("store", config.rootUri());
    root.put("backend", config.backend().name().toLowerCase(Locale.ROOT));
    root.put("dataset", report.datasetUri());
    root.put("ok", report.passed() && l.passed());
    ArrayNode checks = root.putArray("checks");
    for (LanceProbeCheck check : report.checks()) {
      ObjectNode c = checks.addObject();
      c.put("name", check.name());
      c.put("ok", check.passed());
      c.put("millis", check.millis());
      c.put("detail", check.detail());
    }
    ObjectNode clean = root.putObject("cleanup");
    clean.put("done", cleanup.done());
    clean.put("detail", cleanup.detail());
    ObjectNode loc = root.putObject("root_locations");
    loc.put("ok", l.passed());
    loc.put("error", l.error());
    loc.set("report", l.report() == null ? null : mapper.valueToTree(l.report()));
    if (!l.passed() && l.error() == null) {
      loc.put("fix", "omnigraph relocate --store " + config.rootUri());
    }
    return root;
  }
}
