package dev.omnigraph.table;

import dev.omnigraph.storage.StorageConfig;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.MetadataColumns;
import org.lance.RowAddress;
import org.lance.Transaction;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Operation;
import org.lance.operation.Update;
import org.lance.schema.LanceSchema;

/**
 * The data-table layer the write path calls: reads at exact versions, staged (uncommitted)
 * inserts, upserts, deletes and overwrites, and a commit that confirms its own outcome from
 * evidence. A table is named by its dataset key under the graph root ({@code location}, e.g.
 * {@code nodes/<hex>}) and a Lance branch of that dataset ({@code nativeBranch}; empty = the
 * dataset's main).
 *
 * <p>Every call opens what it needs and closes every dataset, scanner, reader and allocator before
 * returning; nothing is cached, so a call always sees storage as it is. Lance failures surface as
 * the {@link RuntimeException}s Lance throws (for example, a version or branch that does not
 * exist); the checked {@code IOException}s lance-java throws undeclared from native code are
 * rethrown as {@link java.io.UncheckedIOException}. No method classifies a Lance exception by type
 * or message: {@link #commit} settles its outcome by re-reading the table.
 *
 * <p>Known deviation from the seed (docs/lance-write-layer.md): lance-java 7.0.0 cannot attach
 * Lance's exact-id inserted-rows filter to a staged {@code Update}, so a stale insert is rebased by
 * Lance instead of rejected. {@link #commit} reports that as {@link CommitOutcome.Kind#REBASED},
 * never as landed.
 */
public final class DataTables {

  /** Transaction property carrying the insertion-absence certificate. */
  public static final String INSERT_ABSENCE = "omnigraph.insert_absence";

  /** The only certificate version this code mints or accepts. */
  public static final String INSERT_ABSENCE_V1 = "v1";

  /**
   * Transaction property binding the certificate to the parent version absence was proven
   * against (decimal). Lance rewrites a rebased transaction's recorded read version to its new
   * parent, so the recorded read version alone cannot tell a certified insert from one Lance
   * rebased over a foreign commit; this property can (docs/lance-write-layer.md).
   */
  public static final String INSERT_ABSENCE_PARENT = "omnigraph.insert_absence.read_version";

  /** The primary-key column every data table has. */
  static final String ID = "id";

  /**
   * Ids per {@code id IN (…)} filter. A probe reads every fragment its key index does not cover once
   * per chunk, so one chunk for a whole load (8,192 ids, the per-table cap) reads them once: an
   * 8,192-id probe took 100-150 ms in 1,000-id chunks behind a few uncovered bulk fragments, and the
   * plan of an 8,192-literal list is no slower per id than nine smaller ones (measured here).
   */
  static final int ID_CHUNK = 8_192;

  /** Rows per scanner batch: bounds memory for any table size (the seed's 8,192-row batches). */
  static final long SCAN_BATCH_ROWS = 8_192;

  private final StorageConfig config;
  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  /**
   * A data-table layer over the graph root {@code config} names, with caches of its own (a test, a
   * tool): nothing is shared with the root's handles.
   */
  public DataTables(StorageConfig config) {
    this(config, new LanceRoot(config.rootUri()));
  }

  /** A data-table layer over the graph root {@code config} names, sharing {@code lance}, that root's part. */
  public DataTables(StorageConfig config, LanceRoot lance) {
    this.config = Objects.requireNonNull(config, "config");
    this.lance = Objects.requireNonNull(lance, "lance");
  }

  /** The root's table part this layer shares. */
  LanceRoot lance() {
    return lance;
  }

