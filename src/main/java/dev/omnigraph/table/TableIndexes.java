package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Index maintenance of data tables: the index state of a version, the staged build of property
 * indexes (committed by {@link DataTables#commit}), and the fold of unindexed fragments into stale
 * indexes, settled from the history it leaves (docs/lance-write-layer.md, "Index maintenance").
 * Reached through {@link DataTables#indexes()}.
 */
public final class TableIndexes {

  private final StorageConfig config;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableIndexes(StorageConfig config, LanceRoot lance) {
    this.lance = lance;
    this.config = config;
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
  public IndexOptimization optimizeIndices(TableAt expected) {
    Exception failure = null;
    try (TableHandle h = lance(() -> TableHandle.open(lance, config, expected.ref(), OptionalLong.empty()))) {
      long head = h.table.version();
      if (head != expected.version()) {
        return new IndexOptimization(IndexOptimization.Kind.HEAD_MOVED, expected.version(), head, List.of(),
            "live head is version " + head + ", not the expected " + expected.version() + "; nothing done", List.of());
      }
      FragmentStats stats = TableStatistics.fragmentStats(h.table);
      if (stats.indexesCurrent()) {
        return new IndexOptimization(IndexOptimization.Kind.UP_TO_DATE, expected.version(), head, List.of(),
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
      List<String> stale = TableStatistics.staleIndexes(stats);
      List<List<String>> folds = List.of(stale.stream().filter(n -> !vectors.contains(n)).toList(),
          stale.stream().filter(vectors::contains).toList());
      try {
        for (String column : stats.missingKeyIndexes()) {
          KeyIndexes.create(h.table, column);
        }
      } catch (Exception e) {
        // Not inspected: the re-read below decides (one source of truth, not the failure's text).
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
      return classifyIndexWork(expected, failure);
    } catch (Exception e) {
      TableCommitUnknownException unknown =
          new TableCommitUnknownException(expected, "", e);
      if (failure != null) {
        unknown.addSuppressed(failure);
      }
      throw unknown;
    }
  }

  private IndexOptimization classifyIndexWork(
      TableAt readAt, Exception failure) {
    String cause = failure == null
        ? "the index call returned normally"
        : "the index call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, readAt.ref(), OptionalLong.empty())) {
        long head = h.table.version();
        // What is still stale at the head the caller will publish (an index Lance could not fold).
        List<String> stale = TableStatistics.staleIndexes(TableStatistics.fragmentStats(h.table));
        List<TxInfo> transactions = new ArrayList<>();
        String unexpected = null;
        for (long v = readAt.version() + 1; v <= head; v++) {
          Optional<TxInfo> tx = DataTables.transactionAt(h, readAt.nativeBranch(), v);
          tx.ifPresent(transactions::add);
          if (unexpected == null && (tx.isEmpty() || !tx.get().operation().equals("CreateIndex")
              || tx.get().readVersion() != v - 1)) {
            unexpected = "version " + v + " is " + tx.map(t -> t.operation() + " planned on version "
                + t.readVersion()).orElse("without a recorded transaction");
          }
        }
        if (head == readAt.version()) {
          return new IndexOptimization(IndexOptimization.Kind.NOT_LANDED, readAt.version(), head, transactions,
              "head is still version " + head + " (effect-free); " + cause, stale);
        }
        if (head < readAt.version() || unexpected != null) {
          return new IndexOptimization(IndexOptimization.Kind.UNCLASSIFIED, readAt.version(), head, transactions,
              "head moved from " + readAt.version() + " to " + head + " and not only by index work: "
                  + (unexpected == null ? "head went backwards" : unexpected) + "; " + cause, stale);
        }
        return new IndexOptimization(IndexOptimization.Kind.OPTIMIZED, readAt.version(), head, transactions,
            "versions " + (readAt.version() + 1) + ".." + head + " are CreateIndex commits chained on " + readAt.version()
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
  public TableIndexState indexState(TableAt at,
      Collection<String> vectorColumns) {
    return indexState(at, vectorColumns, List.of());
  }

  /**
   * As {@link #indexState(String, Optional, long, Collection)}, and for each of {@code textColumns}
   * how many rows hold a non-null, non-empty string (one count per column).
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public TableIndexState indexState(TableAt at,
      Collection<String> vectorColumns, Collection<String> textColumns) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
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
        return new TableIndexState(at.version(), rows, indexes, vectors, texts);
      }
    });
  }

  /**
   * Builds every index of {@code specs} over all fragments of exactly {@code readVersion} of the
   * branch and stages them as <b>one</b> {@code CreateIndex} transaction with the pre-minted
   * {@code uuid}: the index files are written, nothing is committed, HEAD does not move
   * (docs/lance-write-layer.md, "Property indexes"). {@link DataTables#commit} then lands all of them at
   * {@code readVersion + 1} or none. Builds run one after another on one handle of the version.
   *
   * @param vectors non-null vectors per VECTOR column (from {@link #indexState}); each must be ≥ 1
   * @throws IllegalArgumentException for no specs, a duplicate index name, a version with no row,
   *     or a VECTOR column without a trainable vector
   * @throws NoTextToIndex when an INVERTED column yields no token at that version (nothing committed)
   * @throws RuntimeException from Lance when a build fails (nothing committed; files left are garbage)
   */
  public StagedWrite stageCreateIndices(TableAt readAt,
      List<IndexSpec> specs, Map<String, Long> vectors, String uuid) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("no index to build on " + readAt.location());
    }
    if (specs.stream().map(IndexSpec::name).distinct().count() != specs.size()) {
      throw new IllegalArgumentException("duplicate index names in " + specs);
    }
    return lance(() -> {
      try (TableHandle h = TableHandle.openFresh(lance, config, readAt.ref(), OptionalLong.of(readAt.version()))) {
        List<Integer> fragments = new ArrayList<>();
        for (org.lance.Fragment fragment : h.table.getFragments()) {
          fragments.add(fragment.getId());
        }
        if (fragments.isEmpty()) {
          // An index over no fragment indexes nothing (and Lance's vector training fails on it).
          throw new IllegalArgumentException("version " + readAt.version() + " of " + readAt.location() + " has no fragment");
        }
        List<org.lance.index.Index> built = new ArrayList<>();
        for (IndexSpec spec : specs) {
          org.lance.index.Index index = PropertyIndexes.build(h.table, spec, fragments,
              vectors.getOrDefault(spec.column(), 0L));
          if (index.datasetVersion() != readAt.version()) {
            throw new IllegalStateException("index " + index.name() + " was built on version "
                + index.datasetVersion() + ", not " + readAt.version());
          }
          built.add(index);
        }
        String names = String.join(",", specs.stream().map(IndexSpec::name).toList());
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.INDEX)
            .indices(built)
            .properties(Map.of(INDEX_BATCH, names))
            .build();
      }
    });
  }
}
