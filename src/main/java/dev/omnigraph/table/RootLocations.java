package dev.omnigraph.table;

import dev.omnigraph.api.storage.RelocationReport;
import dev.omnigraph.api.storage.LocationReference;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.RootRelocated;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jboss.logging.Logger;

/**
 * Makes a graph root relocatable: finds, and rewrites, the dataset locations Lance records in the
 * files under it.
 *
 * <p>Why this is needed (docs/maintenance.md, "Copying, backing up and moving a graph root"): Lance writes a native branch (ours: every graph branch in
 * {@code __manifest/tree/<b>/}, every forked table in {@code <table>/tree/<b>/}) as a shallow clone
 * of its parent, and the clone's manifests name the parent by its absolute path or URI
 * ({@link RecordedLocations}). Lance 7 resolves that string as is, against no base: a relative one
 * would be resolved against the process's working directory, and an S3 one cannot be relative at
 * all; lance-java's {@code createBranch} has no option to leave it out. So after a copy or move of
 * the root every branch reads its inherited rows from the old place: wrong once that place changes,
 * failing once it is gone.
 *
 * <p>Only a clone records a location, and OmniGraph clones only by creating branches, so only files
 * under a {@code tree/} are read. A recorded location is this root's own when it is the dataset's
 * location under this root ({@link StorageConfig#lanceUri}) or one of that dataset's branches
 * ({@code …/tree/<b>}); anything else points outside. It is <em>relocatable</em> when it names the
 * same dataset under another root ({@code <old root>/<dataset>[/tree/<b>]}), and is then rewritten
 * to that dataset under this root, spelled as Lance spells it for this root.
 *
 * <p>Crash safety and idempotence: every rewrite is a whole-object replace
 * ({@link StorageAdapter#put}: atomic rename locally, one {@code PutObject} on S3) of a file that
 * keeps its meaning (the same manifest, naming this root), a file already naming this root is left
 * alone, and the file the open-time {@link #probe} reads is written last. So a relocation stopped
 * part way still probes as moved, and the next run finishes the job. The branch and tag refs in
 * {@code _refs/} record the size of the manifest they point at; those are brought up to the
 * rewritten sizes before the probed file is written.
 *
 * <p>Run it with no writer or open handle on the root (the engine takes the writer lease and every
 * gate, and forgets this process's cached handles and Lance session of the root afterwards).
 */
public final class RootLocations {

