package dev.omnigraph.table;

import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.util.Ulid;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.index.vector.VectorIndexParams;

/**
 * The one place tests build property indexes, straight through lance-java on a table's dataset,
 * until the EnsureIndices writer exists ({@code omnigraph index ensure}); swapping this class's body
 * for that writer is the only edit the search and index-backed read tests need.
 *
 * <p>{@link #ensure} mimics what EnsureIndices publishes: it builds the index on the table's live
 * HEAD (which must be its pin) and publishes the new version as the pin in one graph commit, so a
 * read at the branch head sees the index. Only tables the branch owns are supported (an inherited
 * pin would move its owner's HEAD).
 */
public final class TestIndexes {

  /** The index kinds the issue decides by property type. */
  public enum Kind {
    /** Lance BTree scalar index: enums and orderable scalars. */
    BTREE,
    /** Lance inverted (full-text) index: free-text Strings. */
    INVERTED,
    /** IVF_FLAT vector index, cosine metric: Lance's behaviour with another metric than ours. */
    VECTOR,
    /** IVF_FLAT vector index, L2 metric: what the engine builds and searches (issue 47 item 8). */
    VECTOR_L2
  }

  private TestIndexes() {}

  /** Test-only actor of the fixture's commits. */
  public static final String ACTOR = "test:index-fixture";

  /**
   * Builds a {@code kind} index on {@code column} of the table at {@code location} (the latest
   * version of {@code branch}; empty: main): one {@code CreateIndex} commit.
   *
   * @return the table's new version
   */
  public static long build(StorageConfig config, String location, Optional<String> branch, String column, Kind kind) {
    return build(config, location, branch, column, kind, 0);
  }

  /**
   * As {@link #build(StorageConfig, String, Optional, String, Kind)}, a vector index with
   * {@code partitions} IVF partitions (0: at most 2, enough for the small test tables, where every
   * partition is probed and the search stays exact).
   */
  public static long build(StorageConfig config, String location, Optional<String> branch, String column, Kind kind,
      int partitions) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, location, allocator)) {
      Dataset target = branch.isEmpty() ? main : main.checkout(LanceSupport.ref(branch, OptionalLong.empty()));
      try {
        int lists = partitions > 0 ? partitions : Math.max(1, (int) Math.min(2, target.countRows()));
        target.createIndex(options(column, kind, lists));
        return target.version();
      } finally {
        if (target != main) {
          target.close();
        }
      }
    }
  }

  private static IndexOptions options(String column, Kind kind, int partitions) {
    return switch (kind) {
      case BTREE -> IndexOptions.builder(List.of(column), IndexType.BTREE,
          IndexParams.builder().setScalarIndexParams(new BTreeIndexParams.Builder().build()).build())
          .withIndexName(column + "_btree").build();
      // lance-core 7.0.0 rejects an inverted index without base_tokenizer (the builder's defaults
      // serialize none); these are Lance's documented defaults, spelled out.
      case INVERTED -> IndexOptions.builder(List.of(column), IndexType.INVERTED,
          IndexParams.builder().setScalarIndexParams(new InvertedIndexParams.Builder().baseTokenizer("simple")
              .language("English").withPosition(false).lowerCase(true).stem(true).removeStopWords(true)
              .asciiFolding(true).build()).build())
          .withIndexName(column + "_fts").build();
      case VECTOR -> IndexOptions.builder(List.of(column), IndexType.IVF_FLAT,
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfFlat(partitions, DistanceType.Cosine)).build())
          .withIndexName(column + "_vec").build();
      case VECTOR_L2 -> IndexOptions.builder(List.of(column), IndexType.IVF_FLAT,
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfFlat(partitions, DistanceType.L2)).build())
          .withIndexName(column + "_vec").build();
    };
  }

  /**
   * Builds each {@code columns[i]} index of {@code kinds[i]} on the table {@code tableKey} (e.g.
   * {@code node:Doc}) of graph branch {@code branch} and publishes the resulting version as the
   * table's pin, as EnsureIndices will.
   *
   * @return the published graph commit id
   */
  public static String ensure(StorageConfig config, String branch, String tableKey, List<String> columns,
      List<Kind> kinds) {
    GraphManifest manifest = new GraphManifest(config, StorageAdapters.open(config));
    BranchAuthority authority = manifest.capture(branch);
    TablePin pin = authority.state().tables().get(dev.omnigraph.api.TableKey.parse(tableKey));
    if (pin == null) {
      throw new IllegalArgumentException("no table " + tableKey + " on " + branch);
    }
    Optional<String> own = branch.equals("main") ? Optional.empty() : Optional.of(branch);
    if (!pin.nativeBranch().equals(own)) {
      throw new IllegalArgumentException(tableKey + " is inherited on " + branch + "; write the branch first");
    }
    long version = pin.version();
    for (int i = 0; i < columns.size(); i++) {
      version = build(config, pin.location(), pin.nativeBranch(), columns.get(i), kinds.get(i));
    }
    Instant now = Instant.now();
    long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    TableVersionUpdate update = new TableVersionUpdate(pin.tableKey(), pin.identity(), pin.location(), version,
        pin.nativeBranch(), pin.rowCount());
    return new ManifestBatchPublisher(config).publish(new ManifestBatchPublisher.Intent(branch,
        authority.nativeIdentity(), authority.head(), List.of(), List.of(update), Ulid.next(), Optional.of(ACTOR),
        Optional.empty(), micros)).commitId();
  }

  /** {@link #ensure} for one column. */
  public static String ensure(StorageConfig config, String branch, String tableKey, String column, Kind kind) {
    return ensure(config, branch, tableKey, List.of(column), List.of(kind));
  }

  /** The index names of exactly {@code version} of the table (main or {@code branch}), sorted. */
  public static List<String> indexNames(StorageConfig config, String location, Optional<String> branch, long version) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = LanceSupport.open(config, location, allocator);
        Dataset at = main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)))) {
      return at.listIndexes().stream().sorted().toList();
    }
  }
}
