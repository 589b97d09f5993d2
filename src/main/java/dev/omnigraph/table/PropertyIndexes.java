package dev.omnigraph.table;

import dev.omnigraph.schema.IndexKind;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.Index;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.index.vector.VectorTrainer;

/**
 * Builds one index of a data table <em>without committing it</em> (docs/lance-write-layer.md,
 * "Property indexes: BTree, inverted, vector"): lance-java 7.0.0's {@code createIndex} with an
 * explicit fragment list (every fragment of the checked-out version) takes Lance's
 * {@code execute_uncommitted} path, writes the index files under {@code _indices/<uuid>/} and
 * returns the complete {@link Index} metadata (index details included), while the dataset's
 * version does not move. The caller wraps the metadata of every index of one table into one
 * {@code CreateIndex} transaction and commits it with a pre-minted uuid ({@link DataTables#commit}).
 * Abandoned index files are garbage for cleanup, never visible.
 */
final class PropertyIndexes {

  /** The IVF partition count never exceeds this (training cost grows with it). */
  static final int MAX_PARTITIONS = 1024;

  /** Lloyd iterations of the IVF k-means (Lance's default). */
  static final int KMEANS_ITERATIONS = 50;

  /**
   * Every vector index is L2: what {@code nearest} ranks by (the reference's metric, as its logic
   * tests expect). An index of another metric is never used by a search.
   */
  static final DistanceType DISTANCE = DistanceType.L2;

  /** What lance-core 7.0.0 says when a fragment-scoped inverted build produced no partition. */
  static final String NO_PARTITIONS = "No partition metadata files found";

  private PropertyIndexes() {}

  /**
   * Builds {@code spec} over {@code fragments} of {@code table}'s checked-out version, uncommitted.
   *
   * @param vectors non-null vectors in the column (VECTOR only): sizes the IVF partitions; must be
   *     at least 1 (k-means cannot train on none — the planner reports such a column pending)
   * @throws RuntimeException from Lance when the build fails (nothing committed)
   */
  static Index build(Dataset table, IndexSpec spec, List<Integer> fragments, long vectors) {
    String uuid = UUID.randomUUID().toString();
    return switch (spec.kind()) {
      case BTREE -> table.createIndex(options(spec, IndexType.BTREE,
          IndexParams.builder().setScalarIndexParams(new BTreeIndexParams.Builder().build()).build(), fragments,
          uuid));
      case INVERTED -> {
        Index index = table.createIndex(options(spec, IndexType.INVERTED,
            IndexParams.builder().setScalarIndexParams(invertedParams()).build(), fragments, uuid));
        // A fragment-scoped inverted build writes partition files only; the merge writes the
        // index's metadata file beside them (still uncommitted). Without it the committed index
        // names files that do not exist (tried: "tokens.lance not found" on the first search).
        try {
          table.mergeIndexMetadata(uuid, IndexType.INVERTED, Optional.empty());
        } catch (RuntimeException e) {
          // lance-core 7.0.0 writes no partition when no row yields a token (null or empty text is
          // counted out by the planner; text of only stop words or punctuation is not), and then
          // refuses the merge: "No partition metadata files found in index directory". Its
          // message is the only evidence of that case; anything else stays Lance's failure.
          if (String.valueOf(e.getMessage()).contains(NO_PARTITIONS)) {
            throw new NoTextToIndex(spec.column(), e);
          }
          throw e;
        }
        yield index;
      }
      case VECTOR -> {
        if (vectors < 1) {
          throw new IllegalArgumentException("vector index on " + spec.column() + " needs at least one non-null"
              + " vector to train on");
        }
        int partitions = partitions(vectors);
        // A fragment-scoped vector build needs its IVF centroids given (Lance refuses: "missing
        // precomputed IVF centroids"), so they are trained first, over the same version.
        float[] centroids = VectorTrainer.trainIvfCentroids(table, spec.column(),
            new IvfBuildParams.Builder().setNumPartitions(partitions).setMaxIters(KMEANS_ITERATIONS).build(),
            DISTANCE);
        IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(partitions)
            .setMaxIters(KMEANS_ITERATIONS).setCentroids(centroids).build();
        yield table.createIndex(options(spec, IndexType.IVF_FLAT, IndexParams.builder()
            .setVectorIndexParams(new VectorIndexParams.Builder(ivf).setDistanceType(DISTANCE).build()).build(),
            fragments, uuid));
      }
      case NONE -> throw new IllegalArgumentException("no index of kind NONE");
    };
  }

  /** IVF partitions for {@code vectors} non-null vectors: about their square root, 1..{@value #MAX_PARTITIONS}. */
  static int partitions(long vectors) {
    long root = Math.round(Math.sqrt((double) vectors));
    return (int) Math.max(1, Math.min(Math.min(root, vectors), MAX_PARTITIONS));
  }

  /**
   * The inverted index's tokenizer, spelled out: lance-java 7.0.0's builder sends only the fields
   * set, and Lance rejects a partial set ("missing field `base_tokenizer`"). These are Lance's own
   * defaults, except positions, which are kept so phrase queries work.
   */
  static ScalarIndexParams invertedParams() {
    return new InvertedIndexParams.Builder()
        .baseTokenizer("simple")
        .language("English")
        .withPosition(true)
        .maxTokenLength(40)
        .lowerCase(true)
        .stem(true)
        .removeStopWords(true)
        .asciiFolding(true)
        .minNgramLength(3)
        .maxNgramLength(3)
        .prefixOnly(false)
        .build();
  }

  private static IndexOptions options(IndexSpec spec, IndexType type, IndexParams params, List<Integer> fragments,
      String uuid) {
    return IndexOptions.builder(List.of(spec.column()), type, params)
        .withIndexName(spec.name())
        .withIndexUUID(uuid)
        .withFragmentIds(fragments)
        .replace(false)
        .build();
  }

  /** The kind of an index Lance reports (its {@link IndexType}), as the planner compares it. */
  static IndexKind kindOf(IndexType type) {
    if (type == IndexType.BTREE) {
      return IndexKind.BTREE;
    }
    if (type == IndexType.INVERTED) {
      return IndexKind.INVERTED;
    }
    if (type == IndexType.VECTOR || type.name().startsWith("IVF")) {
      return IndexKind.VECTOR;
    }
    return IndexKind.NONE;
  }
}
