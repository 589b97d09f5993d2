package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.GraphCommit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The publisher's CAS contract against real Lance, on each backend. */
abstract class AbstractManifestPublisherTest {

  protected abstract StorageConfig newRoot() throws Exception;

  private StorageConfig config;
  private ManifestBatchPublisher publisher;
  private static final TableIdentity PERSON = new TableIdentity(1, 1);

  @BeforeEach
  void createManifest() throws Exception {
    config = newRoot();
    ManifestDataset.create(config, ManifestColumns.schema());
    publisher = new ManifestBatchPublisher(config);
  }

  private ManifestBatchPublisher.Intent intent(String branch, Optional<String> identity,
      Optional<String> head, long tableVersion, long rows) {
    return new ManifestBatchPublisher.Intent(branch, identity, head,
        head.isEmpty()
            ? List.of(new ManifestBatchPublisher.TableRegistration(TableKey.node("Person"), PERSON, PERSON.path(false)))
            : List.of(),
        List.of(new TableVersionUpdate(TableKey.node("Person"), PERSON, PERSON.path(false), tableVersion, Optional.empty(), rows)),
        Ulid.next(), Optional.of("act-test"), Optional.empty(), System.currentTimeMillis() * 1000);
  }

  private ManifestState state(String branch) {
    try (ManifestDataset m = ManifestDataset.open(config,
        branch.equals("main") ? Optional.empty() : Optional.of(branch), OptionalLong.empty())) {
      return ManifestReader.read(m, branch);
    }
  }

  /** The branch's commits, newest first, as the lineage reader sees them. */
  private List<GraphCommit> commits(String branch) {
    try (ManifestDataset m = ManifestDataset.open(config,
        branch.equals("main") ? Optional.empty() : Optional.of(branch), OptionalLong.empty())) {
      List<GraphCommit> out = new ArrayList<>();
      Lineage.newestFirst(m, ManifestLayout.read(m).stateFragment(), out::add);
      return out;
    }
  }

  @Test
  void genesisThenOneCommitPerPublishWithExactVersions() {
    ManifestBatchPublisher.Published genesis = publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    assertThat(genesis.manifestVersion()).isEqualTo(2);
    ManifestBatchPublisher.Published second = publisher.publish(intent("main", Optional.empty(), Optional.of(genesis.commitId()), 2, 3));
    assertThat(second.manifestVersion()).isEqualTo(3);

    ManifestState s = state("main");
    assertThat(s.manifestVersion()).isEqualTo(3);
    assertThat(s.ownHead()).contains(second.commitId());
    assertThat(s.tables()).containsOnlyKeys(TableKey.node("Person"));
    TablePin pin = s.tables().get(TableKey.node("Person"));
    assertThat(pin.version()).isEqualTo(2);
    assertThat(pin.rowCount()).isEqualTo(3);
    assertThat(pin.manifestVersion()).isEqualTo(3);
    List<GraphCommit> lineage = commits("main");
    assertThat(lineage).extracting(GraphCommit::id).containsExactly(second.commitId(), genesis.commitId());
    assertThat(lineage.get(0).parent()).contains(genesis.commitId());
    assertThat(lineage.get(0).actor()).contains("act-test");
    assertThat(lineage.get(0).manifestVersion()).isEqualTo(3);
  }

  @Test
  void aStaleHeadIsAMismatchAndWritesNothing() {
    ManifestBatchPublisher.Published genesis = publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    publisher.publish(intent("main", Optional.empty(), Optional.of(genesis.commitId()), 2, 1));
    assertThatThrownBy(() -> publisher.publish(intent("main", Optional.empty(), Optional.of(genesis.commitId()), 3, 2)))
        .isInstanceOfSatisfying(dev.omnigraph.api.ReadSetChanged.class, e -> {
          assertThat(e.member()).isEqualTo("graph_head:main");
          assertThat(e.expected()).contains(genesis.commitId());
        });
    assertThat(state("main").manifestVersion()).isEqualTo(3);
  }

