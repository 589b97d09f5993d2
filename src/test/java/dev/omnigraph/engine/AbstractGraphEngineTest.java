package dev.omnigraph.engine;

import dev.omnigraph.api.CommitPage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.manifest.ManifestTestSupport;
import dev.omnigraph.schema.SchemaParseException;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Init, open, snapshot, branches and lineage against real Lance, once per backend. */
abstract class AbstractGraphEngineTest {

  protected abstract StorageConfig newRoot() throws Exception;

  /** Every object key under the root with its content, to prove an operation wrote nothing. */
  protected abstract List<String> fingerprint(StorageConfig config) throws Exception;

  static String schemaText() {
    try (InputStream in = AbstractGraphEngineTest.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private StorageConfig config;

  @BeforeEach
  void root() throws Exception {
    config = newRoot();
  }

  @Test
  void initCreatesOneEmptyDatasetPerTypeAndAGenesisCommit() {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.of("act-init"))) {
      SnapshotOutput s = g.snapshot("main");
      assertThat(s.graphBranch()).isEqualTo("main");
      assertThat(s.internalSchemaVersion()).isEqualTo(6);
      assertThat(s.graphManifestVersion()).isEqualTo(2);
      assertThat(s.datasets()).extracting(SnapshotOutput.Dataset::entityKind, SnapshotOutput.Dataset::typeName)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("edge", "Knows"),
              org.assertj.core.groups.Tuple.tuple("edge", "WorksAt"),
              org.assertj.core.groups.Tuple.tuple("node", "Company"),
              org.assertj.core.groups.Tuple.tuple("node", "Person"));
      assertThat(s.datasets()).allSatisfy(d -> {
        assertThat(d.entityCount()).isZero();
        // Creation, then one CreateIndex commit per key index: id; and src, dst on edge tables.
        assertThat(d.publishedDatasetVersion()).isEqualTo(d.entityKind().equals("edge") ? 4 : 2);
        assertThat(d.nativeDatasetBranch()).isNull();
        assertThat(d.datasetPath()).matches("(nodes|edges)/[0-9a-f]{16}-[0-9a-f]{16}");
      });

      List<CommitOutput> commits = g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits();
      assertThat(commits).hasSize(1);
      assertThat(commits.get(0).actorId()).isEqualTo("act-init");
      assertThat(commits.get(0).parentCommitId()).isNull();
      assertThat(commits.get(0).graphManifestVersion()).isEqualTo(2);
      assertThat(g.commit(commits.get(0).graphCommitId())).isEqualTo(commits.get(0));
      assertThat(g.schema().schemaSource()).isEqualTo(schemaText());
      assertThat(g.branchList().branches()).containsExactly("main");
    }
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      assertThat(storage.exists(GraphInit.CLAIM_KEY)).as("claim released").isFalse();
      assertThat(storage.exists("_schema.pg")).isTrue();
      assertThat(storage.exists("_schema.ir.json")).isTrue();
      assertThat(storage.exists("__schema_state.json")).isTrue();
    }
  }

  @Test
  void aSecondInitIsRefusedAndAnInterruptedOneKeepsItsClaim() throws Exception {
    Omnigraph.init(config, schemaText(), Optional.empty()).close();
    assertThatThrownBy(() -> Omnigraph.init(config, schemaText(), Optional.empty()))
        .isInstanceOf(Conflict.class).hasMessageContaining("already exists");

    StorageConfig other = newRoot();
    try (StorageAdapter storage = StorageAdapters.open(other)) {
      storage.putText(GraphInit.CLAIM_KEY, "{\"operation_id\":\"interrupted\"}");
    }
    assertThatThrownBy(() -> Omnigraph.init(other, schemaText(), Optional.empty()))
        .isInstanceOf(Conflict.class).hasMessageContaining("init claim");
    assertThatThrownBy(() -> Omnigraph.open(other, OpenMode.READ_ONLY))
        .isInstanceOf(Conflict.class).hasMessageContaining("init claim");
    try (StorageAdapter storage = StorageAdapters.open(other)) {
      assertThat(storage.exists(GraphInit.CLAIM_KEY)).isTrue();
      assertThat(storage.exists("__manifest")).isFalse();
    }
  }

  @Test
  void anInvalidSchemaWritesNothing() throws Exception {
    assertThatThrownBy(() -> Omnigraph.init(config, "node Person { name: Strin @key }", Optional.empty()))
        .isInstanceOf(SchemaParseException.class).hasMessageContaining("1:");
    assertThat(fingerprint(config)).isEmpty();
  }

  @Test
  void openingAnEmptyRootIsNotFound() {
    assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_ONLY))
        .isInstanceOf(NotFound.class).hasMessageContaining("omnigraph init");
  }

  @Test
  void stampsOtherThanSixAreRefusedByBothOpenModes() throws Exception {
    for (int stamp : new int[] {5, 7}) {
      StorageConfig stamped = newRoot();
      ManifestTestSupport.createStamped(stamped, stamp);
      for (OpenMode mode : OpenMode.values()) {
        assertThatThrownBy(() -> Omnigraph.open(stamped, mode))
            .isInstanceOfSatisfying(UnsupportedStorageVersion.class, e -> {
              assertThat(e.found()).isEqualTo(stamp);
              assertThat(e.getMessage()).contains(stamp < 6 ? "rebuild via export/import" : "upgrade omnigraph");
            });
      }
    }
  }

  @Test
  void readOnlyOpenPerformsNoWrites() throws Exception {
    Omnigraph.init(config, schemaText(), Optional.empty()).close();
    List<String> before = fingerprint(config);
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      g.snapshot("main");
      g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT));
      g.branchList();
      assertThatThrownBy(() -> g.branchCreate("x", "main", Optional.empty())).isInstanceOf(InvalidRequest.class);
    }
    assertThat(fingerprint(config)).isEqualTo(before);
  }

  @Test
  void branchesForkTheManifestWithoutCopyingDataAndInheritLineage() {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.empty())) {
      String genesis = g.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId();
      var created = g.branchCreate("feature", (String) null, Optional.of("act-b"));
      assertThat(created.name()).isEqualTo("feature");
      assertThat(created.from()).isEqualTo("main");
      assertThat(created.actorId()).isEqualTo("act-b");
      assertThat(g.branchList().branches()).containsExactly("main", "feature");

      SnapshotOutput s = g.snapshot("feature");
      assertThat(s.graphBranch()).isEqualTo("feature");
      assertThat(s.datasets()).hasSize(4).allSatisfy(d -> assertThat(d.nativeDatasetBranch()).isNull());
      assertThat(g.commits("feature", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).extracting(CommitOutput::graphCommitId).containsExactly(genesis);

      assertThatThrownBy(() -> g.branchCreate("feature/nested", "main", Optional.empty()))
          .isInstanceOf(Conflict.class).hasMessageContaining("overlaps live branch 'feature'");
    }
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      assertThatThrownBy(() -> g.branchCreate("feature", "main", Optional.empty()))
          .isInstanceOf(Conflict.class).hasMessageContaining("already exists");
      assertThatThrownBy(() -> g.branchCreate("bad name", "main", Optional.empty()))
          .isInstanceOf(InvalidRequest.class);
      assertThatThrownBy(() -> g.branchCreate("x", "nope", Optional.empty()))
          .isInstanceOf(NotFound.class);
      g.branchCreate("feature2", "feature", Optional.empty());
      assertThat(g.snapshot("feature2").datasets()).hasSize(4);
      assertThatThrownBy(() -> g.branchDelete("feature", Optional.empty()))
          .isInstanceOf(Conflict.class).hasMessageContaining("feature2");
      g.branchDelete("feature2", Optional.empty());
      g.branchDelete("feature", Optional.empty());
      assertThat(g.branchList().branches()).containsExactly("main");
      assertThatThrownBy(() -> g.branchDelete("feature", Optional.empty())).isInstanceOf(NotFound.class);
      assertThatThrownBy(() -> g.branchDelete("main", Optional.empty())).isInstanceOf(InvalidRequest.class);

      // Same-name re-create after delete: a new incarnation that opens cleanly.
      g.branchCreate("feature", "main", Optional.empty());
      assertThat(g.snapshot("feature").datasets()).hasSize(4);
    }
  }

  @Test
  void branchNamesLanceOrTheStoreWouldRefuseAreInvalidBeforeAnyEffect() throws Exception {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.empty())) {
      List<String> before = fingerprint(config);
      for (String name : List.of("main", "MAIN", "a" + "/a".repeat(99), "b".repeat(147) + "/b".repeat(26))) {
        assertThatThrownBy(() -> g.branchCreate(name, "main", Optional.empty())).as(name)
            .isInstanceOf(InvalidRequest.class);
      }
      assertThat(fingerprint(config)).isEqualTo(before);
      assertThat(g.branchList().branches()).containsExactly("main");
      // 250 once encoded ('/' is %2F in Lance's ref file name): the longest the store holds.
      String atLimit = "b".repeat(150) + "/b".repeat(25);
      g.branchCreate(atLimit, "main", Optional.empty());
      assertThat(g.snapshot(atLimit).datasets()).hasSize(4);
      g.branchDelete(atLimit, Optional.empty());
    }
  }

  @Test
  void createReclaimsAnAbsentRefTreeLeftByAnInterruptedCreate() {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.empty());
        StorageAdapter storage = StorageAdapters.open(config)) {
      // Lance clones tree/<name> before it writes the branch contents: a crash between the two
      // leaves a tree no ref names.
      storage.putText("__manifest/tree/ghost/_versions/1.manifest", "torn clone");
      storage.putText("__manifest/tree/ghost/data/stale.lance", "junk");
      assertThat(g.branchList().branches()).containsExactly("main");

      g.branchCreate("ghost", "main", Optional.empty());

      assertThat(g.branchList().branches()).containsExactly("main", "ghost");
      assertThat(g.snapshot("ghost").datasets()).hasSize(4);
      assertThat(storage.exists("__manifest/tree/ghost/data/stale.lance")).isFalse();
      g.branchDelete("ghost", Optional.empty());
      assertThat(storage.exists("__manifest/tree/ghost")).isFalse();
    }
  }

  @Test
  void ambiguousNativeBranchResultsAreClassifiedFromFreshState() throws Exception {
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.empty())) {
      // The native create landed but reported an error: our exact branch is there, so accept it.
      try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("manifest.branch_create.after_native")) {
        g.branchCreate("ambiguous", "main", Optional.empty());
      }
      assertThat(g.branchList().branches()).containsExactly("main", "ambiguous");

      // The native delete removed the ref but reported an error: an absent ref is success.
      try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("manifest.branch_delete.after_native")) {
        g.branchDelete("ambiguous", Optional.empty());
      }
      assertThat(g.branchList().branches()).containsExactly("main");

      // Deleted and re-created under us between capture and the native delete: a typed conflict.
      g.branchCreate("recycled", "main", Optional.empty());
      java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
      try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enable("manifest.branch_delete.before_native", () -> {
            if (once.compareAndSet(false, true)) {
              // Simulates another process (no shared gates): recreate the branch natively.
              try (StorageAdapter s = StorageAdapters.open(config)) {
                dev.omnigraph.manifest.GraphManifest foreign = new dev.omnigraph.manifest.GraphManifest(config, s);
                foreign.deleteBranch("recycled");
                foreign.createBranch("recycled", "main", live -> { });
              }
              throw new IllegalStateException("native delete interrupted");
            }
          })) {
        assertThatThrownBy(() -> g.branchDelete("recycled", Optional.empty()))
            .isInstanceOf(Conflict.class).hasMessageContaining("deleted and re-created");
      }
      assertThat(g.branchList().branches()).containsExactly("main", "recycled");
    }
  }

  @Test
  void handlesOnDifferentSpellingsOfOneRootShareGates() throws Exception {
    Omnigraph.init(config, schemaText(), Optional.empty()).close();
    // Spelled with a trailing slash, canonicalised by fromEnvironment; the fixture's endpoint kept.
    StorageConfig spelled = config.withRoot(
        StorageConfig.fromEnvironment(config.rootUri() + "/", java.util.Map.of()).rootUri());
    try (Omnigraph a = Omnigraph.open(config, OpenMode.READ_ONLY);
        Omnigraph b = Omnigraph.open(spelled, OpenMode.READ_ONLY)) {
      assertThat(b.root()).isSameAs(a.root());
      assertThat(b.root().gates()).isSameAs(a.root().gates());
      assertThat(b.root().manifests()).isSameAs(a.root().manifests());
    }
  }

  @Test
  void closingTheLastHandleOfARootReleasesItAndTheNextOpenStartsCold() throws Exception {
    Omnigraph.init(config, schemaText(), Optional.empty()).close();
    assertThat(GraphRoots.shared().peek(config.rootUri())).isEmpty();
    GraphRoot first;
    try (Omnigraph writer = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      first = writer.root();
      try (Omnigraph reader = Omnigraph.open(config, OpenMode.READ_ONLY)) {
        assertThat(reader.root()).isSameAs(first);
      }
      Omnigraph twice = Omnigraph.open(config, OpenMode.READ_ONLY);
      twice.close();
      twice.close(); // gives its reference back once: the writer's close below must not find it gone
      // One handle still open: the root, its caches and its writer lease stay.
      assertThat(GraphRoots.shared().peek(config.rootUri())).containsSame(first);
      assertThat(GraphRoots.shared().leaseStatus(config.rootUri())).hasValueSatisfying(l -> assertThat(l.held()).isTrue());
    }
    assertThat(GraphRoots.shared().peek(config.rootUri())).isEmpty();
    assertThat(GraphRoots.shared().leaseStatus(config.rootUri())).isEmpty();
    try (Omnigraph again = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      assertThat(again.root()).isNotSameAs(first);
      assertThat(again.root().gates()).isNotSameAs(first.gates());
    }
  }

  @Test
  void aRegistryOfItsOwnSharesNothingWithTheDefaultOne() throws Exception {
    Omnigraph.init(config, schemaText(), Optional.empty()).close();
    GraphRoots own = new GraphRoots();
    try (Omnigraph mine = Omnigraph.open(own, config, OpenMode.READ_ONLY,
        dev.omnigraph.api.maintenance.OptimizeSettings.fromSystemProperties(),
        dev.omnigraph.api.lease.LeaseSettings.fromSystemProperties());
        Omnigraph shared = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      assertThat(mine.root()).isNotSameAs(shared.root());
      assertThat(own.openRoots()).isEqualTo(1);
      assertThat(mine.snapshot("main").graphManifestVersion()).isEqualTo(shared.snapshot("main").graphManifestVersion());
    }
    assertThat(own.openRoots()).isZero();
  }
}
