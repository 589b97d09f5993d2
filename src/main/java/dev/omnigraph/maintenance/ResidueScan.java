package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.RepairReport.Residue;
import dev.omnigraph.api.maintenance.RepairReport.ResidueKind;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapter.Child;
import dev.omnigraph.table.LanceFiles;
import dev.omnigraph.table.NativeBranch;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Residue: what lies under a graph root that no commit, sidecar or branch explains (docs/maintenance.md, "Residue"). A LanceDB client pointed at the root took {@code __manifest} for its own directory catalog's
 * table of that name: it left transaction files no version commits and created
 * {@code nodes/__manifest} and {@code edges/__manifest}. Nothing of ours reads them, so they never
 * block a write or take readiness down; {@code repair} and {@code doctor} report them and
 * {@code cleanup} removes the ones it can prove safe.
 *
 * <p>What is <em>not</em> residue here, because something else already owns it:
 * <ul>
 *   <li>files inside a data table ({@code nodes/<id>}, {@code edges/<id>}): staged data and
 *       transaction files of our own interrupted or conflicting writes are Lance's garbage
 *       collection's, which {@code cleanup} runs with Lance's grace for unreferenced files;</li>
 *   <li>data-table Lance refs of deleted branches ({@link LeftoverRefs}) and drift (repair);</li>
 *   <li>a {@code __manifest/tree/<name>} without a ref (a branch create interrupted inside Lance's
 *       clone): the next create of that name reclaims it;</li>
 *   <li>sidecars and quarantined sidecars (recovery's).</li>
 * </ul>
 *
 * <p>The walk lists the layout level by level ({@link StorageAdapter#children}), never every object
 * of every table. Anything younger than the grace ({@value #GRACE_PROPERTY}, default one hour) is
 * left out: an in-flight write, of this process or another, may be creating it right now.
 */
final class ResidueScan {

  private static final Logger LOG = Logger.getLogger(ResidueScan.class);

  /** System property: how old unexplained residue must be before it is reported (ISO-8601). */
  static final String GRACE_PROPERTY = "omnigraph.maintenance.residue-grace";

  /**
   * One hour: a Lance commit writes its transaction file moments before its manifest, and a
   * writer's retries last seconds; an hour is far beyond both, and beyond clock skew between a
   * host and its object store.
   */
  static final Duration DEFAULT_GRACE = Duration.ofHours(1);

  /** Directories and objects of the layout at the root (docs/storage.md, "What is where"). */
  private static final Set<String> OWN_OBJECTS = Set.of("__lease.json", "__init_claim.json", "__schema_state.json",
      "_schema.pg", "_schema.ir.json");

  /** Directories of the layout whose content another component owns (sidecars, schema history). */
  private static final Set<String> OWN_DIRECTORIES = Set.of("__recovery", "__recovery_quarantine", "_schema_history");

  static final String MANIFEST = "__manifest";
  static final String AUDIT = "_graph_commit_recoveries.lance";
  static final String DOCTOR = "__doctor";
  private static final List<String> TABLE_DIRECTORIES = List.of("nodes", "edges");

  /** A table dataset's name: stable table id and incarnation, 16 hex digits each (TableIdentity). */
  private static final Pattern TABLE_NAME = Pattern.compile("[0-9a-f]{16}-[0-9a-f]{16}");

  private final Maintenance m;
  private final StorageAdapter storage;
  /** Anything last written after this may be in flight. */
  private final Instant cutoff;

  /** Locations every live branch registers; read once. */
  private Set<String> liveLocations;
  /** Locations every reachable commit registers; read only when a candidate needs it. */
  private Set<String> historicalLocations;

  ResidueScan(Maintenance m, StorageAdapter storage, Instant now, Duration grace) {
    this.m = m;
    this.storage = storage;
    this.cutoff = now.minus(grace);
  }

  /** The grace {@value #GRACE_PROPERTY} sets (ISO-8601, e.g. {@code PT1H}); the default otherwise. */
  static Duration grace() {
    String value = System.getProperty(GRACE_PROPERTY);
    if (value == null || value.isBlank()) {
      return DEFAULT_GRACE;
    }
    try {
      Duration d = Duration.parse(value.trim());
      if (d.isNegative()) {
        throw new IllegalArgumentException(GRACE_PROPERTY + " must not be negative: " + value);
      }
      return d;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(GRACE_PROPERTY + " is not an ISO-8601 duration (e.g. PT1H): " + value, e);
    }
  }

  /** Every unexplained file or directory older than the grace, in walk order. */
  List<Residue> find() {
    List<Residue> out = new ArrayList<>();
    for (Child c : storage.children("")) {
      String name = c.name();
      if (c.directory() && name.equals(MANIFEST)) {
        dataset(MANIFEST, out);
        for (NativeBranch b : m.manifest.branches()) {
          transactions(MANIFEST + "/tree/" + b.name(), MANIFEST + " (branch " + b.name() + ")", true, out);
        }
      } else if (c.directory() && name.equals(AUDIT)) {
        dataset(AUDIT, out);
      } else if (c.directory() && TABLE_DIRECTORIES.contains(name)) {
        tables(name, out);
      } else if (c.directory() && name.equals(DOCTOR)) {
        for (Child scratch : storage.children(DOCTOR)) {
          unexplained(DOCTOR + "/" + scratch.name(), scratch, ResidueKind.DOCTOR_SCRATCH,
              "scratch of an omnigraph doctor run that did not remove it", true, out);
        }
      } else if (c.directory() ? !OWN_DIRECTORIES.contains(name) : !OWN_OBJECTS.contains(name)) {
        // Not ours to remove: a stray entry at the top may be someone's data (a LanceDB table
        // "<name>.lance" created by a connect() on the root, a backup someone put here).
        unexplained(name, c, null, "not part of the graph root's layout", false, out);
      }
    }
    return out;
  }

  /**
   * Removes the removable ones through the storage adapter; a failure is logged and leaves the entry
   * for the next run.
   *
   * @return every entry of {@code found}, the removed ones marked
   */
  List<Residue> remove(List<Residue> found) {
    List<Residue> out = new ArrayList<>();
    for (Residue r : found) {
      if (!r.removable()) {
        out.add(r);
        continue;
      }
      try {
        if (r.directory()) {
          storage.deletePrefix(r.path());
        } else {
          storage.delete(r.path());
        }
        out.add(r.asRemoved());
        LOG.infof("cleanup: removed residue %s (%s)", r.path(), r.why());
      } catch (RuntimeException e) {
        LOG.warnf("cleanup: residue %s could not be removed, left for the next run: %s", r.path(), e.getMessage());
        out.add(r);
      }
    }
    return out;
  }

  /** One of our datasets: entries Lance does not make, and transaction files nothing commits. */
  private void dataset(String key, List<Residue> out) {
    for (Child c : storage.children(key)) {
      if (!LanceFiles.DATASET_ENTRIES.contains(c.name())) {
        // Inside our own dataset, yet not Lance's: left to an operator, since a newer Lance
        // release may have written it.
        unexplained(key + "/" + c.name(), c, null, "inside " + key + " but not part of a Lance dataset's layout",
            false, out);
      }
    }
    transactions(key, key, false, out);
  }

  /**
   * The transaction files of one dataset branch's directory that no version of it commits.
   *
   * <p>Every version's manifest names its transaction file {@code <read>-<uuid>.txn}: a commit of
   * version {@code v} is read from {@code v - 1}, and a branch's first version (Lance's clone) from
   * its own number. A read version with no more files than versions it explains is settled from the
   * names alone; only a read version with a file too many costs reads: the manifests from that
   * version on, until each of its files is found or none is left (so an old lost publish costs one
   * pass over the versions after it, once: cleanup removes it).
   *
   * @param tree whether {@code dir} is a branch's tree (its first version is a clone)
   */
  private void transactions(String dir, String what, boolean tree, List<Residue> out) {
    Map<Long, List<Child>> byRead = new TreeMap<>();
    Map<Child, LanceFiles.TransactionFile> parsed = new HashMap<>();
    for (Child c : storage.children(dir + "/_transactions")) {
      Optional<LanceFiles.TransactionFile> t = c.directory() ? Optional.empty() : LanceFiles.transactionFile(c.name());
      if (t.isPresent() && old(c)) {
        byRead.computeIfAbsent(t.get().readVersion(), k -> new ArrayList<>()).add(c);
        parsed.put(c, t.get());
      }
    }
    if (byRead.isEmpty()) {
      return;
    }
    Map<Long, String> manifests = new TreeMap<>();
    for (Child c : storage.children(dir + "/_versions")) {
      OptionalLong v = c.directory() ? OptionalLong.empty() : LanceFiles.manifestVersion(c.name());
      if (v.isPresent()) {
        manifests.put(v.getAsLong(), c.name());
      }
    }
    long first = manifests.isEmpty() ? Long.MAX_VALUE : manifests.keySet().iterator().next();
    Map<Long, Optional<String>> committed = new HashMap<>();
    for (Map.Entry<Long, List<Child>> e : byRead.entrySet()) {
      long read = e.getKey();
      int explained = (manifests.containsKey(read + 1) ? 1 : 0) + (tree && read == first ? 1 : 0);
      if (e.getValue().size() <= explained) {
        continue;
      }
      Set<String> wanted = new HashSet<>();
      e.getValue().forEach(c -> wanted.add(parsed.get(c).uuid()));
      for (Map.Entry<Long, String> v : manifests.entrySet()) {
        if (wanted.isEmpty()) {
          break;
        }
        if (v.getKey() < read) {
          continue;
        }
        Optional<String> uuid = committed.computeIfAbsent(v.getKey(),
            k -> LanceFiles.transactionUuidOf(storage.read(dir + "/_versions/" + v.getValue())));
        uuid.ifPresent(wanted::remove);
      }
      for (Child c : e.getValue()) {
        if (wanted.contains(parsed.get(c).uuid())) {
          out.add(new Residue(dir + "/_transactions/" + c.name(), false, ResidueKind.UNCOMMITTED_TRANSACTION,
              "no version of " + what + " commits it: a transaction planned on version " + read
                  + " that never landed (a publish that lost its compare-and-swap, or another writer's)",
              true, false));
        }
      }
    }
  }

  /** {@code nodes/} or {@code edges/}: every entry must be a table some state registers. */
  private void tables(String dir, List<Residue> out) {
    for (Child c : storage.children(dir)) {
      String path = dir + "/" + c.name();
      if (c.directory() && TABLE_NAME.matcher(c.name()).matches()) {
        if (!registered(path)) {
          // Named like ours, so perhaps a table whose every commit is gone: an operator decides.
          unexplained(path, c, ResidueKind.UNREGISTERED_TABLE,
              "named like a table, but no live branch, reachable commit or pending sidecar registers it", false, out);
        }
      } else {
        // Our own directory, and only names of the table-id shape are ever read in it.
        unexplained(path, c, null, dir + "/ holds only table datasets named <table id>-<incarnation>", true, out);
      }
    }
  }

  /**
   * Adds {@code path} when it is old enough: an object by its own time, a directory by its newest
   * object (a directory with none does not exist on S3, and is skipped here too). A null
   * {@code kind} is decided from the content: a Lance dataset, or a foreign entry.
   */
  private void unexplained(String path, Child c, ResidueKind kind, String why, boolean removable, List<Residue> out) {
    ResidueKind k = kind;
    if (c.directory()) {
      List<StorageAdapter.Listed> objects = storage.listDetailed(path);
      if (objects.isEmpty() || objects.stream().anyMatch(o -> o.lastModified().isAfter(cutoff))) {
        return;
      }
      if (k == null) {
        k = objects.stream().anyMatch(o -> o.key().startsWith(path + "/_versions/"))
            ? ResidueKind.FOREIGN_DATASET : ResidueKind.FOREIGN_ENTRY;
      }
    } else {
      if (!old(c)) {
        return;
      }
      k = k == null ? ResidueKind.FOREIGN_ENTRY : k;
    }
    out.add(new Residue(path, c.directory(), k, why, removable, false));
  }

  private boolean old(Child c) {
    return c.lastModified().map(t -> !t.isAfter(cutoff)).orElse(true);
  }

  /** Whether a live branch, or failing that any commit reachable from one, registers the table. */
  private boolean registered(String location) {
    if (liveLocations == null) {
      liveLocations = new HashSet<>();
      for (String branch : m.liveBranches()) {
        m.manifest.state(branch).tables().values().forEach(p -> liveLocations.add(p.location()));
      }
    }
    if (liveLocations.contains(location)) {
      return true;
    }
    if (historicalLocations == null) {
      // One state read per distinct commit, as cleanup's pin collection: paid only when a table
      // directory no live branch registers turns up (a type a schema change dropped, or residue).
      historicalLocations = new HashSet<>();
      Set<String> seen = new HashSet<>();
      for (String branch : m.liveBranches()) {
        BranchAuthority authority = m.manifest.capture(branch);
        for (GraphCommit c : m.manifest.history(authority)) {
          if (seen.add(c.id())) {
            ManifestState at = m.manifest.stateAt(c.branch(), c.manifestVersion());
            at.tables().values().forEach(p -> historicalLocations.add(p.location()));
          }
        }
      }
    }
    return historicalLocations.contains(location);
  }
}