  @Test
  void concurrentPublishersOnOneHeadExactlyOneLands() throws Exception {
    ManifestBatchPublisher.Published genesis = publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    int n = 4;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ManifestBatchPublisher.Published>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long v = 10 + i;
      futures.add(pool.submit(() -> {
        go.await();
        return publisher.publish(intent("main", Optional.empty(), Optional.of(genesis.commitId()), v, v));
      }));
    }
    go.countDown();
    int landed = 0;
    int mismatched = 0;
    for (Future<ManifestBatchPublisher.Published> f : futures) {
      try {
        f.get();
        landed++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(dev.omnigraph.api.ReadSetChanged.class);
        mismatched++;
      }
    }
    pool.shutdown();
    assertThat(landed).isEqualTo(1);
    assertThat(mismatched).isEqualTo(n - 1);
    ManifestState s = state("main");
    assertThat(s.manifestVersion()).isEqualTo(3);
    assertThat(commits("main")).hasSize(2);
  }

  /**
   * A branch that has not published yet has no head row of its own: concurrent first publishers
   * must still contend for one row (the inherited head they rewrite), so exactly one lands.
   */
  @Test
  void concurrentFirstPublishersOnAFreshBranchExactlyOneLands() throws Exception {
    ManifestBatchPublisher.Published genesis = publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    String identity;
    try (ManifestDataset m = ManifestDataset.open(config, Optional.empty(), OptionalLong.empty())) {
      m.createBranch("fresh", Optional.empty(), m.version());
      identity = m.branches().get(0).identifier();
    }
    int n = 4;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ManifestBatchPublisher.Published>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long v = 10 + i;
      // Separate publisher instances share nothing but the root: each reads the branch itself.
      ManifestBatchPublisher own = new ManifestBatchPublisher(config);
      futures.add(pool.submit(() -> {
        go.await();
        return own.publish(intent("fresh", Optional.of(identity), Optional.of(genesis.commitId()), v, v));
      }));
    }
    go.countDown();
    int landed = 0;
    for (Future<ManifestBatchPublisher.Published> f : futures) {
      try {
        f.get();
        landed++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(dev.omnigraph.api.ReadSetChanged.class);
      }
    }
    pool.shutdown();
    assertThat(landed).isEqualTo(1);
    ManifestState s = state("fresh");
    assertThat(commits("fresh")).hasSize(2);
    assertThat(s.heads()).containsEntry("main", genesis.commitId());
    assertThat(s.ownHead()).isPresent();
    assertThat(commits("main")).hasSize(1);
  }

  /**
   * A capture reads a named branch's own ref (one GET) instead of listing every branch: the direct
   * reading must match Lance's listing exactly (identity, parent, chain), for nested names with
   * {@code /}, after a delete and recreate, and for an absent branch.
   */
  @Test
  void branchRefsReadOneBranchExactlyAsTheListingShowsIt() throws Exception {
    publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config);
        ManifestDataset m = ManifestDataset.open(config, Optional.empty(), OptionalLong.empty())) {
      long fork = m.version(); // a child branch starts at the version it forked from
      m.createBranch("feature", Optional.empty(), fork);
      m.createBranch("agent/one", Optional.of("feature"), fork);
      m.createBranch("agent/one/deep", Optional.of("agent/one"), fork);
      BranchRefs direct = BranchRefs.direct(storage);
      BranchRefs listing = BranchRefs.listing();
      for (String name : List.of("feature", "agent/one", "agent/one/deep")) {
        assertThat(direct.read(name)).as("ref of %s at %s", name, BranchRefs.key(name)).isPresent();
        assertThat(direct.resolve(m, name)).as(name).isEqualTo(listing.resolve(m, name));
      }
      assertThat(direct.resolve(m, "agent/one/deep").orElseThrow().parentChain())
          .containsExactly("agent/one", "feature", "main");
      assertThat(direct.read("absent")).isEmpty();
      assertThat(direct.resolve(m, "absent")).isEmpty();

      String before = direct.read("agent/one/deep").orElseThrow().identifier();
      m.deleteBranch("agent/one/deep");
      assertThat(direct.resolve(m, "agent/one/deep")).isEmpty();
      m.createBranch("agent/one/deep", Optional.of("feature"), fork);
      BranchRefs.Resolved again = direct.resolve(m, "agent/one/deep").orElseThrow();
      assertThat(again).isEqualTo(listing.resolve(m, "agent/one/deep").orElseThrow());
      assertThat(again.branch().identifier()).isNotEqualTo(before);
      assertThat(again.parentChain()).containsExactly("feature", "main");

      // A publisher reading refs directly enforces the identity it reads.
      ManifestBatchPublisher own = new ManifestBatchPublisher(config, storage);
      String head = state("main").ownHead().orElseThrow();
      assertThatThrownBy(() -> own.publish(intent("agent/one/deep", Optional.of(before), Optional.of(head), 2, 1)))
          .isInstanceOfSatisfying(dev.omnigraph.api.ReadSetChanged.class,
              e -> assertThat(e.member()).isEqualTo("branch_identity:agent/one/deep"));
      ManifestBatchPublisher.Published landed =
          own.publish(intent("agent/one/deep", Optional.of(again.branch().identifier()), Optional.of(head), 2, 1));
      assertThat(state("agent/one/deep").ownHead()).contains(landed.commitId());
    }
  }

  @Test
  void aBranchInheritsItsParentsHeadAndPublishesIndependently() {
    ManifestBatchPublisher.Published genesis = publisher.publish(intent("main", Optional.empty(), Optional.empty(), 1, 0));
    String identity;
    try (ManifestDataset m = ManifestDataset.open(config, Optional.empty(), OptionalLong.empty())) {
      m.createBranch("feature", Optional.empty(), m.version());
      identity = m.branches().get(0).identifier();
      assertThat(m.branches()).extracting(b -> b.name()).containsExactly("feature");
    }
    ManifestState fresh = state("feature");
    assertThat(fresh.ownHead()).isEmpty();
    assertThat(fresh.effectiveHead(List.of("main"))).contains(genesis.commitId());

    assertThatThrownBy(() -> publisher.publish(intent("feature", Optional.of("other-identity"), Optional.of(genesis.commitId()), 2, 1)))
        .isInstanceOfSatisfying(dev.omnigraph.api.ReadSetChanged.class, e -> assertThat(e.member()).isEqualTo("branch_identity:feature"));

    ManifestBatchPublisher.Published onBranch = publisher.publish(intent("feature", Optional.of(identity), Optional.of(genesis.commitId()), 2, 5));
    ManifestState branch = state("feature");
    assertThat(branch.ownHead()).contains(onBranch.commitId());
    assertThat(branch.tables().get(TableKey.node("Person")).rowCount()).isEqualTo(5);
    assertThat(onBranch.manifestVersion()).isEqualTo(branch.manifestVersion());
    ManifestState main = state("main");
    assertThat(main.ownHead()).contains(genesis.commitId());
    assertThat(main.tables().get(TableKey.node("Person")).rowCount()).isZero();
    assertThat(main.manifestVersion()).isEqualTo(2);
  }

  private ManifestDataset openMain() {
    return ManifestDataset.open(config, Optional.empty(), OptionalLong.empty());
  }

  /**
   * Issue 20: every version ends with the state fragment, the lineage never holds more than
   * {@link ManifestLayout#MAX_LINEAGE_FRAGMENTS} fragments however many commits land, commits read
   * back newest first exactly, and a version written by a lineage merge reads the same state.
   */
  @Test
  void lineageStaysWithinItsFragmentBoundAndReadsBackNewestFirst() {
    List<String> published = new ArrayList<>();
    List<Long> versions = new ArrayList<>();
    Optional<String> head = Optional.empty();
    for (int i = 0; i < 37; i++) {
      ManifestBatchPublisher.Published p = publisher.publish(intent("main", Optional.empty(), head, i + 1, i));
      head = Optional.of(p.commitId());
      published.add(0, p.commitId());
      versions.add(p.manifestVersion());
      try (ManifestDataset m = openMain()) {
        ManifestLayout.Read read = ManifestLayout.read(m);
        assertThat(read.stateFragment()).as("state fragment after publish %d", i).isPresent();
        assertThat(ManifestLayout.lineageFragments(m, read.stateFragment()).size())
            .as("lineage fragments after publish %d", i).isLessThanOrEqualTo(ManifestLayout.MAX_LINEAGE_FRAGMENTS);
        assertThat(read.rows()).as("state rows: registration, one pin, one head").hasSize(3);
      }
    }
    assertThat(commits("main")).extracting(GraphCommit::id).containsExactlyElementsOf(published);
    try (ManifestDataset m = openMain()) {
      Optional<Integer> stateFragment = ManifestLayout.read(m).stateFragment();
      for (String id : List.of(published.get(0), published.get(17), published.get(36))) {
        assertThat(Lineage.find(m, stateFragment, id)).map(GraphCommit::id).contains(id);
      }
      // Ids are matched literally: quotes and SQL never widen the match.
      for (String hostile : List.of("x' OR '1'='1", published.get(3) + "' OR object_id LIKE '%", "\\'", "%", "")) {
        assertThat(Lineage.find(m, stateFragment, hostile)).as(hostile).isEmpty();
      }
    }
    ManifestState latest = state("main");
    assertThat(latest.ownHead()).contains(published.get(0));
    assertThat(latest.tables().get(TableKey.node("Person")).version()).isEqualTo(37);
    // A merge commits one more version; it reads exactly the state of the publish before it.
    for (int i = 1; i < versions.size(); i++) {
      for (long v = versions.get(i - 1) + 1; v < versions.get(i); v++) {
        try (ManifestDataset m = ManifestDataset.open(config, Optional.empty(), OptionalLong.of(v))) {
          ManifestState at = ManifestReader.read(m, "main");
          assertThat(at.tables().get(TableKey.node("Person")).version()).as("merge version %d", v).isEqualTo(i);
          assertThat(at.ownHead()).contains(published.get(published.size() - i));
        }
      }
    }
    assertThat(versions.get(versions.size() - 1)).as("some publishes were followed by a lineage merge")
        .isGreaterThan(versions.size() + 1L);
  }

  /**
   * A manifest written before issue 20 (state rows and commits appended together, no state
   * fragment) is read by the full fold, and its first publish here converts it: every old fragment
   * goes, the lineage is rewritten newest first, and the state fragment comes last. Two publishers
   * racing on the unconverted manifest still land exactly once.
   */
  @Test
  void aLegacyManifestIsReadByTheFoldAndConvertedOnceByItsFirstPublish() throws Exception {
    String g = Ulid.next();
    String c2 = Ulid.next();
    long t = System.currentTimeMillis() * 1000;
    TableVersionUpdate v1 = new TableVersionUpdate(TableKey.node("Person"), PERSON, PERSON.path(false), 1, Optional.empty(), 0);
    TableVersionUpdate v2 = new TableVersionUpdate(TableKey.node("Person"), PERSON, PERSON.path(false), 2, Optional.empty(), 4);
    try (ManifestDataset m = openMain()) {
      List<ManifestRow> first = List.of(
          ManifestRows.table(TableKey.node("Person"), PERSON, PERSON.path(false), t),
          ManifestRows.tableVersion(v1, 2, g),
          ManifestRows.commit(g, Optional.empty(), Optional.empty(), Optional.of("old"), t, "main", 2),
          ManifestRows.head("main", g, 2));
      m.rewrite(List.of(), List.of(), List.of(a -> ManifestColumns.encode(first, a)));
      int firstFragment = m.fragments().get(0).id();
      List<ManifestRow> second = List.of(
          ManifestRows.tableVersion(v2, 3, c2),
          ManifestRows.commit(c2, Optional.of(g), Optional.empty(), Optional.of("old"), t + 1, "main", 3),
          ManifestRows.head("main", c2, 3));
      // The old publisher's CAS deleted the head row it replaced.
      m.rewrite(List.of(), List.of(((long) firstFragment << 32) | 3), List.of(a -> ManifestColumns.encode(second, a)));
    }
    ManifestState legacy = state("main");
    assertThat(legacy.manifestVersion()).isEqualTo(3);
    assertThat(legacy.ownHead()).contains(c2);
    assertThat(legacy.tables().get(TableKey.node("Person")).version()).isEqualTo(2);
    assertThat(legacy.tables().get(TableKey.node("Person")).rowCount()).isEqualTo(4);
    assertThat(commits("main")).extracting(GraphCommit::id).containsExactly(c2, g);

    int n = 3;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ManifestBatchPublisher.Published>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long v = 10 + i;
      ManifestBatchPublisher own = new ManifestBatchPublisher(config);
      futures.add(pool.submit(() -> {
        go.await();
        return own.publish(intent("main", Optional.empty(), Optional.of(c2), v, v));
      }));
    }
    go.countDown();
    List<ManifestBatchPublisher.Published> landed = new ArrayList<>();
    for (Future<ManifestBatchPublisher.Published> f : futures) {
      try {
        landed.add(f.get());
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(dev.omnigraph.api.ReadSetChanged.class);
      }
    }
    pool.shutdown();
    assertThat(landed).hasSize(1);
    String c3 = landed.get(0).commitId();
    assertThat(landed.get(0).manifestVersion()).isEqualTo(4);
    try (ManifestDataset m = openMain()) {
      ManifestLayout.Read read = ManifestLayout.read(m);
      assertThat(read.stateFragment()).isPresent();
      List<ManifestDataset.FragmentRef> lineage = ManifestLayout.lineageFragments(m, read.stateFragment());
      assertThat(lineage).extracting(ManifestDataset.FragmentRef::physicalRows).containsExactly(2L, 1L);
      assertThat(m.fragments()).hasSize(3);
    }
    ManifestState converted = state("main");
    assertThat(converted.ownHead()).contains(c3);
    assertThat(converted.tables().get(TableKey.node("Person")).version()).isBetween(10L, 12L);
    assertThat(commits("main")).extracting(GraphCommit::id).containsExactly(c3, c2, g);
    assertThat(commits("main").get(1).parent()).contains(g);
  }
}
