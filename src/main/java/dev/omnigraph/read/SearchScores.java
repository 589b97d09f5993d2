package dev.omnigraph.read;

import dev.omnigraph.api.SearchIndexMissing;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.query.Clause;
import dev.omnigraph.query.Operand;
import dev.omnigraph.query.QueryParamException;
import dev.omnigraph.query.Score;
import dev.omnigraph.query.TextMode;
import dev.omnigraph.query.Value;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.MissingSearchIndex;
import dev.omnigraph.table.ScoredRow;
import dev.omnigraph.table.TextQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The search side of one read: which nodes a text match admits, and the score tables of
 * {@code nearest}, {@code bm25} and {@code rrf} over the nodes the match admitted. Every search
 * runs in the table layer with Lance's prefilter: the variable's pushed filters, plus the exact ids
 * the match admitted when they are few ({@value #EXACT_IDS}), so a filter is applied before the
 * search and never to a global top-k. When more ids were admitted than fit one id filter, a nearest
 * search asks for more rows until it has as many admitted ones as it needs or the table has no more.
 * Semantics: docs/indexes-and-search.md.
 */
final class SearchScores {

  /** At most this many admitted ids go into the search's prefilter (one id IN list). */
  static final int EXACT_IDS = 1_000;

  /** Where a variable's nodes live: its type, its table pin (null: no table), its pushed filter. */
  record Target(NodeType type, TablePin pin, Filter prefilter) {}

  private final DataTables tables;
  private final String queryName;
  private final long limit;
  private final Function<Value, Object> eval;
  private final Map<Clause.TextMatch, Set<String>> unfilteredMatches = new java.util.IdentityHashMap<>();

  /**
   * @param limit the query's limit (the depth of a nearest ranking); {@link Long#MAX_VALUE} when
   *     absent (the checker requires one wherever nearest or rrf appears)
   * @param eval the value of a literal or parameter in this run
   */
  SearchScores(DataTables tables, String queryName, long limit, Function<Value, Object> eval) {
    this.tables = tables;
    this.queryName = queryName;
    this.limit = limit;
    this.eval = eval;
  }

  // --- text matches -----------------------------------------------------------------------------

  /** The ids of {@code target}'s nodes (those its prefilter admits) whose text matches {@code m}. */
  Set<String> textMatches(Clause.TextMatch m, Target target) {
    Set<String> ids = new java.util.HashSet<>();
    if (target.pin() == null) {
      return ids;
    }
    Object text = eval.apply(m.query());
    if (text == null) {
      return ids; // an absent optional query matches nothing
    }
    int edits = 0;
    if (m.mode() == TextMode.FUZZY) {
      edits = m.maxEdits() == null ? TextMode.DEFAULT_MAX_EDITS : (int) nonNegative(m.maxEdits(), "fuzzy max_edits", 0);
    }
    TextQuery query = edits == 0 ? TextQuery.match((String) text) : TextQuery.fuzzy((String) text, edits);
    for (ScoredRow r : fullText(target, m.field(), query, target.prefilter(), m.mode().spelling())) {
      ids.add((String) r.row().get("id"));
    }
    return ids;
  }

  /** {@link #textMatches} over every node of the table (for a match on an outer variable). */
  Set<String> textMatchesUnfiltered(Clause.TextMatch m, Target target) {
    return unfilteredMatches.computeIfAbsent(m, k -> textMatches(m, new Target(target.type(), target.pin(), Filter.TRUE)));
  }

  // --- scores -----------------------------------------------------------------------------------

  /**
   * The score of each admitted node that has one, in ranking order (best first). {@code ids} are the
   * variable's nodes in the match's rows; null admits every node the target's prefilter admits (a
   * lone variable whose clauses all narrow its own scan). {@code leading}: the score is the query's
   * first order key, so a nearest table need only hold the {@code limit} nearest nodes.
   */
  LinkedHashMap<String, Double> table(Score score, Target target, Set<String> ids, boolean leading) {
    if (score instanceof Score.Nearest n) {
      return nearest(n, target, ids, leading || ids == null ? limit : ids.size());
    }
    if (score instanceof Score.Bm25 b) {
      return bm25(b, target, ids);
    }
    Score.Rrf r = (Score.Rrf) score;
    long k = r.k() == null ? Score.Rrf.DEFAULT_K : nonNegative(r.k(), "rrf k", 1);
    Map<String, Double> fused = new HashMap<>();
    for (Score arm : List.of(r.primary(), r.secondary())) {
      // A ranking's depth: the limit nearest nodes, every matching node (as the reference).
      LinkedHashMap<String, Double> ranking = arm instanceof Score.Nearest n ? nearest(n, target, ids, limit)
          : bm25((Score.Bm25) arm, target, ids);
      int rank = 0;
      for (String id : ranking.keySet()) {
        rank++;
        fused.merge(id, 1.0 / (k + rank), Double::sum);
      }
    }
    List<Map.Entry<String, Double>> entries = new ArrayList<>(fused.entrySet());
    entries.sort(Map.Entry.<String, Double>comparingByValue().reversed()
        .thenComparing(Map.Entry::getKey, Compare::codePoints));
    LinkedHashMap<String, Double> out = new LinkedHashMap<>();
    entries.forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** The {@code want} admitted nodes nearest to the query, nearest first, with their L2 distance (squared). */
  private LinkedHashMap<String, Double> nearest(Score.Nearest n, Target target, Set<String> ids, long want) {
    LinkedHashMap<String, Double> out = new LinkedHashMap<>();
    if (target.pin() == null || (ids != null && ids.isEmpty()) || want <= 0) {
      return out;
    }
    float[] query = vector(n.query());
    // Every node the prefilter admits counts (ids == null), or the admitted ids go into the prefilter.
    boolean exact = ids == null || ids.size() <= EXACT_IDS;
    Filter prefilter = ids != null && exact ? Filter.and(target.prefilter(), Filter.in("id", ids)) : target.prefilter();
    long k = Math.min(want, ids != null && exact ? ids.size() : Integer.MAX_VALUE);
    while (true) {
      TablePin pin = target.pin();
      List<ScoredRow> rows = tables.search().nearest(pin.at(), n.field().property(), query, (int) k, prefilter, List.of("id"));
      out.clear();
      for (ScoredRow r : rows) {
        String id = (String) r.row().get("id");
        if ((ids == null || ids.contains(id)) && out.size() < want) {
          out.put(id, r.score());
        }
      }
      // Enough, or every candidate seen (fewer rows than asked for), or the ids were exact.
      if (out.size() >= want || rows.size() < k || exact || k >= Integer.MAX_VALUE) {
        return out;
      }
      k = Math.min(Integer.MAX_VALUE, k * 2);
    }
  }

  /** Every admitted node whose text matches, most relevant first, with its BM25 score. */
  private LinkedHashMap<String, Double> bm25(Score.Bm25 b, Target target, Set<String> ids) {
    LinkedHashMap<String, Double> out = new LinkedHashMap<>();
    Object text = eval.apply(b.query());
    if (target.pin() == null || (ids != null && ids.isEmpty()) || text == null) {
      return out;
    }
    Filter prefilter = ids != null && ids.size() <= EXACT_IDS ? Filter.and(target.prefilter(), Filter.in("id", ids))
        : target.prefilter();
    for (ScoredRow r : fullText(target, b.field(), TextQuery.match((String) text), prefilter, "bm25")) {
      String id = (String) r.row().get("id");
      if (ids == null || ids.contains(id)) {
        out.put(id, r.score());
      }
    }
    return out;
  }

  private List<ScoredRow> fullText(Target target, Operand.Property field, TextQuery query, Filter prefilter,
      String function) {
    TablePin pin = target.pin();
    try {
      return tables.search().fullTextSearch(pin.at(), field.property(), query, prefilter, List.of("id"));
    } catch (MissingSearchIndex missing) {
      throw new SearchIndexMissing(target.type().name(), field.property(), function);
    }
  }

  private float[] vector(Value v) {
    float[] query = (float[]) eval.apply(v);
    if (query == null) {
      throw new QueryParamException(queryName, v instanceof Value.Param p ? p.name() : null,
          "nearest needs a query vector, got null");
    }
    // A zero vector is a query like any other: L2 is defined for it (the reference's logic tests).
    for (float x : query) {
      if (!Float.isFinite(x)) {
        throw new QueryParamException(queryName, v instanceof Value.Param p ? p.name() : null,
            "the nearest query vector holds a non-finite number");
      }
    }
    return query;
  }

  private long nonNegative(Value v, String what, long min) {
    Object x = eval.apply(v);
    if (x == null) {
      throw new QueryParamException(queryName, v instanceof Value.Param p ? p.name() : null, what + " is required");
    }
    long n = ((Number) x).longValue();
    if (n < min || n > Integer.MAX_VALUE) {
      throw new QueryParamException(queryName, v instanceof Value.Param p ? p.name() : null, what + " must be "
          + (min == 0 ? "at least 0" : "greater than 0") + ", got " + n);
    }
    return n;
  }
}