  private static final Logger LOG = Logger.getLogger(RootLocations.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TREE = "/tree/";
  private static final String VERSIONS = "/_versions/";
  private static final String TRANSACTIONS = "/_transactions/";
  private static final String BRANCH_REFS = "/_refs/branches/";
  private static final String TAG_REFS = "/_refs/tags/";

  private RootLocations() {}

  /**
   * The cheap check an open makes: the newest manifest of one graph branch of {@code __manifest}
   * (the first branch ref that has one). A copied or moved root carries its branches' recorded
   * locations together, so one of them tells; {@link #scan} reads them all. Costs one listing with
   * no graph branch, two listings and one read with some.
   *
   * @throws RootRelocated when that manifest names another location (nothing else is read)
   */
  public static void probe(StorageConfig config, StorageAdapter storage) {
    Optional<String> key = probeKey(storage);
    if (key.isEmpty()) {
      return;
    }
    List<LocationReference> outside = new ArrayList<>();
    check(config, key.get(), storage.read(key.get()), outside);
    if (!outside.isEmpty()) {
      throw relocated(config, outside);
    }
  }

  /** Every outside location under the root; writes nothing. */
  public static RelocationReport scan(StorageConfig config, StorageAdapter storage) {
    return run(config, storage, true, new LanceRoot(config.rootUri()));
  }

  /**
   * Rewrites every relocatable outside location under the root to this root (see the class
   * comment); with {@code dryRun} only reports what it would rewrite. Idempotent. {@code lance} is
   * the root's table part, whose session forgets the manifests the rewrite replaced.
   */
  public static RelocationReport relocate(StorageConfig config, StorageAdapter storage, boolean dryRun, LanceRoot lance) {
    return run(config, storage, dryRun, lance);
  }

  /** The typed refusal for a root whose files name {@code outside}. */
  public static RootRelocated relocated(StorageConfig config, List<LocationReference> outside) {
    LocationReference first = outside.get(0);
    List<String> roots = outside.stream().map(LocationReference::recordedRoot).filter(r -> r != null).distinct().sorted()
        .toList();
    return new RootRelocated(config.rootUri(), roots, first.file(), first.recorded());
  }

  private static RelocationReport run(StorageConfig config, StorageAdapter storage, boolean dryRun, LanceRoot lance) {
    List<String> keys = storage.list("");
    List<LocationReference> outside = new ArrayList<>();
    Map<String, byte[]> rewrites = new LinkedHashMap<>();
    // (dataset, branch, version) -> size of that branch manifest after the rewrites
    Map<String, Integer> manifestSizes = new HashMap<>();
    int checked = 0;
    for (String key : keys) {
      boolean manifest = isBranchFile(key, VERSIONS, ".manifest");
      if (!manifest && !isBranchFile(key, TRANSACTIONS, ".txn")) {
        continue;
      }
      checked++;
      byte[] bytes = storage.read(key);
      byte[] rewritten = check(config, key, bytes, outside);
      if (rewritten != bytes) {
        rewrites.put(key, rewritten);
      }
      if (manifest) {
        versionOf(key).ifPresent(v -> manifestSizes.put(sizeKey(datasetOf(key), branchOf(key), v), rewritten.length));
      }
    }
    Map<String, byte[]> refs = refUpdates(storage, keys, manifestSizes);
    if (!dryRun && (!rewrites.isEmpty() || !refs.isEmpty())) {
      // The probed file goes last: until it is written an open still sees a moved root.
      Optional<String> probed = probeKey(storage).filter(rewrites::containsKey);
      for (Map.Entry<String, byte[]> e : rewrites.entrySet()) {
        if (probed.isEmpty() || !e.getKey().equals(probed.get())) {
          storage.put(e.getKey(), e.getValue());
        }
      }
      refs.forEach(storage::put);
      probed.ifPresent(k -> storage.put(k, rewrites.get(k)));
      // Lance caches manifests by path and version: this process must not read the old ones again.
      PinnedHandles.forgetRoot(config);
      lance.forgetSession();
      LOG.infof("relocated %s: %d Lance files and %d refs rewritten (they named %s)", config.rootUri(),
          rewrites.size(), refs.size(), outside.stream().map(LocationReference::recordedRoot).distinct().toList());
    }
    return new RelocationReport(config.rootUri(), dryRun, checked, outside, List.copyOf(rewrites.keySet()),
        List.copyOf(refs.keySet()));
  }

  /**
   * Records in {@code outside} every location {@code file} (at {@code key}) names outside the root,
   * and returns the file with the relocatable ones pointed at this root ({@code file} itself when
   * nothing changes or the file cannot be taken apart: an unreadable file is reported, never
   * rewritten).
   */
  private static byte[] check(StorageConfig config, String key, byte[] file, List<LocationReference> outside) {
    String dataset = datasetOf(key);
    java.util.function.UnaryOperator<String> map = recorded -> {
      if (own(config, dataset, recorded)) {
        return recorded;
      }
      Optional<String[]> moved = relocation(config, dataset, recorded);
      outside.add(new LocationReference(key, recorded, moved.map(m -> m[1]).orElse(null), moved.map(m -> m[0]).orElse(null)));
      return moved.map(m -> m[1]).orElse(recorded);
    };
    try {
      return key.endsWith(".manifest") ? RecordedLocations.rewriteManifest(file, map)
          : RecordedLocations.rewriteTransaction(file, map);
    } catch (RecordedLocations.Unreadable e) {
      LOG.warnf("cannot check the locations %s records: %s", key, e.getMessage());
      return file;
    }
  }

  /** Whether {@code recorded} is {@code dataset} under this root, or one of its branches. */
  private static boolean own(StorageConfig config, String dataset, String recorded) {
    String here = config.lanceUri(dataset);
    return recorded.equals(here) || recorded.startsWith(here + TREE);
  }

  /**
   * {@code recorded} as {@code <old root>/<dataset>[/tree/<b>]}: the old root and the same place
   * under this root; empty when it names no such place.
   */
  private static Optional<String[]> relocation(StorageConfig config, String dataset, String recorded) {
    String tail = "/" + dataset;
    int at = recorded.endsWith(tail) ? recorded.length() - tail.length() : recorded.indexOf(tail + TREE);
    if (at <= 0) {
      return Optional.empty();
    }
    String oldRoot = recorded.substring(0, at);
    String suffix = recorded.substring(at + 1); // <dataset>[/tree/<b>]
    return Optional.of(new String[] {oldRoot, config.lanceUri(suffix)});
  }

  /**
   * The {@code manifestSize} of every branch and tag ref that points at a branch manifest whose size
   * the rewrites change (Lance records it beside the version), as the new ref files.
   */
  private static Map<String, byte[]> refUpdates(StorageAdapter storage, List<String> keys,
      Map<String, Integer> manifestSizes) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (String key : keys) {
      boolean branchRef = key.contains(BRANCH_REFS) && key.endsWith(".json");
      boolean tagRef = key.contains(TAG_REFS) && key.endsWith(".json");
      if (!branchRef && !tagRef) {
        continue;
      }
      String dataset = key.substring(0, key.indexOf(branchRef ? BRANCH_REFS : TAG_REFS));
      JsonNode node;
      try {
        node = JSON.readTree(storage.read(key));
      } catch (IOException e) {
        LOG.warnf("cannot read Lance ref %s: %s", key, e.getMessage());
        continue;
      }
      JsonNode branch = node.get(branchRef ? "parentBranch" : "branch");
      JsonNode version = node.get(branchRef ? "parentVersion" : "version");
      JsonNode size = node.get("manifestSize");
      if (!(node instanceof ObjectNode obj) || branch == null || !branch.isTextual() || version == null
          || !version.canConvertToLong() || size == null || !size.canConvertToLong()) {
        continue; // a ref on main (no branch manifest is rewritten there) or of another shape
      }
      Integer now = manifestSizes.get(sizeKey(dataset, branch.asText(), version.asLong()));
      if (now != null && now.longValue() != size.asLong()) {
        obj.put("manifestSize", now.intValue());
        try {
          out.put(key, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(obj));
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  /**
   * The file {@link #probe} reads: the newest manifest of the first {@code __manifest} branch (by
   * ref name) that has one.
   */
  private static Optional<String> probeKey(StorageAdapter storage) {
    String refs = ManifestDataset.KEY + BRANCH_REFS;
    for (String ref : new TreeSet<>(storage.list(refs.substring(0, refs.length() - 1)))) {
      if (!ref.endsWith(".json")) {
        continue;
      }
      String name = URLDecoder.decode(ref.substring(refs.length(), ref.length() - ".json".length()),
          StandardCharsets.UTF_8);
      String dir = ManifestDataset.KEY + TREE + name + "/_versions";
      String newest = null;
      long newestVersion = Long.MIN_VALUE;
      for (String k : storage.list(dir)) {
        Optional<Long> v = k.startsWith(dir + "/") && k.indexOf('/', dir.length() + 1) < 0 ? versionOf(k)
            : Optional.empty();
        if (v.isPresent() && v.get() > newestVersion) {
          newestVersion = v.get();
          newest = k;
        }
      }
      if (newest != null) {
        return Optional.of(newest);
      }
    }
    return Optional.empty();
  }

  /** A manifest or transaction file of a Lance branch ({@code …/tree/<b>/_versions/…}). */
  private static boolean isBranchFile(String key, String dir, String suffix) {
    int tree = key.indexOf(TREE);
    int at = key.lastIndexOf(dir);
    return tree > 0 && at > tree && key.endsWith(suffix) && key.indexOf('/', at + dir.length()) < 0;
  }

  /** The dataset a Lance file belongs to: its key up to the first {@code /tree/}. */
  private static String datasetOf(String key) {
    int tree = key.indexOf(TREE);
    if (tree > 0) {
      return key.substring(0, tree);
    }
    int at = Math.max(key.lastIndexOf(VERSIONS), key.lastIndexOf(TRANSACTIONS));
    return at > 0 ? key.substring(0, at) : key;
  }

  /** The Lance branch of a file under {@code tree/} ({@code /} in a name is a directory level). */
  private static String branchOf(String key) {
    int tree = key.indexOf(TREE);
    return key.substring(tree + TREE.length(), key.lastIndexOf('/', key.lastIndexOf('/') - 1));
  }

  /**
   * The version a manifest file holds, from its name: Lance's V2 scheme names version {@code v}
   * {@code u64::MAX - v} in 20 digits (so the newest sorts first), V1 names it {@code v}.
   */
  private static Optional<Long> versionOf(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    if (!name.endsWith(".manifest")) {
      return Optional.empty();
    }
    String digits = name.substring(0, name.length() - ".manifest".length());
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    try {
      return Optional.of(digits.length() == 20 ? -1L - Long.parseUnsignedLong(digits) : Long.parseLong(digits));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String sizeKey(String dataset, String branch, long version) {
    return dataset + "\n" + branch + "\n" + version;
  }
}
