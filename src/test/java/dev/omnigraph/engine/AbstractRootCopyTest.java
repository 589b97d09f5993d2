package dev.omnigraph.engine;

import dev.omnigraph.api.storage.RelocationReport;
import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.RootRelocated;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.RootLocations;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The suites seed their graphs from per-class templates ({@link RootTemplates}): a copied root must be
 * the same graph and an independent one. The template here has everything the protocol keeps under a
 * root: commits on main, a graph branch (a Lance branch of {@code __manifest}) whose Person table is
 * forked (a Lance branch of a data table under {@code tree/}), and an armed sidecar in
 * {@code __recovery/}. After the copy the template is deleted, so anything the copy still reached
 * through a recorded absolute location would fail.
 *
 * <p>That first case never copies a Lance branch: templates hold main only, and its branch and
 * fork are made on the copy, after the copy, so they name the copy. It passed while a copied root
 * with branches read them from the old place (issue 44 item 4).
 * {@link #aCopiedRootWithBranchesIsRelocatedAndReadsEveryBranchAtEveryCommitFromItself} copies a
 * root with branches, a branch of a branch and tagged branch versions the way an operator does
 * ({@code cp -r}, {@code aws s3 sync}) to another place, deletes the original, and reads every
 * branch at every commit. On main before the fix its first read of a branch of the copy failed with
 * Lance's {@code Object at location <original>/nodes/…/data/….lance not found}.
 */
abstract class AbstractRootCopyTest {

  protected abstract StorageConfig newRoot() throws Exception;

  /**
   * An empty root somewhere else on the same backend (another directory, another prefix of the
   * same bucket), at another depth, so every recorded location changes length as well.
   */
  protected abstract StorageConfig movedRoot(StorageConfig original) throws Exception;

  /**
   * Where the branched graph is built: a root of this backend. S3 round trips are slow, so the S3
   * variant builds it on local disk and copies it to a new S3 prefix ({@link #copyRoot}), as an
   * operator syncs a local root to S3.
   */
  protected StorageConfig buildRoot() throws Exception {
    return newRoot();
  }

  /** Copies {@code from} to {@code to} as an operator does: {@code cp -r}, {@code aws s3 sync}. */
  protected void copyRoot(StorageConfig from, StorageConfig to) throws Exception {
    RootTemplates.copyAsIs(from, to);
  }

  /**
   * All checks (the local backend); S3 round trips are slow, so the S3 variant skips hashing every
   * object, writing a second copy, a second relocation and the time travel after the copy's cleanup
   * to commits other than the branch heads, and keeps the copy, the original's deletion, and every
   * read, recovery, write, branch, fork, merge and cleanup on the copy.
   */
  protected boolean thorough() {
    return true;
  }

  private static final String ACTOR = "act-copy";

  private static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}";
  }

  private static void load(Omnigraph g, String branch, String... lines) {
    g.load(branch, new StringReader(String.join("\n", lines)), LoadMode.APPEND, Optional.of(ACTOR));
  }

  /** Per type, the visible keys of a snapshot, read from Lance through {@code config}. */
  private static Map<String, Set<String>> content(StorageConfig config, SnapshotOutput s) {
    Map<String, Set<String>> out = new TreeMap<>();
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : s.datasets()) {
      boolean edge = d.entityKind().equals("edge");
      Set<String> keys = new TreeSet<>();
      tables.scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion(),
          Filter.TRUE, edge ? List.of("id", "src", "dst") : List.of("id"),
          r -> keys.add(edge ? r.get("src") + "->" + r.get("dst") : String.valueOf(r.get("id"))));
      out.put(d.typeName(), keys);
    }
    return out;
  }

  /** Everything a reader sees: per branch its snapshot, content and commits; per commit its content. */
  private static Map<String, Object> view(Omnigraph g, String... branches) {
    Map<String, Object> out = new TreeMap<>();
    for (String b : branches) {
      SnapshotOutput s = g.snapshot(b);
      out.put(b + " snapshot", s);
      out.put(b + " content", content(g.config(), s));
      List<String> commits = g.commits(b, CommitPage.first(CommitPage.MAX_LIMIT)).commits().stream().map(CommitOutput::graphCommitId).toList();
      out.put(b + " commits", commits);
      for (String c : commits) {
        if (!out.containsKey("commit " + c)) { // a parent's commits are in every child's history
          out.put("commit " + c, content(g.config(), g.snapshotAtCommit(c)));
        }
      }
    }
    out.put("branches", g.branchList());
    out.put("pending", g.pendingRecovery());
    return out;
  }

  private static List<String> fingerprint(StorageConfig config) throws Exception {
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return storage.list("").stream().sorted()
          .map(k -> k + " " + HexFormat.of().formatHex(sha.digest(storage.read(k))))
          .toList();
    }
  }

  /** A second copy is written to: neither the template nor the first copy changes. */
  private void assertCopiesAreIndependent(StorageConfig template, StorageConfig copy) throws Exception {
    List<String> templateFiles = fingerprint(template);
    assertThat(fingerprint(copy)).isEqualTo(templateFiles);
    StorageConfig other = newRoot();
    RootTemplates.copy(template, other);
    // Recovery, writes, a graph branch with a forked table.
    try (Omnigraph g = Omnigraph.open(other, OpenMode.READ_WRITE)) {
      assertThat(g.openRecovery()).singleElement().satisfies(o -> assertThat(o.auditKind()).isEqualTo("RolledBack"));
      load(g, "main", person("eve"));
      g.branchCreate("feature", "main", Optional.of(ACTOR));
      load(g, "feature", person("gus"), "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}");
      g.mutate("main", AbstractMutationTest.GQ, "add_person", new ObjectMapper().createObjectNode().put("name", "ivy"),
          Optional.of(ACTOR), Optional.empty());
      assertThat(content(other, g.snapshot("feature")).get("Person")).contains("gus", "eve");
    }
    assertThat(fingerprint(template)).isEqualTo(templateFiles);
    assertThat(fingerprint(copy)).isEqualTo(templateFiles);
  }

  @Test
  void aCopiedRootIsTheSameGraphAndAnIndependentOne() throws Exception {
    StorageConfig template = newRoot();
    try (Omnigraph g = Omnigraph.init(template, AbstractGraphEngineTest.schemaText(), Optional.of(ACTOR))) {
      load(g, "main", person("ann"), person("bob"), "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"bob\"}");
      load(g, "main", person("cy"));
      // An armed sidecar whose Person commit landed: the next read-write open rolls it back.
      try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
        assertThat(catchThrowableOfType(RecoveryRequired.class, () -> load(g, "main", person("dan")))).isNotNull();
      }
    }
    Map<String, Object> templateView;
    try (Omnigraph g = Omnigraph.open(template, OpenMode.READ_ONLY)) {
      templateView = view(g, "main");
    }
    assertThat((List<?>) templateView.get("pending")).hasSize(1);
    assertThat((List<?>) templateView.get("main commits")).hasSize(3);
    StorageConfig copy = newRoot();
    RootTemplates.copy(template, copy);
    if (thorough()) {
      assertCopiesAreIndependent(template, copy);
    }

    // With the template gone, the copy reads every commit exactly as the template did.
    RootTemplates.delete(template);
    try (StorageAdapter s = StorageAdapters.open(template)) {
      assertThat(s.list("")).isEmpty();
    }
    try (Omnigraph g = Omnigraph.open(copy, OpenMode.READ_ONLY)) {
      assertThat(view(g, "main")).isEqualTo(templateView);
    }
    // And it recovers, writes, branches (a Lance branch of __manifest), forks a table on the branch
    // (a Lance branch of a data table), writes a first-touch table there, and time-travels.
    try (Omnigraph g = Omnigraph.open(copy, OpenMode.READ_WRITE)) {
      assertThat(g.openRecovery()).singleElement().satisfies(o -> assertThat(o.auditKind()).isEqualTo("RolledBack"));
      load(g, "main", person("eve"));
      g.branchCreate("feature", "main", Optional.of(ACTOR));
      load(g, "feature", person("fay"));
      load(g, "feature", person("gus"), "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}");
      assertThat(g.snapshot("feature").datasets())
          .anySatisfy(d -> assertThat(d.nativeDatasetBranch()).isEqualTo("feature"));
      assertThat(content(copy, g.snapshot("main")).get("Person")).containsExactlyInAnyOrder("ann", "bob", "cy", "eve");
      assertThat(content(copy, g.snapshot("feature")).get("Person"))
          .containsExactlyInAnyOrder("ann", "bob", "cy", "eve", "fay", "gus");
      assertThat(content(copy, g.snapshot("feature")).get("Company")).containsExactly("initech");
      Map<String, Object> after = view(g, "main", "feature");
      for (Object commit : (List<?>) templateView.get("main commits")) {
        assertThat(after.get("commit " + commit)).isEqualTo(templateView.get("commit " + commit));
      }
      assertThat(g.pendingRecovery()).isEmpty();
    }
  }

  private static String knows(String from, String to) {
    return "{\"edge\":\"Knows\",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}";
  }

  private static String company(String name) {
    return "{\"type\":\"Company\",\"data\":{\"name\":\"" + name + "\"}}";
  }

  private static final String[] BRANCHES = {"main", "f", "g", "h"};

  /**
   * Three branches besides main, each with writes of its own: {@code f} and {@code h} from main,
   * {@code g} from {@code f} (its table branches are clones of clones, naming two parents), and main
   * and {@code f} moving on after the forks. A cleanup tags every pinned version, branch versions
   * included (Lance's tag refs record the size of the manifest they name).
   */
  private static void buildBranchedGraph(StorageConfig root) {
    try (Omnigraph g = Omnigraph.init(root, AbstractGraphEngineTest.schemaText(), Optional.of(ACTOR))) {
      load(g, "main", person("ann"), person("bob"), knows("ann", "bob"));
      load(g, "main", person("cy"));
      g.branchCreate("f", "main", Optional.of(ACTOR));
      load(g, "f", person("fay"));
      load(g, "f", person("fred"), knows("fay", "ann"));
      load(g, "f", company("fabrik"));
      g.branchCreate("g", "f", Optional.of(ACTOR));
      load(g, "g", person("gus"));
      load(g, "g", company("globex"), knows("gus", "fay"));
      load(g, "g", person("gia"));
      load(g, "f", person("flo"));
      g.branchCreate("h", "main", Optional.of(ACTOR));
      load(g, "h", person("hal"));
      load(g, "h", person("hugo"), knows("hal", "bob"));
      load(g, "main", person("dan"));
      g.mutate("main", AbstractMutationTest.GQ, "add_person", new ObjectMapper().createObjectNode().put("name", "ivy"),
          Optional.of(ACTOR), Optional.empty());
      load(g, "main", person("jo"), knows("jo", "cy"));
      load(g, "g", person("gil"));
      load(g, "h", company("hooli"));
      load(g, "f", person("fin"));
      load(g, "h", person("hana"));
      load(g, "main", person("kay"));
      g.cleanup(false);
    }
  }

  @Test
  void aCopiedRootWithBranchesIsRelocatedAndReadsEveryBranchAtEveryCommitFromItself() throws Exception {
    StorageConfig original = buildRoot();
    buildBranchedGraph(original);
    Map<String, Object> before;
    try (Omnigraph g = Omnigraph.open(original, OpenMode.READ_ONLY)) {
      before = view(g, BRANCHES);
    }
    Set<Object> commits = new TreeSet<>();
    for (String b : BRANCHES) {
      commits.addAll((List<?>) before.get(b + " commits"));
    }
    assertThat(commits).hasSizeGreaterThanOrEqualTo(20);
    assertThat(before.keySet().stream().filter(k -> k.startsWith("commit "))).hasSameSizeAs(commits);
    assertThat(before.get("g content")).isEqualTo(Map.of(
        "Company", Set.of("fabrik", "globex"), "Person", Set.of("ann", "bob", "cy", "fay", "fred", "gus", "gia", "gil"),
        "Knows", Set.of("ann->bob", "fay->ann", "gus->fay"), "WorksAt", Set.of()));

    StorageConfig copy = movedRoot(original);
    copyRoot(original, copy);
    List<String> copied = thorough() ? fingerprint(copy) : List.of();
    if (thorough()) {
      assertAReadWriteOpenRelocatesACopyItselfAndLeavesTheOriginalAlone(original, before);
    }
    RootTemplates.delete(original);
    String oldRoot = original.lanceUri("");

    // A read never reaches the old place: our typed refusal, naming it and the fix, before any read.
    RootRelocated refused = catchThrowableOfType(RootRelocated.class, () -> Omnigraph.open(copy, OpenMode.READ_ONLY));
    assertThat(refused).isNotNull();
    assertThat(refused.recordedRoots()).containsExactly(oldRoot);
    assertThat(refused.file()).startsWith("__manifest/tree/");
    assertThat(refused.getMessage()).contains("omnigraph relocate --store " + copy.rootUri());
    assertThat(ErrorKind.of(refused)).isEqualTo(ErrorKind.CONFLICT);

    // What doctor reports: every outside location, each relocatable into the copy; nothing written.
    RelocationReport found = Omnigraph.relocate(copy, true);
    assertThat(found.clean()).isFalse();
    assertThat(found.recordedRoots()).containsExactly(oldRoot);
    assertThat(found.unrelocatable()).isEmpty();
    assertThat(found.outside()).allSatisfy(r -> {
      assertThat(r.file()).contains("/tree/");
      assertThat(r.recorded()).startsWith(oldRoot + "/");
      assertThat(r.relocatedTo()).isEqualTo(copy.lanceUri(r.recorded().substring(oldRoot.length() + 1)));
    });
    // Graph branches (__manifest) and forked tables, from main and from a branch (g's parent f).
    assertThat(found.outside()).anyMatch(r -> r.file().startsWith("__manifest/tree/g/"))
        .anyMatch(r -> r.file().startsWith("nodes/") && r.recorded().endsWith("/tree/f"))
        .anyMatch(r -> r.file().endsWith(".txn"));
    if (thorough()) {
      assertThat(fingerprint(copy)).isEqualTo(copied);
    }

    RelocationReport done = Omnigraph.relocate(copy, false);
    assertThat(done.filesRewritten()).isEqualTo(found.filesRewritten());
    // The copy sits deeper than the original: the rewritten manifests grew, so the branch and tag
    // refs that record their sizes were brought up to date.
    assertThat(done.refsUpdated()).isNotEmpty().allMatch(k -> k.contains("/_refs/"));
    if (thorough()) {
      assertThat(Omnigraph.relocate(copy, false).filesRewritten()).isEmpty(); // idempotent
    }

    try (Omnigraph g = Omnigraph.open(copy, OpenMode.READ_ONLY)) {
      assertThat(view(g, BRANCHES)).isEqualTo(before);
    }
    assertWritesMergesAndCleansUp(copy, before);
  }

  /**
   * Without the explicit command: a read-write open of another copy relocates it before it reads a
   * branch, and the original, still there, is not touched.
   */
  private void assertAReadWriteOpenRelocatesACopyItselfAndLeavesTheOriginalAlone(StorageConfig original,
      Map<String, Object> before) throws Exception {
    List<String> originalFiles = fingerprint(original);
    StorageConfig other = movedRoot(original);
    RootTemplates.copyAsIs(original, other);
    try (Omnigraph g = Omnigraph.open(other, OpenMode.READ_WRITE)) {
      assertThat(g.snapshot("g")).isEqualTo(before.get("g snapshot"));
      assertThat(content(other, g.snapshot("g"))).isEqualTo(before.get("g content"));
      load(g, "g", person("gwen"));
      assertThat(content(other, g.snapshot("g")).get("Person")).contains("gwen", "gus", "fay", "ann");
    }
    assertThat(Omnigraph.relocate(other, true).clean()).isTrue();
    assertThat(fingerprint(original)).isEqualTo(originalFiles);
  }

  /** On the relocated copy: a write on a branch of a branch, a merge, a new fork, cleanup. */
  private void assertWritesMergesAndCleansUp(StorageConfig copy, Map<String, Object> before) {
    Set<String> heads = new TreeSet<>();
    for (String b : BRANCHES) {
      heads.add((String) ((List<?>) before.get(b + " commits")).get(0));
    }
    try (Omnigraph g = Omnigraph.open(copy, OpenMode.READ_WRITE)) {
      load(g, "g", person("gwen"));
      g.branchMerge("g", "main", false, Optional.of(ACTOR));
      g.branchCreate("k", "g", Optional.of(ACTOR));
      load(g, "k", person("kim"));
      g.cleanup(false);
      assertThat(content(copy, g.snapshot("main")).get("Person")).containsExactlyInAnyOrder(
          "ann", "bob", "cy", "dan", "ivy", "jo", "kay", "fay", "fred", "gus", "gia", "gil", "gwen");
      assertThat(content(copy, g.snapshot("k")).get("Person")).containsExactlyInAnyOrder(
          "ann", "bob", "cy", "fay", "fred", "gus", "gia", "gil", "gwen", "kim");
      assertThat(content(copy, g.snapshot("f"))).isEqualTo(before.get("f content"));
      assertThat(content(copy, g.snapshot("h"))).isEqualTo(before.get("h content"));
      // Time travel still reads every commit the original had, after the copy's cleanup too (on S3
      // the branch heads' commits: every commit was read from the copy before its cleanup).
      for (String key : before.keySet()) {
        if (key.startsWith("commit ") && (thorough() || heads.contains(key.substring("commit ".length())))) {
          String c = key.substring("commit ".length());
          assertThat(content(copy, g.snapshotAtCommit(c))).as(key).isEqualTo(before.get(key));
        }
      }
    }
    assertThat(Omnigraph.relocate(copy, true).clean()).isTrue();
  }

  /**
   * Why templates hold only main: Lance writes a branch's manifests (under {@code tree/<branch>/})
   * with the parent dataset's absolute URI as a base path, to reach the files the branch shares with
   * its parent. A copy of such a root would still read the template's files, and break when the
   * template goes. {@link RootTemplates#copy} refuses it; this test notices if Lance stops recording
   * the location (then branch states could be templated too).
   */
  @Test
  void lanceBranchManifestsRecordTheAbsoluteRootSoARootWithBranchesIsNotCopied() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(thorough(), "checked on the local backend");
    StorageConfig root = newRoot();
    try (Omnigraph g = Omnigraph.init(root, AbstractGraphEngineTest.schemaText(), Optional.of(ACTOR))) {
      load(g, "main", person("ann"));
      g.branchCreate("feature", "main", Optional.of(ACTOR));
      load(g, "feature", person("fay"));
    }
    String location = root.backend() == StorageConfig.Backend.LOCAL ? root.localRoot().toString()
        : root.bucket() + "/" + root.prefix();
    try (StorageAdapter s = StorageAdapters.open(root)) {
      List<String> branchManifests = s.list("").stream()
          .filter(k -> k.contains("/tree/feature/_versions/") && k.endsWith(".manifest")).toList();
      // The __manifest branch (the graph branch) and the forked Person table's branch.
      assertThat(branchManifests).anyMatch(k -> k.startsWith("__manifest/")).anyMatch(k -> k.startsWith("nodes/"));
      for (String k : branchManifests) {
        assertThat(new String(s.read(k), java.nio.charset.StandardCharsets.ISO_8859_1)).as(k).contains(location);
      }
    }
    StorageConfig copy = newRoot();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RootTemplates.copy(root, copy))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tree/");
  }
}
