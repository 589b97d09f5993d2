package dev.omnigraph.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.index.Index;
import org.lance.index.IndexCriteria;
import org.lance.index.IndexDescription;
import org.lance.index.IndexType;
import org.lance.schema.LanceField;

/**
 * What a table version's indexes offer a search, decided from Lance's index metadata (the manifest's
 * index list and the indexes' recorded details), never from index names: an inverted index on a
 * column, its analyzer, an L2 vector index. Facts in docs/lance-write-layer.md ("Search reads").
 */
final class SearchIndexes {

  /** Terms one fuzzy query word may expand to (Lance's own default). */
  static final int FUZZY_EXPANSIONS = 50;

  private static final ObjectMapper JSON = new ObjectMapper();

  private SearchIndexes() {}

  /** The Lance field id of top-level column {@code column}, if the table has it. */
  static Optional<Integer> fieldId(Dataset table, String column) {
    for (LanceField f : table.getLanceSchema().fields()) {
      if (f.getName().equals(column)) {
        return Optional.of(f.getId());
      }
    }
    return Optional.empty();
  }

  /** An index of {@code type} on exactly {@code column}, if the checked-out version has one. */
  static Optional<Index> on(Dataset table, String column, IndexType type) {
    Optional<Integer> id = fieldId(table, column);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    for (Index index : table.getIndexes()) {
      if (index.indexType() == type && index.fields().equals(java.util.List.of(id.get()))) {
        return Optional.of(index);
      }
    }
    return Optional.empty();
  }

  /** The inverted (full-text) index on {@code column}, if any. */
  static Optional<Index> inverted(Dataset table, String column) {
    return on(table, column, IndexType.INVERTED);
  }

  /** The index's recorded details (analyzer, metric) as JSON; empty when Lance has none. */
  private static JsonNode details(Dataset table, Index index) {
    for (IndexDescription d : table.describeIndices(new IndexCriteria.Builder().hasName(index.name()).build())) {
      String json = d.getDetailsJson();
      if (json != null && !json.isBlank()) {
        try {
          return JSON.readTree(json);
        } catch (java.io.IOException e) {
          throw new IllegalStateException("index " + index.name() + " has unreadable details: " + json, e);
        }
      }
    }
    return JSON.createObjectNode();
  }

  /** Whether the inverted index lowercases the text it indexes (Lance's default does). */
  static boolean lowercases(Dataset table, Index invertedIndex) {
    return details(table, invertedIndex).path("lower_case").asBoolean(true);
  }

  /**
   * Whether {@code column} has a vector index built for the L2 metric: only then may an L2 search
   * use it (an index of another metric, such as the cosine indexes built before vector search ranked by L2,
   * would answer for its own metric; the search is then flat and exact instead).
   */
  static boolean l2VectorIndex(Dataset table, String column) {
    Optional<Index> index = on(table, column, IndexType.VECTOR);
    return index.isPresent() && "L2".equalsIgnoreCase(details(table, index.get()).path("metric_type").asText());
  }

  /**
   * Refuses a search on a column that is not a vector of exactly {@code dimensions}: lance-core
   * 7.0.0 silently ignores a nearest query of the wrong dimension and scans every row.
   */
  static void requireVectorColumn(Schema schema, String column, int dimensions) {
    Field field = schema.getFields().stream().filter(f -> f.getName().equals(column)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("table has no column '" + column + "'"));
    if (!(field.getType() instanceof ArrowType.FixedSizeList list)) {
      throw new IllegalArgumentException("column '" + column + "' is not a vector column: " + field.getType());
    }
    if (list.getListSize() != dimensions) {
      throw new IllegalArgumentException("column '" + column + "' holds vectors of " + list.getListSize()
          + " dimensions, the query has " + dimensions);
    }
  }

  /**
   * A query vector L2 is defined for: finite components. A zero vector is a query like any other
   * (the reference's logic tests: the reference ranks by L2, where the zero vector is simply the origin).
   */
  static boolean usableQuery(float[] query) {
    for (float x : query) {
      if (!Float.isFinite(x)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The squared Euclidean distance Σ(aᵢ − bᵢ)² in double precision (what Lance's L2 reports as
   * {@code _distance}, and so what the reference's {@code nearest} projects); NaN when the lengths
   * differ. Defined for every pair of finite vectors, zero vectors included.
   */
  static double l2Distance(float[] a, float[] b) {
    if (a.length != b.length) {
      return Double.NaN;
    }
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double d = (double) a[i] - b[i];
      sum += d * d;
    }
    return sum;
  }
}