  /**
   * The live latest version of the table's {@code nativeBranch}, read from storage now.
   *
   * @throws RuntimeException from Lance when the dataset or branch does not exist
   */
  public long head(String location, Optional<String> nativeBranch) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.empty())) {
        return h.table.version();
      }
    });
  }

  /**
   * As {@link #head}, asked through the open handle of {@code knownVersion} (a version the caller
   * holds, e.g. its pin): one listing of the table's versions instead of a full open. On a branch
   * too: a handle checked out at a branch version lists that branch's own {@code _versions/} (checked
   * against lance-java 7.0.0: it sees a later branch commit and ignores main's), which is what the
   * full open (two listings and two manifest reads) would have concluded.
   */
  public long head(String location, Optional<String> nativeBranch, long knownVersion) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(knownVersion))) {
        return h.table.latestVersion();
      }
    });
  }

  /** Whether the Lance branch {@code branch} of the table exists. */
  public boolean branchExists(String location, String branch) {
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().anyMatch(b -> b.getName().equals(branch));
      }
    });
  }

  /**
   * Creates the Lance branch {@code branch} of the table at {@code fromVersion} of
   * {@code fromBranch} (empty: main). Lance clones {@code tree/<branch>} before it writes the branch
   * contents, so a failure may leave an unreferenced tree (reclaimed by the next create of the
   * name). The storage options go to Lance explicitly (see
   * {@link LanceSupport#createBranch(StorageConfig, Dataset, String, org.lance.Ref)}).
   *
   * <p>The call is made on the source branch's handle: lance-core 7.0.0 resolves the version of a
   * {@code Ref.ofBranch(source, v)} in the tree of the dataset handle it is called on, so from
   * main's handle it looked for main's {@code _versions/v.manifest} and failed (or would find the
   * wrong version).
   *
   * @throws RuntimeException from Lance, e.g. when the branch already exists or the version does not
   */
  public void createBranch(String location, String branch, Optional<String> fromBranch, long fromVersion) {
    // Handles of an earlier branch of this name (see PinnedHandles.forgetBranch) must not serve it.
    PinnedHandles.forgetBranch(config, location, branch);
    forgetFork(branch);
    lance(() -> {
      try (Handle h = open(location, fromBranch, OptionalLong.empty());
          Dataset created = LanceSupport.createBranch(
              config, h.table, branch, LanceSupport.ref(fromBranch, OptionalLong.of(fromVersion)))) {
        // Only the side effect is wanted; the branch handle is closed at once.
      }
      return null;
    });
  }

  /**
   * Deletes the Lance branch {@code branch} of the table (its contents first, then its tree).
   *
   * @throws RuntimeException from Lance, e.g. when the branch does not exist
   */
  public void deleteBranch(String location, String branch) {
    lance(() -> {
      PinnedHandles.forgetBranch(config, location, branch);
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        h.main.branches().delete(branch);
      } finally {
        PinnedHandles.forgetBranch(config, location, branch);
        forgetFork(branch);
      }
      return null;
    });
  }

  /**
   * The native identity of the table's Lance branch {@code branch} (its version/uuid chain, as
   * {@link NativeBranch#identifier()} spells it), or empty when no such ref exists. A delete and
   * re-create of the same name yields a different identity.
   */
  public Optional<String> branchIdentity(String location, String branch) {
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().filter(b -> b.getName().equals(branch)).findFirst()
            .map(b -> ManifestDataset.nativeBranch(b).identifier());
      }
    });
  }

  /**
   * Makes {@code version} of the branch its latest version again with a Lance {@code Restore}
   * commit (a new version with that version's content; history is kept). Recovery's compensation
   * for an owned effect that must not become visible.
   *
   * @return the new head (the restore's version)
   * @throws RuntimeException from Lance
   */
  public long restore(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      // Restore moves the handle it runs on: never a shared one.
      try (Handle h = openFresh(location, nativeBranch, OptionalLong.of(version))) {
        h.table.restore();
      }
      return head(location, nativeBranch);
    });
  }

  /**
   * Every version number the branch still has manifests for, ascending.
   */
  public List<Long> versions(String location, Optional<String> nativeBranch) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.empty())) {
        return h.table.listVersions().stream().map(v -> v.getId()).sorted().toList();
      }
    });
  }

  /** What a cleanup removed. */
  public record Removed(long versions, long bytes) {}

  /**
   * Removes the branch's versions older than {@code beforeVersion} and the files only they
   * referenced (Lance cleanup; tagged versions are kept). Staged files no version ever referenced
   * are kept unless they are older than Lance's unverified-file grace period.
   */
  public Removed cleanupBefore(String location, Optional<String> nativeBranch, long beforeVersion) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.empty())) {
        org.lance.cleanup.RemovalStats stats = h.table.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder()
            .withBeforeVersion(beforeVersion).withErrorIfTaggedOldVersions(false).build());
        // A cached handle of a removed version would go on proving and reading history that
        // storage no longer holds (the merge's certificate proof must see the cleanup).
        PinnedHandles.forgetBefore(config, location, nativeBranch, beforeVersion);
        return new Removed(stats.getOldVersions(), stats.getBytesRemoved());
      }
    });
  }

  /**
   * Schema apply's hard drop of a property (irreversible): removes every version of the table's main
   * before {@code keepFrom}, pin tags included, so time travel to them can no longer read the
   * dropped column. Idempotent.
   */
  public Removed removeVersionsBefore(String location, long keepFrom) {
    retainPinTags(location, Map.of(Optional.empty(), List.of()));
    return cleanupBefore(location, Optional.empty(), keepFrom);
  }

  /**
   * Schema apply's hard drop of a type (irreversible): removes the retired type's whole dataset.
   * Idempotent (an absent dataset is left absent).
   */
  public void deleteDataset(String location) {
    PinnedHandles.forgetBranch(config, location, "");
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      storage.deletePrefix(location + "/");
    }
  }

  /** Every Lance branch of the table (its main is not listed), with parent and fork version. */
  public List<NativeBranch> branches(String location) {
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().map(ManifestDataset::nativeBranch).toList();
      }
    });
  }

  /** Name prefix of the Lance tags that keep graph-pinned versions through a cleanup. */
  public static final String PIN_TAG_PREFIX = "omnigraph-pin-";

  /**
   * A pin tag: a Lance tag named {@value #PIN_TAG_PREFIX}… on {@code version} of
   * {@code nativeBranch} (empty: the table's main). Lance's cleanup never removes a tagged version,
   * which is what lets a cleanup remove an unpinned version that lies between two pinned ones.
   */
  public record PinTag(String name, Optional<String> nativeBranch, long version) {}

  /** The table's pin tags (every other tag is left alone and never listed here). */
  public List<PinTag> pinTags(String location) {
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        List<PinTag> out = new ArrayList<>();
        for (org.lance.Tag t : h.main.tags().list()) {
          if (t.getName().startsWith(PIN_TAG_PREFIX)) {
            Optional<String> branch = t.getBranch().filter(b -> !b.isEmpty() && !b.equals("main"));
            out.add(new PinTag(t.getName(), branch, t.getVersion()));
          }
        }
        return out;
      }
    });
  }

  /** What {@link #retainPinTags} changed. */
  public record TagChanges(int created, int deleted) {}

  /**
   * Makes the table's pin tags exactly {@code pinned} (Lance branch, empty for main → versions):
   * creates a tag for every pinned version that has none and deletes every pin tag whose version is
   * no longer pinned, in one open. Tags create no table version; other tags are left alone.
   *
   * @throws RuntimeException from Lance, e.g. when a pinned version does not exist
   */
  public TagChanges retainPinTags(String location, Map<Optional<String>, ? extends Collection<Long>> pinned) {
    Map<String, org.lance.Ref> wanted = new TreeMap<>();
    pinned.forEach((branch, versions) -> versions.forEach(v ->
        wanted.put(pinTagName(branch, v), LanceSupport.ref(branch, OptionalLong.of(v)))));
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.empty())) {
        Set<String> present = new HashSet<>();
        int deleted = 0;
        for (org.lance.Tag t : h.main.tags().list()) {
          if (!t.getName().startsWith(PIN_TAG_PREFIX)) {
            continue;
          }
          if (wanted.containsKey(t.getName())) {
            present.add(t.getName());
          } else {
            h.main.tags().delete(t.getName());
            deleted++;
          }
        }
        int created = 0;
        for (Map.Entry<String, org.lance.Ref> e : wanted.entrySet()) {
          if (!present.contains(e.getKey())) {
            h.main.tags().create(e.getKey(), e.getValue());
            created++;
          }
        }
        return new TagChanges(created, deleted);
      }
    });
  }

  /**
   * Lance tag names allow only letters, digits, '.', '-' and '_', and end up as file names, so a
   * branch is named by a digest of its name rather than by the name itself.
   */
  static String pinTagName(Optional<String> nativeBranch, long version) {
    String branch = nativeBranch.map(b -> {
      try {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
            .digest(b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "b" + java.util.HexFormat.of().formatHex(digest, 0, 8);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }).orElse("main");
    return PIN_TAG_PREFIX + branch + "-v" + version;
  }

  /** The number of live rows at exactly {@code version} of the branch. */
  public long countRows(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        return h.table.countRows();
      }
    });
  }

  /**
   * The fragment shape of exactly {@code version} of the branch (fragment count, deletion files,
   * and for each key index the live fragments it does not cover), read from the manifest of the
   * opened version only: no data file and no index file is read, so it is cheap enough to call on
   * every write or maintenance decision.
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public FragmentStats fragmentStats(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        return fragmentStats(h.table);
      }
    });
  }

  /**
   * The live rows of exactly {@code version} of the branch that the key index on {@code column}
   * ({@code id}, {@code src} or {@code dst}) does not cover: what a probe filtered on that column
   * scans besides the index. Read from the opened version's manifest only (fragment metadata and
   * index fragment bitmaps), like {@link #fragmentStats}. Every row when the column has no key index.
   */
  public long rowsOutsideKeyIndex(String location, Optional<String> nativeBranch, long version, String column) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        Set<Integer> covered = new HashSet<>();
        boolean indexed = false;
        for (org.lance.index.Index index : h.table.getIndexes()) {
          if (index.name().equals(KeyIndexes.indexName(column))) {
            indexed = true;
            covered.addAll(index.fragments().orElse(List.of()));
          }
        }
        long rows = 0;
        for (org.lance.Fragment fragment : h.table.getFragments()) {
          FragmentMetadata m = fragment.metadata();
          if (!indexed || !covered.contains(m.getId())) {
            rows += m.getNumRows();
          }
        }
        return rows;
      }
    });
  }

  /** The most fragments an index does not cover in {@code s} (a missing key index covers none). */
  static int unindexedFragments(FragmentStats s) {
    return s.missingKeyIndexes().isEmpty() ? s.maxUnindexedFragments() : Math.max(s.maxUnindexedFragments(), s.fragments());
  }

  /** The indexes {@code s} names that leave a live fragment uncovered, sorted by name. */
  static List<String> staleIndexes(FragmentStats s) {
    return s.unindexedFragments().entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
        .sorted().toList();
  }

  /** {@link #fragmentStats(String, Optional, long)} of a handle the caller holds ({@link TableCompaction}'s). */
  static FragmentStats fragmentStats(Dataset table) {
    Set<Integer> live = new TreeSet<>();
    int withDeletions = 0;
    long deletedRows = 0;
    for (org.lance.Fragment fragment : table.getFragments()) {
      FragmentMetadata metadata = fragment.metadata();
      live.add(metadata.getId());
      if (metadata.getDeletionFile() != null) {
        withDeletions++;
        deletedRows += metadata.getNumDeletions();
      }
    }
    // An index may have several segments (deltas); together they cover the union of their fragment
    // bitmaps. A segment without a bitmap is counted as covering nothing (conservative: it can
    // only make the index look staler than it is).
    Map<String, Set<Integer>> covered = new TreeMap<>();
    for (org.lance.index.Index index : table.getIndexes()) {
      covered.computeIfAbsent(index.name(), k -> new HashSet<>()).addAll(index.fragments().orElse(List.of()));
    }
    // Every index, key and property alike: a stale property index costs its reads the same
    // uncovered-fragment scans a stale key index costs a probe.
    Map<String, Integer> unindexed = new TreeMap<>();
    covered.forEach((name, byIndex) ->
        unindexed.put(name, (int) live.stream().filter(f -> !byIndex.contains(f)).count()));
    List<String> missing = new ArrayList<>();
    for (String column : KeyIndexes.keyColumns(table.getSchema())) {
      if (!covered.containsKey(KeyIndexes.indexName(column))) {
        missing.add(column);
      }
    }
    return new FragmentStats(table.version(), live.size(), withDeletions, deletedRows, unindexed, missing);
  }

  /**
   * Brings every index of the branch up to date at its live head, which must be
   * {@code expectedVersion}: creates each missing <em>key</em> index (one {@code CreateIndex} commit
   * each; an {@code Overwrite} drops indexes) and folds the fragments an existing index — key or
   * property — does not cover into it with Lance's {@code optimizeIndices}: one {@code CreateIndex}
   * commit for the stale scalar indexes (BTree, inverted), then one for the stale vector indexes,
   * each merging every segment of the folded indexes into one (lance-java 7.0.0 otherwise adds a
   * vector delta segment per fold, and compaction never merges fragments that different segments
   * cover; docs/lance-write-layer.md, "Index maintenance"). A missing property index is not created:
   * that is EnsureIndices' work, with its own planning and pending rules.
   *
   * <p>The vector fold is its own commit so that a vector index Lance cannot fold (lance-java
   * 7.0.0 never failed one in our trials: a fold assigns to the trained centroids, it does not
   * train) leaves the scalar fold landed; whatever index still does not cover every fragment
   * afterwards is named in {@link IndexOptimization#stale()}, read from the head's manifest.
   *
   * <p>No table content changes, but every commit is a new version: the caller (the Optimize
   * writer) must hold the table's write gate and publish the returned version as the new pin, or
   * the write path's live-HEAD-equals-pin check fails. The transactions' uuids are minted by Lance
   * (lance-java 7.0.0 takes none), so the outcome is settled from the shape of the versions after
   * {@code expectedVersion}, read back with their recorded transactions; see
   * {@link IndexOptimization}.
   *
   * @throws TableCommitUnknownException when the evidence cannot be read after an index call (an
   *     index commit may have landed; its uuid is not known, so {@code uuid()} is empty)
   * @throws RuntimeException from Lance when the table cannot be opened (nothing was done)
   */
  public IndexOptimization optimizeIndices(String location, Optional<String> nativeBranch, long expectedVersion) {
    Exception failure = null;
    try (Handle h = lance(() -> open(location, nativeBranch, OptionalLong.empty()))) {
      long head = h.table.version();
      if (head != expectedVersion) {
        return new IndexOptimization(IndexOptimization.Kind.HEAD_MOVED, expectedVersion, head, List.of(),
            "live head is version " + head + ", not the expected " + expectedVersion + "; nothing done", List.of());
      }
      FragmentStats stats = fragmentStats(h.table);
      if (stats.indexesCurrent()) {
        return new IndexOptimization(IndexOptimization.Kind.UP_TO_DATE, expectedVersion, head, List.of(),
            "every index covers all " + stats.fragments() + " fragments; nothing done", List.of());
      }
      Map<String, Integer> segments = new TreeMap<>();
      Set<String> vectors = new TreeSet<>();
      for (org.lance.index.Index index : h.table.getIndexes()) {
        segments.merge(index.name(), 1, Integer::sum);
        if (PropertyIndexes.kindOf(index.indexType()) == dev.omnigraph.schema.IndexKind.VECTOR) {
          vectors.add(index.name());
        }
      }
      List<String> stale = staleIndexes(stats);
      List<List<String>> folds = List.of(stale.stream().filter(n -> !vectors.contains(n)).toList(),
          stale.stream().filter(vectors::contains).toList());
      try {
        for (String column : stats.missingKeyIndexes()) {
          KeyIndexes.create(h.table, column);
        }
      } catch (Exception e) {
        // Not inspected (STYLE #10): the re-read below decides.
        failure = e;
      }
      for (List<String> names : folds) {
        if (names.isEmpty() || failure != null) {
          continue;
        }
        // Lance no-ops on an unknown name, so only names the table lists are passed. Merging as
        // many segments as the most-segmented index has leaves each folded index one segment.
        int merge = names.stream().mapToInt(n -> segments.getOrDefault(n, 1)).max().orElse(1);
        try {
          h.table.optimizeIndices(org.lance.index.OptimizeOptions.builder().indexNames(names)
              .numIndicesToMerge(merge).build());
        } catch (Exception e) {
          // Not inspected: a vector fold that fails leaves its index stale (reported), and the
          // classification below decides what landed.
          failure = e;
        }
      }
    }
    try {
      return classifyIndexWork(location, nativeBranch, expectedVersion, failure);
    } catch (Exception e) {
      TableCommitUnknownException unknown =
          new TableCommitUnknownException(location, nativeBranch, expectedVersion, "", e);
      if (failure != null) {
        unknown.addSuppressed(failure);
      }
      throw unknown;
    }
  }

  private IndexOptimization classifyIndexWork(
      String location, Optional<String> nativeBranch, long readVersion, Exception failure) {
    String cause = failure == null
        ? "the index call returned normally"
        : "the index call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.empty())) {
        long head = h.table.version();
        // What is still stale at the head the caller will publish (an index Lance could not fold).
        List<String> stale = staleIndexes(fragmentStats(h.table));
        List<TxInfo> transactions = new ArrayList<>();
        String unexpected = null;
        for (long v = readVersion + 1; v <= head; v++) {
          Optional<TxInfo> tx = transactionAt(h, nativeBranch, v);
          tx.ifPresent(transactions::add);
          if (unexpected == null && (tx.isEmpty() || !tx.get().operation().equals("CreateIndex")
              || tx.get().readVersion() != v - 1)) {
            unexpected = "version " + v + " is " + tx.map(t -> t.operation() + " planned on version "
                + t.readVersion()).orElse("without a recorded transaction");
          }
        }
        if (head == readVersion) {
          return new IndexOptimization(IndexOptimization.Kind.NOT_LANDED, readVersion, head, transactions,
              "head is still version " + head + " (effect-free); " + cause, stale);
        }
        if (head < readVersion || unexpected != null) {
          return new IndexOptimization(IndexOptimization.Kind.UNCLASSIFIED, readVersion, head, transactions,
              "head moved from " + readVersion + " to " + head + " and not only by index work: "
                  + (unexpected == null ? "head went backwards" : unexpected) + "; " + cause, stale);
        }
        return new IndexOptimization(IndexOptimization.Kind.OPTIMIZED, readVersion, head, transactions,
            "versions " + (readVersion + 1) + ".." + head + " are CreateIndex commits chained on " + readVersion
                + "; " + cause, stale);
      }
    });
  }

  /** The transaction property naming the indexes a {@link StagedWrite.Kind#INDEX} commit adds. */
  public static final String INDEX_BATCH = "omnigraph.index_batch";

  /**
   * The index state of exactly {@code version} of the branch: its live rows, every index it has (by
   * name, with its kind) and, for each of {@code vectorColumns}, how many rows hold a non-null
   * vector. Reads the version's manifest, plus one count per vector column.
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public TableIndexState indexState(String location, Optional<String> nativeBranch, long version,
      Collection<String> vectorColumns) {
    return indexState(location, nativeBranch, version, vectorColumns, List.of());
  }

  /**
   * As {@link #indexState(String, Optional, long, Collection)}, and for each of {@code textColumns}
   * how many rows hold a non-null, non-empty string (one count per column).
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public TableIndexState indexState(String location, Optional<String> nativeBranch, long version,
      Collection<String> vectorColumns, Collection<String> textColumns) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        Map<String, dev.omnigraph.schema.IndexKind> indexes = new TreeMap<>();
        for (org.lance.index.Index index : h.table.getIndexes()) {
          indexes.put(index.name(), PropertyIndexes.kindOf(index.indexType()));
        }
        long rows = h.table.countRows();
        Map<String, Long> vectors = new TreeMap<>();
        for (String column : vectorColumns) {
          vectors.put(column, rows == 0 ? 0 : h.table.countRows(SqlLiteral.identifier(column) + " IS NOT NULL"));
        }
        Map<String, Long> texts = new TreeMap<>();
        for (String column : textColumns) {
          String c = SqlLiteral.identifier(column);
          texts.put(column, rows == 0 ? 0 : h.table.countRows(c + " IS NOT NULL AND " + c + " <> " + SqlLiteral.quote("")));
        }
        return new TableIndexState(version, rows, indexes, vectors, texts);
      }
    });
  }

  /**
   * Builds every index of {@code specs} over all fragments of exactly {@code readVersion} of the
   * branch and stages them as <b>one</b> {@code CreateIndex} transaction with the pre-minted
   * {@code uuid}: the index files are written, nothing is committed, HEAD does not move
   * (docs/lance-write-layer.md, "Property indexes"). {@link #commit} then lands all of them at
   * {@code readVersion + 1} or none. Builds run one after another on one handle of the version.
   *
   * @param vectors non-null vectors per VECTOR column (from {@link #indexState}); each must be ≥ 1
   * @throws IllegalArgumentException for no specs, a duplicate index name, a version with no row,
   *     or a VECTOR column without a trainable vector
   * @throws NoTextToIndex when an INVERTED column yields no token at that version (nothing committed)
   * @throws RuntimeException from Lance when a build fails (nothing committed; files left are garbage)
   */
  public StagedWrite stageCreateIndices(String location, Optional<String> nativeBranch, long readVersion,
      List<IndexSpec> specs, Map<String, Long> vectors, String uuid) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("no index to build on " + location);
    }
    if (specs.stream().map(IndexSpec::name).distinct().count() != specs.size()) {
      throw new IllegalArgumentException("duplicate index names in " + specs);
    }
    return lance(() -> {
      try (Handle h = openFresh(location, nativeBranch, OptionalLong.of(readVersion))) {
        List<Integer> fragments = new ArrayList<>();
        for (org.lance.Fragment fragment : h.table.getFragments()) {
          fragments.add(fragment.getId());
        }
        if (fragments.isEmpty()) {
          // An index over no fragment indexes nothing (and Lance's vector training fails on it).
          throw new IllegalArgumentException("version " + readVersion + " of " + location + " has no fragment");
        }
        List<org.lance.index.Index> built = new ArrayList<>();
        for (IndexSpec spec : specs) {
          org.lance.index.Index index = PropertyIndexes.build(h.table, spec, fragments,
              vectors.getOrDefault(spec.column(), 0L));
          if (index.datasetVersion() != readVersion) {
            throw new IllegalStateException("index " + index.name() + " was built on version "
                + index.datasetVersion() + ", not " + readVersion);
          }
          built.add(index);
        }
        String names = String.join(",", specs.stream().map(IndexSpec::name).toList());
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INDEX)
            .indices(built)
            .properties(Map.of(INDEX_BATCH, names))
            .build();
      }
    });
  }

  /**
   * The rows whose {@code id} is in {@code ids} at exactly {@code version} of the branch, with the
   * given {@code columns} (empty: every column), in no particular order. Ids are probed in chunks
   * of {@value #ID_CHUNK} exact-match filters.
   */
  public List<Map<String, Object>> rowsById(
      String location, Optional<String> nativeBranch, long version, Collection<String> ids, List<String> columns) {
    return lance(() -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      if (ids.isEmpty()) {
        return rows;
      }
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        for (List<String> chunk : chunks(ids)) {
          scanInto(h, Filter.in(ID, chunk), columns, false, batch -> {
            for (int i = 0; i < batch.getRowCount(); i++) {
              rows.add(RowCodec.decode(batch, i));
            }
          });
        }
      }
      return rows;
    });
  }

  /**
   * Streams the rows of exactly {@code version} of the branch that match {@code filter} (pushed
   * into Lance through {@link Filter#toSql()}) to {@code rowSink}, one batch of at most
   * {@value #SCAN_BATCH_ROWS} rows in memory at a time. {@code columns} empty means every column.
   *
   * @throws RuntimeException from Lance when the filter does not fit the table (unknown column, a
   *     literal Lance cannot convert to the column's type)
   */
  public void scan(String location, Optional<String> nativeBranch, long version, Filter filter,
      List<String> columns, Consumer<Map<String, Object>> rowSink) {
    lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        scanInto(h, filter, columns, false, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            rowSink.accept(RowCodec.decode(batch, i));
          }
        });
      }
      return null;
    });
  }

  /** Lance's BM25 score column of a full-text search. */
  static final String SCORE = "_score";

  /** Lance's distance column of a vector search. */
  static final String DISTANCE = "_distance";

  /**
   * The rows of exactly {@code version} of the branch whose {@code column} matches {@code query},
   * with their BM25 score, most relevant first (ties by id): every match, no limit. Only rows
   * {@code prefilter} admits are searched (Lance's prefilter: the filter restricts the candidates,
   * it does not trim the results); scores do not depend on it. Rows appended after the index was
   * built are searched too. {@code columns} empty means every column; {@code id} is always read.
   *
   * <p>A fuzzy query is lowercased here when the index lowercases, because lance-core 7.0.0
   * compares raw fuzzy query words with the indexed (lowercased, stemmed) terms
   * (docs/lance-write-layer.md, "Search reads").
   *
   * @throws MissingSearchIndex when {@code column} has no inverted index at {@code version}
   * @throws RuntimeException from Lance when the table, branch or version does not exist
   */
  public List<ScoredRow> fullTextSearch(String location, Optional<String> nativeBranch, long version, String column,
      TextQuery query, Filter prefilter, List<String> columns) {
    SqlLiteral.identifier(column);
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        Optional<org.lance.index.Index> index = SearchIndexes.inverted(h.table, column);
        if (index.isEmpty()) {
          throw new MissingSearchIndex(location, column);
        }
        List<ScoredRow> out = new ArrayList<>();
        if (query.text().isBlank()) {
          return out; // Lance matches nothing (and its Java binding refuses empty text outright)
        }
        String text = query.maxEdits() > 0 && SearchIndexes.lowercases(h.table, index.get())
            ? query.text().toLowerCase(java.util.Locale.ROOT) : query.text();
        org.lance.ipc.FullTextQuery fts = query.maxEdits() == 0 ? org.lance.ipc.FullTextQuery.match(text, column)
            : org.lance.ipc.FullTextQuery.match(text, column, 1.0f, Optional.of(query.maxEdits()),
                SearchIndexes.FUZZY_EXPANSIONS, org.lance.ipc.FullTextQuery.Operator.OR, 0);
        ScanOptions.Builder options = searchOptions(h.table, prefilter, columns, SCORE).fullTextQuery(fts);
        collect(h, options.build(), row -> out.add(new ScoredRow(row, ((Number) row.remove(SCORE)).doubleValue())));
        out.sort(java.util.Comparator.comparingDouble(ScoredRow::score).reversed()
            .thenComparing(r -> (String) r.row().get(ID), Filter::compareCodePoints));
        return out;
      }
    });
  }

  /**
   * The {@code k} rows of exactly {@code version} of the branch nearest to {@code query} by L2
   * distance on the vector column {@code column}, nearest first (ties by id), each with its exact
   * squared Euclidean distance (double precision, computed here from the row's vector, so the same
   * with or without an index). L2 is the reference's metric (Lance's default, its {@code ivf_flat}
   * index is built for it; issue 47 item 8): every vector, the zero vector included, has a distance
   * to every query, so a row is never dropped for its vector. Only rows {@code prefilter} admits are
   * candidates (Lance's prefilter: a selective filter cannot starve the result). Rows with a null
   * vector are not candidates (Lance skips them; so does the reference). {@code columns} empty means
   * every column; {@code id} is always read.
   *
   * <p>With an L2 vector index on {@code column} Lance searches it (approximate: the k it finds
   * may miss a true neighbour) plus, flat, the fragments appended since it was built; without one,
   * or with an index of another metric, the search is flat and exact.
   *
   * @throws IllegalArgumentException when {@code column} is not a vector column of
   *     {@code query.length} dimensions (Lance would silently ignore the search), or the query
   *     vector holds a non-finite number
   */
  public List<ScoredRow> nearest(String location, Optional<String> nativeBranch, long version, String column,
      float[] query, int k, Filter prefilter, List<String> columns) {
    SqlLiteral.identifier(column);
    if (!SearchIndexes.usableQuery(query)) {
      throw new IllegalArgumentException("a nearest query vector must hold finite numbers only");
    }
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        SearchIndexes.requireVectorColumn(h.table.getSchema(), column, query.length);
        List<ScoredRow> out = new ArrayList<>();
        if (k <= 0) {
          return out;
        }
        boolean indexed = SearchIndexes.l2VectorIndex(h.table, column);
        org.lance.ipc.Query nearest = new org.lance.ipc.Query.Builder().setColumn(column).setKey(query.clone())
            .setK(k).setDistanceType(org.lance.index.DistanceType.L2).setUseIndex(indexed).build();
        List<String> read = new ArrayList<>(columns);
        boolean keepVector = columns.isEmpty() || columns.contains(column);
        if (!read.isEmpty() && !read.contains(column)) {
          read.add(column);
        }
        ScanOptions.Builder options = searchOptions(h.table, prefilter, read, DISTANCE).nearest(nearest);
        collect(h, options.build(), row -> {
          row.remove(DISTANCE);
          Object vector = keepVector ? row.get(column) : row.remove(column);
          // A null vector is no candidate (as in the reference); every other vector has a distance.
          if (vector instanceof float[] v) {
            out.add(new ScoredRow(row, SearchIndexes.l2Distance(query, v)));
          }
        });
        out.sort(java.util.Comparator.comparingDouble(ScoredRow::score)
            .thenComparing(r -> (String) r.row().get(ID), Filter::compareCodePoints));
        return out;
      }
    });
  }

  /** Scan options for a search: the columns (plus id and the score column), the prefilter. */
  private static ScanOptions.Builder searchOptions(Dataset table, Filter prefilter, List<String> columns,
      String scoreColumn) {
    List<String> read = new ArrayList<>();
    if (columns.isEmpty()) {
      table.getSchema().getFields().forEach(f -> read.add(f.getName()));
    } else {
      read.addAll(columns);
    }
    if (!read.contains(ID)) {
      read.add(0, ID);
    }
    // Named explicitly: lance-core 7.0.0 still projects it unasked but warns that it will stop.
    read.add(scoreColumn);
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).columns(read);
    if (!prefilter.isTrue()) {
      // Lance's default applies the filter to the search's top-k (it can leave nothing); the
      // query language promises the top-k of the rows the filter admits.
      options.filter(prefilter.toSql()).prefilter(true);
    }
    return options;
  }

  private void collect(Handle h, ScanOptions options, Consumer<Map<String, Object>> rows) {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
    try {
      LanceSupport.scanBatches(h.table, options, h.allocator, batch -> {
        for (int i = 0; i < batch.getRowCount(); i++) {
          rows.accept(RowCodec.decode(batch, i));
        }
      });
    } catch (RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("search of " + h.table.uri() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * A pull cursor over the rows of exactly {@code version} of the branch with {@code id} greater
   * than {@code afterId} (empty: every row), in ascending id order, {@value #SCAN_BATCH_ROWS} rows per
   * scanner batch. {@code columns} empty means every column ({@code id} is always read). Resuming
   * with the last id seen is exact because ids are unique within a table version.
   *
   * <p>No id index is consulted (a range is not an exact probe), so Lance sorts the table's rows
   * natively; the JVM holds one batch.
   */
  public OrderedCursor orderedById(String location, Optional<String> nativeBranch, long version,
      Optional<String> afterId, List<String> columns) {
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS);
    afterId.ifPresent(id -> options.filter(Filter.gt(ID, id).toSql()));
    if (!columns.isEmpty()) {
      List<String> read = new ArrayList<>(columns);
      if (!read.contains(ID)) {
        read.add(0, ID);
      }
      options.columns(read);
    }
    org.lance.ipc.ColumnOrdering.Builder byId = new org.lance.ipc.ColumnOrdering.Builder();
    byId.setColumnName(ID);
    byId.setAscending(true);
    byId.setNullFirst(false);
    options.setColumnOrderings(List.of(byId.build()));
    return openScan(location, nativeBranch, version, options.build(), OrderedCursor::new);
  }

  /**
   * The rows of {@code fragments} of exactly {@code version} of the branch, every column, in the
   * scan's own order (fragment by fragment, no sort), {@value #SCAN_BATCH_ROWS} rows per scanner
   * batch, as Arrow: the rows a certified insertion interval added, streamed without a sort or a
   * decoded row (see {@link FragmentRows}).
   */
  public FragmentRows fragmentRows(String location, Optional<String> nativeBranch, long version,
      List<Integer> fragments) {
    if (fragments.isEmpty()) {
      throw new IllegalArgumentException("no fragments to read");
    }
    return openScan(location, nativeBranch, version,
        new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).fragmentIds(fragments).build(), FragmentRows::new);
  }

  /** A cursor over a scan it owns: its handle, scanner and reader (closed with the cursor). */
  private interface ScanCursor<T> {
    T open(AutoCloseable handle, org.lance.ipc.LanceScanner scanner, org.apache.arrow.vector.ipc.ArrowReader reader)
        throws IOException;
  }

  /** Opens a streaming scan of exactly {@code version} of the branch; on failure nothing stays open. */
  private <T> T openScan(String location, Optional<String> nativeBranch, long version, ScanOptions options,
      ScanCursor<T> cursor) {
    return lance(() -> {
      dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
          dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
      Handle h = open(location, nativeBranch, OptionalLong.of(version));
      org.lance.ipc.LanceScanner scanner = null;
      try {
        scanner = org.lance.ipc.LanceScanner.create(h.table, options, h.allocator);
        return cursor.open(h, scanner, scanner.scanBatches());
      } catch (Exception e) {
        try {
          if (scanner != null) {
            scanner.close();
          }
        } finally {
          h.close();
        }
        throw e;
      }
    });
  }

  /** The ids of the fragments exactly {@code version} of the branch holds. */
  public Set<Integer> fragmentIds(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        Set<Integer> ids = new TreeSet<>();
        h.table.getFragments().forEach(f -> ids.add(f.getId()));
        return ids;
      }
    });
  }

  /**
   * The versions of the branch's table that can still be opened (cleanup removes older ones):
   * whether {@code version} is among them, without opening it.
   */
  public boolean versionReadable(String location, Optional<String> nativeBranch, long version) {
    return versions(location, nativeBranch).contains(version);
  }

  /**
   * As {@link #scan}, handing each row's {@code _rowaddr} beside it (the row map holds the table's
   * columns only): what a writer keeps as {@link KnownRows} for the stage that follows.
   */
  public void scanAddressed(String location, Optional<String> nativeBranch, long version, Filter filter,
      List<String> columns, java.util.function.BiConsumer<Map<String, Object>, Long> rowSink) {
    lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        scanInto(h, filter, columns, true, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> row = RowCodec.decode(batch, i);
            Object address = row.remove(MetadataColumns.ROWADDR);
            rowSink.accept(row, (Long) address);
          }
        });
      }
      return null;
    });
  }

  /**
   * Stages an insertion-only {@code Update} of {@code rows} on the branch, planned against
   * {@code readVersion}: data files are written under the branch's tree, nothing is committed.
   *
   * <p>With {@code certifyAbsence} (strict insert, only after the caller's exact-id preflight
   * against the same read version), every certificate check Java can express is run on the staged
   * transaction (see {@link #insertCertificateViolations}) and the transaction carries
   * {@code omnigraph.insert_absence = v1} and {@link #INSERT_ABSENCE_PARENT} = the read version;
   * if any check fails the insert fails closed with
   * {@link IllegalStateException}. Without it, the transaction carries no property.
   *
   * @return the staged write; {@linkplain StagedWrite#isEmpty() empty} when {@code rows} is empty
   * @throws IllegalArgumentException when {@code schema} does not match the table or a row does not
   *     fit {@code schema} (see {@link RowCodec})
   * @throws IllegalStateException when {@code certifyAbsence} and a certificate check fails
   */
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence) {
    return stageInsert(location, nativeBranch, readVersion, schema, rows, certifyAbsence, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT).empty().build();
      }
      try (Handle h = open(location, nativeBranch, OptionalLong.of(readVersion));
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        Set<String> ids = distinctIds(rows);
        return stageInsertBatch(h, location, nativeBranch, readVersion, schema, batch, ids.size() == rows.size(),
            StagedKeys.sortedHashes(ids), certifyAbsence, uuid);
      }
    });
  }

  /**
   * As {@link #stageInsert(String, Optional, long, Schema, List, boolean, String)}, for rows already
   * held as Arrow (a merge's certificate-proven chunk copied from the source's fragments): the batch
   * is staged as it is, after the checks {@link RowCodec#encode} would have made that still apply to
   * rows of the same table (the write schema, non-null columns, a non-null id), and the same
   * certificate checks.
   *
   * @return the staged write; empty when the buffer holds no row
   * @throws IllegalArgumentException when the buffer's schema does not match the table, or a
   *     non-nullable column or the id holds a null
   * @throws IllegalStateException when {@code certifyAbsence} and a certificate check fails
   */
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion, ChunkBuffer chunk,
      boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (chunk.rows() == 0) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT).empty().build();
      }
      chunk.requireDeclaredNullability();
      // Distinct hashes prove distinct ids; only a repeated hash (a repeated id, or a collision)
      // needs the exact check.
      long[] hashes = chunk.sortedIdHashes();
      boolean distinct = true;
      for (int i = 1; i < hashes.length && distinct; i++) {
        distinct = hashes[i] != hashes[i - 1];
      }
      if (!distinct) {
        distinct = chunk.distinctIds().size() == chunk.rows();
      }
      try (Handle h = open(location, nativeBranch, OptionalLong.of(readVersion))) {
        return stageInsertBatch(h, location, nativeBranch, readVersion, chunk.schema(), chunk.seal(), distinct,
            hashes, certifyAbsence, uuid);
      }
    });
  }

  /**
   * @param distinctIds whether the batch's ids are distinct (a certified insert requires it)
   * @param idHashes the batch's id {@link StagedKeys#hash hashes}, sorted
   */
  private StagedWrite stageInsertBatch(Handle h, String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, VectorSchemaRoot batch, boolean distinctIds, long[] idHashes, boolean certifyAbsence,
      String uuid) {
    requireTableSchema(schema, h.table);
    int rows = batch.getRowCount();
    LanceSchema lanceSchema = h.table.getLanceSchema();
    List<FragmentMetadata> fragments = LanceSupport.stage(config, h.table, batch, h.allocator);
    StagedKeys.record(fragments, idHashes);
    Update update = LanceSupport.insertOnlyUpdate(fragments, lanceSchema);
    Map<String, String> properties = Map.of();
    if (certifyAbsence) {
      List<String> violations = new ArrayList<>(insertShapeViolations(update, lanceSchema, rows, uuid, readVersion));
      if (!distinctIds) {
        violations.add("the inserted ids are not distinct");
      }
      if (!violations.isEmpty()) {
        throw new IllegalStateException("strict insert into " + location + " fails closed: the staged"
            + " transaction cannot carry the insert-absence certificate: " + violations);
      }
      properties = certificate(readVersion);
    }
    return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT)
        .counts(rows, 0, 0)
        .properties(properties)
        .arrowBytes(RowCodec.arrowBytes(batch))
        .fragments(fragments, List.of(), List.of())
        .preservedFieldIds(update.fieldsForPreservingFragBitmap())
        .build();
  }

  private static Map<String, String> certificate(long readVersion) {
    return Map.of(INSERT_ABSENCE, INSERT_ABSENCE_V1, INSERT_ABSENCE_PARENT, Long.toString(readVersion));
  }

  /**
   * Stages an upsert of {@code rows} (distinct ids; the caller dedupes, last wins) on the branch,
   * planned against {@code readVersion}: the rows whose id exists at that version get deletion
   * vectors (a fragment losing every row is removed instead), every input row is written to new
   * fragments, and one {@code Update} (RewriteRows) carries updated, removed and new fragments.
   *
   * <p>An upsert that matched no existing row is a pure insertion; it carries the v1 certificate
   * when every check holds, and silently carries none otherwise (certification is an optimisation
   * for an upsert, never a reason to fail it). A replaced row gets a new row id.
   *
   * @return the staged write; empty when {@code rows} is empty
   * @throws IllegalArgumentException for duplicate or missing ids, a schema that does not match
   *     the table, or a row that does not fit the schema
   */
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows) {
    return stageUpsert(location, nativeBranch, readVersion, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return stageUpsert(location, nativeBranch, readVersion, schema, rows, uuid, KnownRows.NONE);
  }

  /**
   * As above; {@code known} rows of exactly {@code readVersion} on this branch spare the probe for
   * the existing rows when they cover every id.
   */
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid, KnownRows known) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.UPSERT).empty().build();
      }
      Set<String> ids = distinctIds(rows);
      if (ids.size() != rows.size()) {
        throw new IllegalArgumentException("upsert rows must have distinct ids (dedupe, last wins, before staging)");
      }
      try (Handle h = open(location, nativeBranch, OptionalLong.of(readVersion));
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        requireTableSchema(schema, h.table);
        LanceSchema lanceSchema = h.table.getLanceSchema();
        Existing existing = locate(h, ids, known);
        // The new rows' data file and the replaced rows' deletion files are independent writes:
        // side by side. Writing the fragment needs only the table's URI, not the handle.
        String uri = h.table.uri();
        java.util.concurrent.CompletableFuture<List<FragmentMetadata>> staging =
            dev.omnigraph.util.Background.start(() -> LanceSupport.stage(config, uri, batch, h.allocator));
        DeletionVectors deletions;
        List<FragmentMetadata> fragments;
        try {
          deletions = stageDeletions(h.table, existing);
        } finally {
          // Never leave the staging write running over a batch about to be closed.
          fragments = dev.omnigraph.util.Background.join(staging);
        }
        StagedKeys.record(fragments, ids);
        Update update = LanceSupport.rewriteRowsUpdate(
            fragments, deletions.updated, deletions.removed, lanceSchema);
        long updated = existing.ids.size();
        Map<String, String> properties = Map.of();
        if (existing.addresses.isEmpty()
            && insertShapeViolations(update, lanceSchema, rows.size(), uuid, readVersion).isEmpty()) {
          properties = certificate(readVersion);
        }
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.UPSERT)
            .counts(rows.size() - updated, updated, 0)
            .properties(properties)
            .arrowBytes(RowCodec.arrowBytes(batch))
            .fragments(fragments, deletions.updated, deletions.removed)
            .preservedFieldIds(update.fieldsForPreservingFragBitmap())
            .build();
      }
    });
  }

  /**
   * Stages a {@code Delete} of the rows whose id is in {@code ids} at {@code readVersion} of the
   * branch, through deletion vectors ({@code Fragment.deleteRows}; a fragment losing every row is
   * listed as deleted). The transaction's predicate is the exact {@code id IN (…)} filter, recorded
   * for audit only.
   *
   * @return the staged write; {@linkplain StagedWrite#isEmpty() empty} when no id matched (nothing
   *     to commit, no HEAD movement)
   */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids) {
    return stageDeleteIds(location, nativeBranch, readVersion, ids, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids, String uuid) {
    return stageDeleteIds(location, nativeBranch, readVersion, ids, uuid, KnownRows.NONE);
  }

  /** As above, with {@code known} rows of exactly {@code readVersion} (see {@link #stageUpsert}). */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids, String uuid, KnownRows known) {
    return lance(() -> {
      StagedWrite.Builder staged =
          StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.DELETE);
      if (ids.isEmpty()) {
        return staged.empty().build();
      }
      try (Handle h = open(location, nativeBranch, OptionalLong.of(readVersion))) {
        Existing existing = locate(h, new LinkedHashSet<>(ids), known);
        if (existing.addresses.isEmpty()) {
          return staged.empty().build();
        }
        DeletionVectors deletions = stageDeletions(h.table, existing);
        return staged
            .counts(0, 0, existing.rowCount())
            .fragments(List.of(), deletions.updated, deletions.removed)
            .deletePredicate(Filter.in(ID, existing.ids).toSql())
            .build();
      }
    });
  }

  /**
   * Stages an {@code Overwrite} whose new fragments hold exactly {@code rows}: once committed, the
   * branch's table content is replaced (an empty {@code rows} stages a valid zero-fragment
   * overwrite, i.e. an empty table; it is not an empty staged write).
   *
   * @throws IllegalArgumentException when {@code schema} does not match the table or a row does not
   *     fit it
   */
  public StagedWrite stageOverwrite(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows) {
    return stageOverwrite(location, nativeBranch, readVersion, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageOverwrite(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(readVersion));
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        requireTableSchema(schema, h.table);
        List<FragmentMetadata> fragments = rows.isEmpty() ? List.of()
            : pastUsedIds(location, nativeBranch, readVersion, h.table,
                LanceSupport.stage(config, h.table, batch, h.allocator));
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.OVERWRITE)
            .counts(rows.size(), 0, 0)
            .arrowBytes(RowCodec.arrowBytes(batch))
            .fragments(fragments, List.of(), List.of())
            .overwriteSchema(schema)
            .build();
      }
    });
  }

  /**
   * An Overwrite's staged fragments, renumbered past every fragment id the table has used. Lance 7.0
   * restarts an Overwrite's fragment ids at 0, and its session cache keeps each fragment's stable
   * row-id sequence per dataset URI under the fragment id alone (lance#7645; keyed by the row-id
   * meta upstream since). A process that had read the replaced fragment 0 then attached that
   * fragment's row ids to the new fragment 0: a filtered scan failed ("all columns in a record batch
   * must have the same length") or, at equal lengths, carried another row's ids. Ids that never
   * repeat keep every cache entry right, in every process. Lance keeps a non-zero id it is given.
   */
  private List<FragmentMetadata> pastUsedIds(String location, Optional<String> branch, long readVersion,
      Dataset read, List<FragmentMetadata> staged) {
    int next = highestFragmentId(location, branch, readVersion, read) + 1;
    List<FragmentMetadata> out = new ArrayList<>(staged.size());
    for (FragmentMetadata f : staged) {
      out.add(new FragmentMetadata(next++, f.getFiles(), f.getPhysicalRows(), f.getDeletionFile(), f.getRowIdMeta(),
          f.getCreatedAtVersionMeta(), f.getLastUpdatedAtVersionMeta()));
    }
    return out;
  }

  /**
   * The highest fragment id of {@code readVersion}, or, when that version has no fragment (every
   * row deleted), of the newest earlier version that has one: ids only grow between Overwrites, so
   * that is the highest any version used. The walk back is as long as the run of fragmentless
   * versions, which only an emptied or a new table has. -1 when no version ever had a fragment.
   */
  private int highestFragmentId(String location, Optional<String> branch, long readVersion, Dataset read) {
    OptionalInt max = read.getFragments().stream().mapToInt(org.lance.Fragment::getId).max();
    for (long v = readVersion - 1; max.isEmpty() && v >= 1; v--) {
      try (Handle h = open(location, branch, OptionalLong.of(v))) {
        max = h.table.getFragments().stream().mapToInt(org.lance.Fragment::getId).max();
      } catch (RuntimeException notOnThisBranch) {
        break; // below a fork point the branch has no version of its own: its parent's ids are lower
      }
    }
    return max.orElse(-1);
  }

  /** Rows staged per fragment by a schema rewrite: few fragments, one bounded buffer. */
  static final int REWRITE_FRAGMENT_ROWS = 65_536;

  /**
   * Stages schema apply's rewrite of a table on its main: an {@code Overwrite} under {@code target}
   * whose fragments hold every row of {@code readVersion}, each target column filled from the source
   * column {@code sourceOf} names for it (its own name, or the name it was renamed from), or null
   * when it names none (an added property). Source columns no target column takes are dropped.
   * Streams: one scanner batch and one fragment buffer of {@value #REWRITE_FRAGMENT_ROWS} rows in
   * memory, whatever the table's size. An empty table stages a zero-fragment overwrite.
   *
   * @param sourceOf target column name → source column name (absent: the column starts null)
   */
  public StagedWrite stageSchemaRewrite(String location, long readVersion, Schema target,
      Map<String, String> sourceOf, String uuid) {
    return stageSchemaRewrite(location, readVersion, target, sourceOf, Map.of(), uuid);
  }

  /**
   * As above; each {@code revivedFrom} column (a soft-dropped property declared again) is filled,
   * for the rows that still exist, with its value at the given earlier version of the table (joined
   * by id; one column of that version is held in memory).
   */
  public StagedWrite stageSchemaRewrite(String location, long readVersion, Schema target,
      Map<String, String> sourceOf, Map<String, Long> revivedFrom, String uuid) {
    Map<String, Map<String, Object>> revived = new java.util.HashMap<>();
    revivedFrom.forEach((column, version) -> {
      Map<String, Object> values = new java.util.HashMap<>();
      scan(location, Optional.empty(), version, Filter.TRUE, List.of(ID, column),
          r -> values.put(String.valueOf(r.get(ID)), r.get(column)));
      revived.put(column, values);
    });
    return lance(() -> {
      List<FragmentMetadata> fragments = new ArrayList<>();
      long[] rows = {0};
      long[] bytes = {0};
      try (Handle h = open(location, Optional.empty(), OptionalLong.of(readVersion))) {
        List<Map<String, Object>> buffer = new ArrayList<>();
        Runnable flush = () -> {
          if (buffer.isEmpty()) {
            return;
          }
          try (VectorSchemaRoot batch = RowCodec.encode(target, buffer, h.allocator)) {
            bytes[0] += RowCodec.arrowBytes(batch);
            fragments.addAll(LanceSupport.stage(config, h.table, batch, h.allocator));
          }
          buffer.clear();
        };
        scanInto(h, Filter.TRUE, List.of(), false, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> source = RowCodec.decode(batch, i);
            Map<String, Object> row = new LinkedHashMap<>();
            for (Field f : target.getFields()) {
              String from = sourceOf.get(f.getName());
              Map<String, Object> old = revived.get(f.getName());
              row.put(f.getName(), from != null ? source.get(from)
                  : old != null ? old.get(String.valueOf(source.get(ID))) : null);
            }
            buffer.add(row);
            rows[0]++;
            if (buffer.size() >= REWRITE_FRAGMENT_ROWS) {
              flush.run();
            }
          }
        });
        flush.run();
        List<FragmentMetadata> renumbered = pastUsedIds(location, Optional.empty(), readVersion, h.table, fragments);
        fragments.clear();
        fragments.addAll(renumbered);
      }
      return StagedWrite.builder(location, Optional.empty(), readVersion, uuid, StagedWrite.Kind.OVERWRITE)
          .counts(rows[0], 0, 0)
          .arrowBytes(bytes[0])
          .fragments(fragments, List.of(), List.of())
          .overwriteSchema(target)
          .build();
    });
  }

  /**
   * Stages the strict version-one create of a new, empty dataset at {@code location} with
   * {@code schema} and the pre-minted {@code uuid} (schema apply's AddType). Nothing is written
   * until {@link #commit}, which lands it at version 1 only where no dataset exists.
   */
  public StagedWrite stageCreate(String location, Schema schema, String uuid) {
    return StagedWrite.builder(location, Optional.empty(), 0, uuid, StagedWrite.Kind.CREATE)
        .counts(0, 0, 0)
        .fragments(List.of(), List.of(), List.of())
        .overwriteSchema(schema)
        .build();
  }

  /** The Arrow schema of the table's main at exactly {@code version}. */
  public Schema arrowSchema(String location, long version) {
    return lance(() -> {
      try (Handle h = open(location, Optional.empty(), OptionalLong.of(version))) {
        return h.table.getSchema();
      }
    });
  }

  /**
   * Whether any dataset (any version, any file) exists at {@code location}: the AddType
   * path-absence check, and recovery's "was this create's dataset ever written".
   */
  public boolean datasetExists(String location) {
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      return !storage.list(location + "/").isEmpty();
    }
  }

  /**
   * Removes the dataset a version-one create of ours made, and only that: its version 1 must carry
   * {@code uuid} and nothing may follow it (recovery's rollback of an AddType whose registration
   * was never published). A dataset that is not ours is left untouched.
   *
   * @return whether the dataset was removed (false: absent, or not exactly ours)
   */
  public boolean dropOwnCreate(String location, String uuid) {
    if (!datasetExists(location)) {
      return false;
    }
    boolean ours;
    try (Handle h = openFresh(location, Optional.empty(), OptionalLong.empty())) {
      long head = h.table.latestVersion();
      ours = head == 1 && transactionAt(h, Optional.empty(), 1).map(tx -> tx.uuid().equals(uuid)).orElse(false);
    } catch (RuntimeException unreadable) {
      // Files but no readable version 1: the create never completed (Lance writes the manifest last).
      ours = true;
    }
    if (!ours) {
      return false;
    }
    PinnedHandles.forgetBranch(config, location, ""); // main: a re-created dataset reuses version numbers
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      storage.deletePrefix(location + "/");
    }
    return true;
  }

  /**
   * Commits {@code staged} with its pre-minted uuid, its read version, its properties and zero
   * Lance retries, then classifies the outcome from evidence: it re-reads the branch's head and the
   * transaction of every version after the read version (whether or not the commit call threw).
   *
   * <table>
   *   <caption>Classification</caption>
   *   <tr><th>evidence</th><th>outcome</th></tr>
   *   <tr><td>our uuid at readVersion+1, recorded read version = readVersion</td><td>LANDED</td></tr>
   *   <tr><td>our uuid at a later version (Lance rebased it over a foreign commit)</td>
   *       <td>REBASED (caller: RecoveryRequired)</td></tr>
   *   <tr><td>our uuid nowhere, head = readVersion</td><td>NOT_LANDED, effect-free</td></tr>
   *   <tr><td>our uuid nowhere, head moved</td><td>NOT_LANDED, {@code headMoved}</td></tr>
   * </table>
   *
   * <p>A staged write is committed at most once: Lance accepts the same transaction again (it
   * rebases it), so a second attempt could land the rows twice.
   *
   * @throws IllegalArgumentException when {@code staged} is empty
   * @throws IllegalStateException when {@code staged} was already passed to {@code commit}
   * @throws TableCommitUnknownException when the evidence cannot be read (the transaction may have
   *     landed: the caller must not clean up and must settle it later)
   */
  public CommitOutcome commit(StagedWrite staged) {
    if (staged.isEmpty()) {
      throw new IllegalArgumentException("nothing to commit: " + staged);
    }
    if (!staged.claimCommit()) {
      // Lance would happily rebase the same files in again under the same uuid: a duplicate.
      throw new IllegalStateException("staged write already committed once: " + staged);
    }
    if (staged.kind() == StagedWrite.Kind.CREATE) {
      return commitCreate(staged);
    }
    Exception failure = null;
    Dataset committed = null;
    try (Handle h = open(staged.location(), staged.nativeBranch(), OptionalLong.of(staged.readVersion()))) {
      committed = LanceSupport.commit(
          h.table, staged.operation(), staged.readVersion(), staged.uuid(), staged.properties());
    } catch (Exception e) {
      // Deliberately not inspected: a conflict, a rebase failure and a network error all look
      // alike, and lance-java throws undeclared checked IOExceptions too, hence Exception.
      failure = e;
    }
    try {
      // A normal return at exactly readVersion + 1 is Lance's own proof: with zero retries, a
      // foreign commit after the read version would have taken readVersion + 1 (or rebased us past
      // it), so this version is ours, with our uuid. Anything else is settled by re-reading.
      CommitOutcome outcome = failure == null && committed != null && committed.version() == staged.readVersion() + 1
          ? CommitOutcome.landed(committed.version())
          : classify(staged, failure);
      if (committed != null && outcome.kind() == CommitOutcome.Kind.LANDED
          && committed.version() == outcome.version()) {
        // Confirmed from evidence to be exactly our version: the next write plans against it. On a
        // branch the committed handle is the branch's; pinned handles serve reads, stages, commits
        // and version listings of their own ref only, never a checkout from their main.
        PinnedHandles.adopt(config, staged.location(), staged.nativeBranch(), outcome.version(), committed, committed);
        committed = null;
      }
      return outcome;
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), staged.readVersion(), staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure); // the commit call's own failure, for diagnosis
      }
      throw unknown;
    } finally {
      if (committed != null) {
        committed.close();
      }
    }
  }

  /** {@link #commit} of a version-one create: settled from whether version 1 carries our uuid. */
  private CommitOutcome commitCreate(StagedWrite staged) {
    // Lance's commit at read version 0 over an existing dataset is an Overwrite of it, not a
    // refusal (tried here): the path-absence check is what makes the create strict. It is exact
    // within the single-writer-process boundary, where the caller holds the table's gate.
    if (datasetExists(staged.location())) {
      return CommitOutcome.notLanded(head(staged.location(), Optional.empty()), "a dataset already exists at "
          + staged.location() + "; a version-one create never replaces one");
    }
    Exception failure = null;
    try (BufferAllocator allocator = new RootAllocator();
        Dataset created = LanceSupport.commitCreate(config, staged.location(), staged.operation(), staged.uuid(),
            staged.properties(), allocator)) {
      if (created.version() == 1) {
        return CommitOutcome.landed(1);
      }
    } catch (Exception e) {
      failure = e; // not inspected: the evidence below decides
    }
    String cause = failure == null ? "the create returned normally"
        : "the create failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    try {
      if (!datasetExists(staged.location())) {
        return CommitOutcome.notLanded(0, "create of " + staged.location() + " did not land; " + cause);
      }
      try (Handle h = openFresh(staged.location(), Optional.empty(), OptionalLong.empty())) {
        Optional<TxInfo> first = transactionAt(h, Optional.empty(), 1);
        if (first.isPresent() && first.get().uuid().equals(staged.uuid())) {
          long head = h.table.latestVersion();
          return head == 1 ? CommitOutcome.landed(1)
              : CommitOutcome.rebased(1, "our create of " + staged.location() + " is followed by versions up to "
                  + head + "; " + cause);
        }
        return CommitOutcome.notLanded(h.table.latestVersion(), "a dataset not created by transaction "
            + staged.uuid() + " exists at " + staged.location() + "; " + cause);
      }
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), 0, staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure);
      }
      throw unknown;
    }
  }

  private CommitOutcome classify(StagedWrite staged, Exception failure) {
    long readVersion = staged.readVersion();
    String cause = failure == null
        ? "the commit call returned normally"
        : "the commit call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    // Off main, a fresh open of the branch; on main, the pinned handle's version listing (the head
    // is read from storage either way, never taken from the commit call's answer).
    try (Handle h = staged.nativeBranch().isPresent()
        ? open(staged.location(), staged.nativeBranch(), OptionalLong.empty())
        : open(staged.location(), staged.nativeBranch(), OptionalLong.of(readVersion))) {
      long head = staged.nativeBranch().isPresent() ? h.table.version() : h.table.latestVersion();
      String firstForeign = null;
      List<Long> ours = new ArrayList<>();
      long oursRecordedRead = -1;
      // Every version after the read version, not just the first: the uuid must appear exactly once.
      for (long v = readVersion + 1; v <= head; v++) {
        Optional<TxInfo> tx = transactionAt(h, staged.nativeBranch(), v);
        if (tx.isPresent() && tx.get().uuid().equals(staged.uuid())) {
          if (ours.isEmpty()) {
            oursRecordedRead = tx.get().readVersion();
          }
          ours.add(v);
        } else if (firstForeign == null) {
          firstForeign = v + " (" + tx.map(t -> t.operation() + " " + t.uuid()).orElse("no transaction") + ")";
        }
      }
      if (ours.size() > 1) {
        return CommitOutcome.rebased(ours.get(ours.size() - 1), "transaction " + staged.uuid()
            + " appears at versions " + ours + ": committed more than once; " + cause);
      }
      if (ours.size() == 1) {
        long v = ours.get(0);
        if (v == readVersion + 1 && oursRecordedRead == readVersion) {
          return CommitOutcome.landed(v);
        }
        return CommitOutcome.rebased(v, "transaction " + staged.uuid() + " planned on version "
            + readVersion + " landed at version " + v + " (recorded read version " + oursRecordedRead
            + ") after foreign version " + firstForeign + "; " + cause);
      }
      if (head == readVersion) {
        return CommitOutcome.notLanded(head, "transaction " + staged.uuid()
            + " did not land; head is still version " + head + " (effect-free); " + cause);
      }
      return CommitOutcome.notLanded(head, "transaction " + staged.uuid() + " did not land; foreign"
          + " commits moved head from " + readVersion + " to " + head + ", first " + firstForeign + "; " + cause);
    }
  }

  /**
   * The transaction Lance recorded for {@code version} of the branch, or empty when that version
   * has none (e.g. the dataset's creation) or is the branch's fork point (its first version: Lance's
   * clone, which lance-java 7.0.0 cannot decode without aborting the JVM).
   *
   * @throws RuntimeException from Lance when the version does not exist
   */
  public Optional<TxInfo> transactionAt(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.empty())) {
        if (nativeBranch.isPresent() && version <= forkVersion(h, nativeBranch.get())) {
          // A branch's first version is Lance's clone of its parent. lance-java 7.0.0 cannot convert
          // that operation: readTransaction() panics in native code and aborts the whole JVM. It was
          // never written by a graph writer, so it reads as "no recorded transaction".
          return Optional.empty();
        }
        return transactionAt(h, nativeBranch, version);
      }
    });
  }

  private static long forkVersion(Handle h, String branch) {
    return LanceSupport.listBranches(h.main).stream().filter(b -> b.getName().equals(branch)).findFirst()
        .map(b -> b.getParentVersion()).orElse(0L);
  }

  private static Optional<TxInfo> transactionAt(Handle h, Optional<String> branch, long version) {
    try (Dataset at = h.main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)))) {
      Optional<Transaction> read = LanceSupport.readTransaction(at);
      if (read.isEmpty()) {
        return Optional.empty();
      }
      try (Transaction tx = read.get()) {
        Operation op = tx.operation();
        OptionalLong restored = op instanceof org.lance.operation.Restore r
            ? OptionalLong.of(r.version()) : OptionalLong.empty();
        return Optional.of(new TxInfo(tx.uuid(), tx.readVersion(),
            tx.transactionProperties().orElse(Map.of()), op.name(), restored));
      }
    }
  }

  /**
   * Re-checks, from persisted history, the insertion-absence certificate of {@code version} of the
   * branch: the transaction must carry {@code omnigraph.insert_absence = v1}, have been planned on
   * exactly {@code version - 1} both by Lance's record and by {@link #INSERT_ABSENCE_PARENT} (the
   * latter is what exposes a transaction Lance rebased), and be a pure insertion: an {@code Update} in RewriteRows mode with
   * no removed or updated fragments, no modified fields, {@code fieldsForPreservingFragBitmap} equal
   * to the full nested field preorder of the table schema, at least one new fragment, no deletion
   * file on any new fragment, and new physical rows equal to the live-row growth from
   * {@code version - 1}. (Lance's exact-id inserted-rows filter cannot be checked: lance-java 7.0.0
   * cannot write it; see docs/lance-write-layer.md.)
   *
   * @return the failed checks; empty when the certificate holds
   */
  public List<String> insertCertificateViolations(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      // Exact versions never change: the shared pinned handles serve both, with no fresh open.
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        Dataset at = h.table;
        Optional<Transaction> read = LanceSupport.readTransaction(at);
        if (read.isEmpty()) {
          return List.of("version " + version + " has no recorded transaction");
        }
        try (Transaction tx = read.get()) {
          List<String> violations = new ArrayList<>();
          Map<String, String> properties = tx.transactionProperties().orElse(Map.of());
          String property = properties.get(INSERT_ABSENCE);
          if (!INSERT_ABSENCE_V1.equals(property)) {
            violations.add(INSERT_ABSENCE + " is " + property + ", not " + INSERT_ABSENCE_V1);
          }
          if (tx.readVersion() != version - 1) {
            violations.add("planned on version " + tx.readVersion() + ", not the parent " + (version - 1));
          }
          String provenOn = properties.get(INSERT_ABSENCE_PARENT);
          if (!Long.toString(version - 1).equals(provenOn)) {
            // A rebased insert: Lance moved it (and its recorded read version) onto a parent that
            // absence was never proven against.
            violations.add("absence was proven on version " + provenOn + ", not the parent " + (version - 1));
          }
          if (version <= 1) {
            violations.add("version " + version + " has no parent version");
            return violations;
          }
          long growth;
          try (Handle parent = open(location, nativeBranch, OptionalLong.of(version - 1))) {
            growth = at.countRows() - parent.table.countRows();
          }
          violations.addAll(insertShapeViolations(
              tx.operation(), at.getLanceSchema(), growth, tx.uuid(), tx.readVersion()));
          return violations;
        }
      }
    });
  }

  /**
   * The certificate checks on a transaction's shape (seed: "Insertion-absence certificate"), less
   * the exact-id filter Java cannot write: the caller adds what only it knows.
   */
  static List<String> insertShapeViolations(
      Operation operation, LanceSchema schema, long expectedRows, String uuid, long readVersion) {
    List<String> violations = new ArrayList<>();
    if (uuid == null || uuid.isEmpty()) {
      violations.add("empty transaction uuid");
    }
    if (readVersion < 1) {
      violations.add("no parent read version");
    }
    if (!(operation instanceof Update update)) {
      violations.add("operation is " + operation.name() + ", not Update");
      return violations;
    }
    if (!update.updateMode().equals(Optional.of(Update.UpdateMode.RewriteRows))) {
      violations.add("update mode is " + update.updateMode() + ", not RewriteRows");
    }
    if (!update.removedFragmentIds().isEmpty()) {
      violations.add("removes fragments " + update.removedFragmentIds());
    }
    if (!update.updatedFragments().isEmpty()) {
      violations.add("updates " + update.updatedFragments().size() + " existing fragment(s)");
    }
    if (update.fieldsModified().length != 0) {
      violations.add("modifies fields " + Arrays.toString(update.fieldsModified()));
    }
    long[] preorder = LanceSupport.fieldIdsPreorder(schema);
    if (!Arrays.equals(update.fieldsForPreservingFragBitmap(), preorder)) {
      violations.add("fieldsForPreservingFragBitmap " + Arrays.toString(update.fieldsForPreservingFragBitmap())
          + " is not the schema's full preorder " + Arrays.toString(preorder));
    }
    if (update.newFragments().isEmpty()) {
      violations.add("no new fragment");
    }
    long physical = 0;
    for (FragmentMetadata fragment : update.newFragments()) {
      physical += fragment.getPhysicalRows();
      if (fragment.getDeletionFile() != null) {
        violations.add("new fragment " + fragment.getId() + " has a deletion file");
      }
    }
    if (physical != expectedRows) {
      violations.add("new fragments hold " + physical + " physical rows, not " + expectedRows);
    }
    return violations;
  }

  // ---------------------------------------------------------------------------------------------
  // Compaction (the Optimize writer's physical effect; implementation in TableCompaction).

  /**
   * Fragment statistics of {@code version} (empty: latest) of the branch, from that version's
   * manifest only: fragment count and fragments carrying deletion files. No data file is read.
   */
  public TableStats stats(String location, Optional<String> nativeBranch, OptionalLong version) {
    return new TableCompaction(config, this).stats(location, nativeBranch, version);
  }

  /**
   * Compacts the branch (Lance {@code compact}, deletions materialized), which commits by itself
   * with a Lance-minted uuid, then classifies what landed from the transactions recorded after
   * {@code expectedVersion} (see {@link CompactionOutcome.Kind}).
   *
   * @throws TableHeadMoved when the live HEAD is not {@code expectedVersion} (nothing written)
   * @throws TableCommitUnknownException when the history cannot be re-read afterwards (the
   *     compaction may have landed)
   */
  public CompactionOutcome compact(String location, Optional<String> nativeBranch, long expectedVersion) {
    return new TableCompaction(config, this).compact(location, nativeBranch, expectedVersion);
  }

  /**
   * Classifies the branch's history after {@code expectedVersion} as {@link #compact} does, without
   * compacting: what recovery of an interrupted optimize reads.
   */
  public CompactionOutcome compactionSince(String location, Optional<String> nativeBranch, long expectedVersion) {
    TableCompaction c = new TableCompaction(config, this);
    return c.classify(location, nativeBranch, expectedVersion,
        c.stats(location, nativeBranch, OptionalLong.of(expectedVersion)), null);
  }

  // ---------------------------------------------------------------------------------------------

  /** Runs {@code read} on the shared handle of exactly {@code version} (see {@link PinnedHandles}). */
  <T> T atVersion(String location, Optional<String> nativeBranch, long version,
      java.util.function.Function<Dataset, T> read) {
    return lance(() -> {
      try (Handle h = open(location, nativeBranch, OptionalLong.of(version))) {
        return read.apply(h.table);
      }
    });
  }

  /** A Lance call that may throw anything, checked exceptions included. */
  @FunctionalInterface
  private interface LanceCall<T> {
    T call() throws Exception;
  }

  /**
   * Runs {@code call}, rethrowing a checked exception unchecked. lance-java throws checked
   * {@code java.io.IOException}s from native code without declaring them (seen from commit, open
   * and scan), which would otherwise escape every {@code catch (RuntimeException)} of our callers.
   * This only wraps; nothing here decides anything from the exception's type.
   */
  private static <T> T lance(LanceCall<T> call) {
    try {
      return call.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The rows of the checked-out version whose id is among the probed ids. */
  private static final class Existing {
    final Set<String> ids = new LinkedHashSet<>();
    /** fragment id → row offsets within it (from {@code _rowaddr}). */
    final TreeMap<Integer, List<Integer>> addresses = new TreeMap<>();

    long rowCount() {
      return addresses.values().stream().mapToLong(List::size).sum();
    }
  }

  /** Deletion vectors staged for {@link Existing} rows. */
  private static final class DeletionVectors {
    final List<FragmentMetadata> updated = new ArrayList<>();
    final List<Long> removed = new ArrayList<>();
  }

  /** The rows of {@code ids}: from {@code known} when it covers them all, else probed. */
  private Existing locate(Handle h, Collection<String> ids, KnownRows known) {
    if (known.addresses().isEmpty() || !known.covers(ids)) {
      return findExisting(h, ids);
    }
    Existing existing = new Existing();
    for (String id : ids) {
      Long rowAddress = known.addresses().get(id);
      if (rowAddress != null) {
        existing.ids.add(id);
        existing.addresses.computeIfAbsent((int) (rowAddress >>> 32), k -> new ArrayList<>())
            .add(RowAddress.rowIndex(rowAddress));
      }
    }
    return existing;
  }

  private Existing findExisting(Handle h, Collection<String> ids) {
    Existing existing = new Existing();
    for (List<String> chunk : chunks(ids)) {
      scanInto(h, Filter.in(ID, chunk), List.of(ID), true, batch -> {
        FieldVector id = batch.getVector(ID);
        FieldVector address = batch.getVector(MetadataColumns.ROWADDR);
        for (int i = 0; i < batch.getRowCount(); i++) {
          existing.ids.add((String) RowCodec.get(id, i));
          long rowAddress = (Long) RowCodec.get(address, i);
          // A row address is (fragment id << 32) | offset within the fragment.
          existing.addresses.computeIfAbsent((int) (rowAddress >>> 32), k -> new ArrayList<>())
              .add(RowAddress.rowIndex(rowAddress));
        }
      });
    }
    return existing;
  }

  /**
   * Writes deletion files for the {@code existing} rows of {@code table}'s checked-out version
   * without committing. Lance merges them with each fragment's current deletion vector and returns
   * null for a fragment with no live row left, which must then be removed rather than updated.
   */
  private static DeletionVectors stageDeletions(Dataset table, Existing existing) {
    DeletionVectors out = new DeletionVectors();
    existing.addresses.forEach((fragmentId, offsets) -> {
      List<Integer> sorted = offsets.stream().sorted().toList();
      FragmentMetadata after = table.getFragment(fragmentId).deleteRows(sorted);
      if (after == null) {
        out.removed.add((long) fragmentId);
      } else {
        out.updated.add(after);
      }
    });
    return out;
  }

  private void scanInto(Handle h, Filter filter, List<String> columns, boolean withRowAddress,
      Consumer<VectorSchemaRoot> batches) {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS);
    if (!filter.isTrue()) {
      options.filter(filter.toSql());
    }
    if (!columns.isEmpty()) {
      options.columns(columns);
    }
    if (withRowAddress) {
      options.withRowAddress(true);
    }
    // Lance's default, stated because the key probes depend on it: a filter on an indexed column
    // (id, src, dst) reads the index and only the fragments it names plus the fragments the index
    // does not cover yet, not every fragment (issue 11). Except on a second-generation fork, whose
    // inherited index files Lance cannot find (lance#7840): scanning there is slower but answers.
    options.useScalarIndex(!forkedFromABranch(h));
    Optional<List<Integer>> fragments = filter.exactStrings(ID).flatMap(ids -> probedFragments(h.table, ids));
    if (fragments.isPresent()) {
      if (fragments.get().isEmpty()) {
        return; // every fragment provably holds none of the probed ids
      }
      options.fragmentIds(fragments.get());
    }
    try {
      LanceSupport.scanBatches(h.table, options.build(), h.allocator, batches);
    } catch (RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("scan of " + h.table.uri() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * The fragments an exact id probe must read: every fragment the id index covers (the index
   * answers for them; a restricted scan still uses it), and every uncovered fragment unless this
   * process staged it and none of {@code ids} was written into it ({@link StagedKeys}). Empty when
   * nothing can be skipped (scan as usual).
   */
  private static Optional<List<Integer>> probedFragments(Dataset table, Set<String> ids) {
    Set<Integer> covered = new HashSet<>();
    for (org.lance.index.Index index : table.getIndexes()) {
      if (index.name().equals(KeyIndexes.indexName(ID))) {
        covered.addAll(index.fragments().orElse(List.of()));
      }
    }
    List<Integer> read = new ArrayList<>();
    boolean skipped = false;
    StagedKeys.Probe probe = null;
    for (org.lance.Fragment fragment : table.getFragments()) {
      FragmentMetadata m = fragment.metadata();
      if (!covered.contains(m.getId())) {
        probe = probe == null ? new StagedKeys.Probe(ids) : probe;
        if (probe.provablyFree(m)) {
          skipped = true;
          continue;
        }
      }
      read.add(m.getId());
    }
    return skipped ? Optional.of(read) : Optional.empty();
  }

  private static List<List<String>> chunks(Collection<String> ids) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(ids));
    List<List<String>> chunks = new ArrayList<>();
    for (int i = 0; i < all.size(); i += ID_CHUNK) {
      chunks.add(all.subList(i, Math.min(all.size(), i + ID_CHUNK)));
    }
    return chunks;
  }

  private static Set<String> distinctIds(List<Map<String, Object>> rows) {
    Set<String> ids = new HashSet<>();
    for (int r = 0; r < rows.size(); r++) {
      if (!(rows.get(r).get(ID) instanceof String id)) {
        throw new IllegalArgumentException("row " + r + ": column 'id' must be a non-null String");
      }
      ids.add(id);
    }
    return ids;
  }

  /**
   * Rejects a write schema that differs from the table's in names, types, nullability or nesting:
   * staged files are written from the given schema and would otherwise commit columns the table
   * does not declare.
   */
  private static void requireTableSchema(Schema given, Dataset table) {
    Schema actual = table.getSchema();
    if (!sameShape(given.getFields(), actual.getFields())) {
      throw new IllegalArgumentException("write schema " + given + " does not match the table schema " + actual);
    }
  }

  static boolean sameShape(List<Field> a, List<Field> b) {
    return sameShape(a, b, false);
  }

  /**
   * @param elementsOfFixedList compare the element field of a FixedSizeList: lance-core 7.0.0
   *     reports it as nullable even when the table was created with a non-null element (vectors),
   *     so its nullability is not part of the shape
   */
  private static boolean sameShape(List<Field> a, List<Field> b, boolean elementsOfFixedList) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      if (!x.getName().equals(y.getName())
          || !x.getType().equals(y.getType())
          || (!elementsOfFixedList && x.isNullable() != y.isNullable())
          || !sameShape(x.getChildren(), y.getChildren(),
              x.getType() instanceof ArrowType.FixedSizeList)) {
        return false;
      }
    }
    return true;
  }

  /**
   * An allocator, the dataset's main handle, and the branch/version it checked out: either opened
   * for this call (latest versions) or leased from {@link PinnedHandles} (exact versions).
   */
  /**
   * Per table branch ({@link #forkKey}), whether it was forked from another branch rather than from
   * main: Lance resolves the index files such a fork inherits under its parent branch's tree, where
   * they are not (lance-format/lance#7840, pinned by
   * {@code AbstractEnsureIndicesTest.aSecondGenerationForkCannotReadIndexesItsGrandparentBuiltUpstreamLimit}),
   * so every read there that used a scalar index would fail. A branch's parent never changes while
   * it exists; a create or delete of the name through this class forgets the answer.
   */
  private java.util.concurrent.ConcurrentHashMap<String, Boolean> forkedFromABranch() {
    return lance.forkedFromABranch; // per graph root (LanceRoot), not process-wide
  }

  private static String forkKey(String tableUri, String branch) {
    return tableUri + "#" + branch;
  }

  /** Forgets the answer for every table's branch of this name (a few listings again, never a wrong answer). */
  private void forgetFork(String branch) {
    forkedFromABranch().keySet().removeIf(k -> k.endsWith("#" + branch));
  }

  /** Whether {@code h} reads a table branch forked from another branch (one listing, then cached). */
  private boolean forkedFromABranch(Handle h) {
    // A branch handle's uri is <table>/tree/<branch> (also when it is its own "main" handle).
    String uri = h.table.uri();
    int tree = uri.indexOf("/tree/");
    if (tree < 0) {
      return false;
    }
    String branch = uri.substring(tree + "/tree/".length());
    // A branch handle lists the root's branches too (the refs live at the root).
    return forkedFromABranch().computeIfAbsent(forkKey(uri.substring(0, tree), branch), k ->
        LanceSupport.listBranches(h.table).stream().filter(b -> b.getName().equals(branch)).findFirst()
            .flatMap(b -> b.getParentBranch()).map(p -> !p.isEmpty() && !p.equals("main")).orElse(false));
  }

  private static final class Handle implements AutoCloseable {
    final BufferAllocator allocator;
    final Dataset main;
    final Dataset table;
    private final PinnedHandles.Entry lease;

    Handle(BufferAllocator allocator, Dataset main, Dataset table) {
      this.allocator = allocator;
      this.main = main;
      this.table = table;
      this.lease = null;
    }

    Handle(PinnedHandles.Entry lease) {
      this.allocator = PinnedHandles.allocator();
      this.main = lease.main;
      this.table = lease.table;
      this.lease = lease;
    }

    @Override
    public void close() {
      if (lease != null) {
        PinnedHandles.release(lease);
        return;
      }
      // Datasets before the allocator they were opened with.
      try {
        if (table != main) {
          table.close();
        }
      } finally {
        try {
          main.close();
        } finally {
          allocator.close();
        }
      }
    }
  }

  private Handle open(String location, Optional<String> branch, OptionalLong version) {
    if (version.isPresent()) {
      // An exact version never changes: share one open handle of it (see PinnedHandles).
      return new Handle(PinnedHandles.lease(lance, config, location, branch, version.getAsLong()));
    }
    return openFresh(location, branch, version);
  }

  /** A handle of this call's own, for operations that move the handle they run on. */
  private Handle openFresh(String location, Optional<String> branch, OptionalLong version) {
    BufferAllocator allocator = new RootAllocator();
    Dataset main = null;
    try {
      if (branch.isEmpty()) {
        main = LanceSupport.open(lance, config, location, version, allocator);
        return new Handle(allocator, main, main);
      }
      main = LanceSupport.open(lance, config, location, OptionalLong.empty(), allocator);
      Dataset table = main.checkout(LanceSupport.ref(branch, version));
      return new Handle(allocator, main, table);
    } catch (RuntimeException e) {
      if (main != null) {
        main.close();
      }
      allocator.close();
      throw e;
    }
  }
}
