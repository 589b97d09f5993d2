package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;
import static dev.omnigraph.table.DataTables.ID;
import static dev.omnigraph.table.DataTables.SCAN_BATCH_ROWS;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.lance.Dataset;
import org.lance.ipc.ScanOptions;

/**
 * Search reads at an exact table version: BM25 full-text matches over an inverted index and the
 * k nearest rows by exact L2 distance, both with Lance's prefilter (docs/lance-write-layer.md,
 * "Search reads"). Reached through {@link DataTables#search()}.
 */
public final class TableSearch {

  /** Lance's BM25 score column of a full-text search. */
  static final String SCORE = "_score";

  /** Lance's distance column of a vector search. */
  static final String DISTANCE = "_distance";

  private final StorageConfig config;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableSearch(StorageConfig config, LanceRoot lance) {
    this.lance = lance;
    this.config = config;
  }

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
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.of(version))) {
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
   * index is built for it; the reference's logic tests): every vector, the zero vector included, has a distance
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
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.of(version))) {
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

  private void collect(TableHandle h, ScanOptions options, Consumer<Map<String, Object>> rows) {
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
}
