package dev.omnigraph.engine;

import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.write.LoadMode;
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
 */
abstract class AbstractRootCopyTest {

  protected abstract StorageConfig newRoot() throws Exception;

  /**
   * All checks (the local backend); S3 round trips are slow, so the S3 variant skips hashing every
   * object and writing a second copy, and keeps the copy, the template's deletion, and every read,
   * recovery, write, branch and fork on the copy.
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
        out.put("commit " + c, content(g.config(), g.snapshotAtCommit(c)));
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
      try (AutoCloseable fp = Failpoints.enableError("write.after_commits")) {
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
