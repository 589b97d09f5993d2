package dev.omnigraph.read;

import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.query.AggFunc;
import dev.omnigraph.query.BoundParams;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Clause;
import dev.omnigraph.query.Column;
import dev.omnigraph.query.Operand;
import dev.omnigraph.query.OrderKey;
import dev.omnigraph.query.Score;
import dev.omnigraph.query.Value;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.TableSchemas;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Runs one checked read over one pinned manifest state. Bindings are rows of node ids, one slot per
 * variable. A variable's candidate nodes come from one scan of its node table at the pinned version
 * with every single-variable filter of its scope pushed into Lance ({@link Filter#toSql()}, the one
 * literal-escaping path) and only the columns the query reads (answered from the table layer's column
 * cache once it holds them: docs/performance.md, "The column cache"); traversals expand through an
 * {@link AdjacencyCache} entry for the edge table's exact version; {@code not} is an anti-join
 * evaluated per row of its enclosing scope.
 *
 * <p>Search (docs/indexes-and-search.md): a text match ({@code search}/{@code fuzzy}/{@code match_text})
 * narrows its variable's candidates to the ids a full-text search with the pushed filters as
 * prefilter returns (inside {@code not}, on an outer variable, it is tested per row); scores
 * ({@code nearest}/{@code bm25}/{@code rrf}) are computed by {@link SearchScores} over the nodes the
 * finished match holds, and a score as the first order key keeps only the nodes its search finds.
 *
 * <p>At most {@link #MAX_PUSHED_CONDITIONS} of a variable's filters go into the Lance scan; the rest
 * are evaluated on the scanned rows with {@link Filter#test(Map, org.apache.arrow.vector.types.pojo.Schema)},
 * the same semantics. Every row produced is charged to the read's {@link ReadBudget}.
 */
final class ReadExecutor {

  /**
   * Conditions one Lance scan filter may carry. Lance parses a filter recursively on the calling
   * thread's native stack and caps it at 500 conditions; a conjunction of 400 comparisons (~7 KB of
   * SQL) overflowed the stack and killed the JVM with SIGSEGV. 64 is far inside both bounds and
   * still pushes every filter of any hand-written query.
   */
  static final int MAX_PUSHED_CONDITIONS = 64;

  private final String root;
  private final DataTables tables;
  private final ManifestState state;
  private final AdjacencyCache adjacency;
  private final BoundParams params;
  private final Instant now;
  private final ReadBudget budget;

  /** What the read does, decided before any data is read; set by {@link #run}. */
  private ReadPlan plan;
  private final Hops hops;
  private final Map<Integer, Map<String, Map<String, Object>>> candidates = new HashMap<>();

  ReadExecutor(String root, DataTables tables, ManifestState state, AdjacencyCache adjacency, BoundParams params,
      Instant now, ReadBudget budget) {
    this.root = root;
    this.tables = tables;
    this.state = state;
    this.adjacency = adjacency;
    this.params = params;
    this.now = now;
    this.budget = budget;
    this.hops = new Hops(root, tables, state, adjacency, budget);
  }

  /** The result: column names and rows of Java values, in final order. */
  record Result(List<String> columns, List<List<Object>> rows) {}

  /** The read's searches (text matches and scores); set by {@link #run}. */
  private SearchScores search;

  Result run(CheckedRead q, Map<String, NodeType> allNodeTypes) {
    plan = new ReadPlan(q, allNodeTypes, this::eval);
    search = new SearchScores(tables, q.name(), q.limit().orElse(Long.MAX_VALUE), this::eval);
    ReadPlan.Scope top = plan.top();
    Map<Score, Map<String, Double>> scoreTables = new HashMap<>();
    if (plan.streamed().isPresent()) {
      StreamedAggregate.Rows rows = new StreamedAggregate.Rows() {
        @Override
        public void scan(int slot, java.util.function.Consumer<Map<String, Object>> sink) {
          scanSlot(slot, sink);
        }

        @Override
        public Map<String, Map<String, Object>> held(int slot) {
          return ReadExecutor.this.held(slot, new HashMap<>());
        }
      };
      return new Result(q.columnNames(), new StreamedAggregate(plan, q, budget, hops, rows, this::eval).run());
    }
    if (plan.searchFirst().isPresent()) {
      searchFirst(plan.searchFirst().get(), top, ((OrderKey.ByScore) q.order().get(0)).score(), scoreTables);
    }
    List<String[]> bindings = exec(top, java.util.Collections.singletonList(new String[plan.slotCount()]), new LinkedHashSet<>());
    for (int slot : top.local) {
      materialize(slot, bindings);
    }
    // A leading search order key is a search: only the nodes it finds are returned.
    if (!q.order().isEmpty() && q.order().get(0) instanceof OrderKey.ByScore leading) {
      Map<String, Double> found = scoreTable(leading.score(), true, top, bindings, scoreTables);
      int slot = top.visible.get(leading.score().variable());
      List<String[]> kept = new ArrayList<>();
      for (String[] b : bindings) {
        if (found.containsKey(b[slot])) {
          kept.add(b);
        }
      }
      bindings = kept;
    }
    List<String> names = q.columnNames();
    List<List<Object>> out;
    Comparator<List<Object>> order;
    if (q.isAggregating()) {
      out = aggregate(q, top, bindings, scoreTables);
      order = ResultOrder.of(q, names, null);
    } else {
      // Rows carry their order-by-property values and bound ids after the columns, for sorting.
      out = new ArrayList<>(bindings.size());
      List<Integer> outerSlots = new ArrayList<>(top.local);
      for (String[] b : bindings) {
        List<Object> row = new ArrayList<>(names.size() + q.order().size() + outerSlots.size());
        for (Column c : q.columns()) {
          row.add(c instanceof Column.Projection p ? value(top, b, p.property())
              : c instanceof Column.Scored sc ? scoreValue(sc.score(), top, b, bindings, scoreTables)
              : eval(((Column.Constant) c).value()));
        }
        for (OrderKey k : q.order()) {
          row.add(k instanceof OrderKey.ByProperty bp ? value(top, b, bp.property())
              : k instanceof OrderKey.ByScore bs ? scoreValue(bs.score(), top, b, bindings, scoreTables) : null);
        }
        for (int s : outerSlots) {
          row.add(b[s]);
        }
        out.add(row);
      }
      order = ResultOrder.of(q, names, top);
    }
    return new Result(names, firstRows(out, order, q, names.size()));
  }

  /** The first {@code limit} rows of {@code rows} in {@code order}, each cut to its returned columns. */
  private static List<List<Object>> firstRows(List<List<Object>> rows, Comparator<List<Object>> order, CheckedRead q,
      int width) {
    TopRows top = new TopRows(order, q.limit().orElse(Long.MAX_VALUE), () -> { }); // held already
    rows.forEach(top::add);
    return top.sorted(width);
  }

  /**
   * The score of binding {@code b}'s node: from the score's table (computed once per distinct score,
   * over the nodes the match's rows hold); null where the node has none, 0 for an rrf that ranks
   * it nowhere.
   */
  private Object scoreValue(Score score, ReadPlan.Scope top, String[] b, List<String[]> bindings,
      Map<Score, Map<String, Double>> scoreTables) {
    Double v = scoreTable(score, false, top, bindings, scoreTables).get(b[top.visible.get(score.variable())]);
    return v == null && score instanceof Score.Rrf ? Double.valueOf(0.0) : v;
  }

  private Map<String, Double> scoreTable(Score score, boolean leading, ReadPlan.Scope top, List<String[]> bindings,
      Map<Score, Map<String, Double>> scoreTables) {
    Map<String, Double> known = scoreTables.get(score);
    if (known != null) {
      // The leading table is computed first; an equal score elsewhere reads the same rows from it.
      return known;
    }
    int slot = top.visible.get(score.variable());
    Set<String> ids = new LinkedHashSet<>();
    for (String[] b : bindings) {
      ids.add(b[slot]);
    }
    Map<String, Double> table = search.table(score, target(slot, plan.pushedFilter(slot)), ids, leading);
    budget.checkTime();
    scoreTables.put(score, table);
    return table;
  }

  /**
   * The search-first path of a lone variable ({@code match { $d: Doc { … }  $d.x > 1  search(…) }}
   * ordered by a score of it): every clause narrows that variable's own scan, so the nodes the match
   * admits are exactly those its pushed filters and text matches admit, and the search can run first
   * with them as Lance's prefilter. Its candidates are then the nodes the search found, fetched by
   * id, instead of a scan of the whole table. Any other shape computes the match first.
   */
  private void searchFirst(int slot, ReadPlan.Scope top, Score score, Map<Score, Map<String, Double>> scoreTables) {
    TablePin pin = state.tables().get(plan.slotType(slot).tableKey());
    if (pin == null) {
      return;
    }
    Filter pushed = plan.pushedFilter(slot);
    Set<String> ids = null;
    for (Clause.TextMatch m : top.textPushed.getOrDefault(slot, List.of())) {
      Set<String> matched = search.textMatches(m, target(slot, pushed));
      if (ids == null) {
        ids = matched;
      } else {
        ids.retainAll(matched);
      }
    }
    Map<String, Double> found = search.table(score, target(slot, pushed), ids, true);
    scoreTables.put(score, found);
    Map<String, Map<String, Object>> out = new TreeMap<>(Compare::codePoints);
    int width = plan.columns(slot).size();
    for (Map<String, Object> row : tables.rowsById(pin.at(), found.keySet(), List.copyOf(plan.columns(slot)))) {
      budget.row(width);
      out.put((String) row.get("id"), row);
    }
    budget.checkTime();
    candidates.put(slot, out);
  }

  /** Where {@code slot}'s nodes live, with {@code prefilter} for its searches. */
  private SearchScores.Target target(int slot, Filter prefilter) {
    NodeType type = plan.slotType(slot);
    return new SearchScores.Target(type, state.tables().get(type.tableKey()), prefilter);
  }

  /** Rows whose outer node matches each text match of an inner scope (their variable is bound). */
  private List<String[]> applyText(ReadPlan.Scope scope, List<String[]> rows) {
    for (Clause.TextMatch m : scope.textResidual) {
      int slot = scope.visible.get(m.field().variable());
      Set<String> matching = search.textMatchesUnfiltered(m, target(slot, Filter.TRUE));
      List<String[]> kept = new ArrayList<>();
      for (String[] r : rows) {
        if (matching.contains(r[slot])) {
          kept.add(r);
        }
      }
      rows = kept;
    }
    return rows;
  }

  private List<String[]> exec(ReadPlan.Scope scope, List<String[]> input, Set<Integer> boundIn) {
    Set<Integer> bound = new LinkedHashSet<>(boundIn);
    List<String[]> rows = input;
    List<Clause.Filter> waiting = new ArrayList<>(scope.residual);
    for (Clause c : scope.clauses) {
      budget.checkTime();
      if (c instanceof Clause.Bind b) {
        int slot = scope.visible.get(b.variable());
        rows = bind(rows, slot, bound);
        bound.add(slot);
      } else if (c instanceof Clause.Traverse t) {
        int s = scope.visible.get(t.source());
        int d = scope.visible.get(t.target());
        if (!bound.contains(s) && !bound.contains(d)) {
          rows = bind(rows, s, bound);
          bound.add(s);
        }
        if (t.edgeVariable() != null) {
          int w = scope.visible.get(t.edgeVariable());
          rows = traverseEdges(rows, t, s, d, w, bound);
          bound.add(w);
        } else {
          rows = traverse(rows, t, s, d, bound);
        }
        bound.add(s);
        bound.add(d);
      } else {
        continue;
      }
      rows = applyReady(scope, rows, waiting, bound);
    }
    for (int slot : scope.local) {
      if (!bound.contains(slot)) {
        rows = bind(rows, slot, bound);
        bound.add(slot);
      }
    }
    rows = applyReady(scope, rows, waiting, bound);
    rows = applyText(scope, rows);
    for (Clause c : scope.clauses) {
      if (c instanceof Clause.Not n) {
        ReadPlan.Scope inner = plan.inner(n);
        List<String[]> kept = new ArrayList<>();
        for (String[] r : rows) {
          if (exec(inner, java.util.Collections.singletonList(r), bound).isEmpty()) {
            kept.add(r);
          }
        }
        rows = kept;
      }
    }
    return rows;
  }

  private List<String[]> applyReady(ReadPlan.Scope scope, List<String[]> rows, List<Clause.Filter> waiting, Set<Integer> bound) {
    List<Clause.Filter> ready = new ArrayList<>();
    for (Clause.Filter f : waiting) {
      if (slotsOf(scope, f).stream().allMatch(bound::contains)) {
        ready.add(f);
      }
    }
    if (ready.isEmpty()) {
      return rows;
    }
    waiting.removeAll(ready);
    for (Clause.Filter f : ready) {
      for (int slot : slotsOf(scope, f)) {
        materialize(slot, rows);
      }
    }
    List<String[]> kept = new ArrayList<>();
    for (String[] r : rows) {
      boolean ok = true;
      for (Clause.Filter f : ready) {
        if (!Compare.test(f.op(), operand(scope, r, f.left()), operand(scope, r, f.right()))) {
          ok = false;
          break;
        }
      }
      if (ok) {
        kept.add(r);
      }
    }
    return kept;
  }

  private static Set<Integer> slotsOf(ReadPlan.Scope scope, Clause.Filter f) {
    Set<Integer> out = new LinkedHashSet<>();
    if (f.left() instanceof Operand.Property p) {
      out.add(scope.visible.get(p.variable()));
    }
    if (f.right() instanceof Operand.Property p) {
      out.add(scope.visible.get(p.variable()));
    }
    return out;
  }

  private List<String[]> bind(List<String[]> rows, int slot, Set<Integer> bound) {
    if (bound.contains(slot) && !plan.filtered(slot)) {
      return rows; // already bound to a node of this type (traversal endpoints are typed)
    }
    Map<String, Map<String, Object>> cand = candidates(slot);
    List<String[]> out = new ArrayList<>();
    if (bound.contains(slot)) {
      for (String[] r : rows) {
        if (cand.containsKey(r[slot])) {
          out.add(r);
        }
      }
      return out;
    }
    for (String[] r : rows) {
      for (String id : cand.keySet()) {
        budget.row(r.length);
        String[] next = r.clone();
        next[slot] = id;
        out.add(next);
      }
    }
    return out;
  }

  private List<String[]> traverse(List<String[]> rows, Clause.Traverse t, int s, int d, Set<Integer> bound) {
    boolean forward = bound.contains(s);
    int from = forward ? s : d;
    int to = forward ? d : s;
    Map<String, List<String>> probedReach = hops.probedReach(rows, t, from, forward);
    Adjacency adj = probedReach == null ? hops.adjacencyOf(t) : null;
    boolean toBound = bound.contains(to);
    // Without filters on the destination every endpoint qualifies: edges only join existing nodes
    // of the declared types, so the node table need not be scanned at all.
    Map<String, Map<String, Object>> allowed = plan.filtered(to) ? candidates(to) : null;
    List<String[]> out = new ArrayList<>();
    for (String[] r : rows) {
      List<String> reached = probedReach != null ? probedReach.get(r[from])
          : t.undirected() ? adj.reachEitherWay(r[from], t.minHops(), t.maxHops())
          : adj.reach(r[from], forward, t.minHops(), t.maxHops());
      if (toBound) {
        if (reached.contains(r[to])) {
          out.add(r);
        }
        continue;
      }
      for (String id : reached) {
        if (allowed == null || allowed.containsKey(id)) {
          budget.row(r.length);
          String[] next = r.clone();
          next[to] = id;
          out.add(next);
        }
      }
    }
    return out;
  }

  /**
   * A one-hop traversal that binds its edge: one output row per matching edge (parallel edges apart),
   * the edge's id in slot {@code w}. Edges come from one scan of the edge table at its pin with the
   * edge variable's pushed filters ({@link #candidates}); the adjacency cache holds topology only.
   */
  /** Edges of an edge slot by the endpoint a traversal starts from ({@code slot:src} / {@code slot:dst}). */
  private final Map<String, Map<String, List<Map<String, Object>>>> edgeIndex = new HashMap<>();

  private List<String[]> traverseEdges(List<String[]> rows, Clause.Traverse t, int s, int d, int w,
      Set<Integer> bound) {
    boolean forward = bound.contains(s);
    int from = forward ? s : d;
    int to = forward ? d : s;
    String near = forward ? "src" : "dst";
    String far = forward ? "dst" : "src";
    // Built once per edge slot and direction: inside not { } this runs once per outer row.
    Map<String, List<Map<String, Object>>> byNear = edgeIndex.computeIfAbsent(w + ":" + near, k -> {
      Map<String, List<Map<String, Object>>> index = new HashMap<>();
      for (Map<String, Object> edge : candidates(w).values()) {
        String a = (String) edge.get(near);
        index.computeIfAbsent(a, x -> new ArrayList<>()).add(edge);
        String b = (String) edge.get(far);
        if (t.undirected() && !b.equals(a)) {
          index.computeIfAbsent(b, x -> new ArrayList<>()).add(edge);
        }
      }
      return index;
    });
    boolean toBound = bound.contains(to);
    Map<String, Map<String, Object>> allowed = plan.filtered(to) ? candidates(to) : null;
    List<String[]> out = new ArrayList<>();
    for (String[] r : rows) {
      for (Map<String, Object> edge : byNear.getOrDefault(r[from], List.of())) {
        String other = r[from].equals(edge.get(near)) ? (String) edge.get(far) : (String) edge.get(near);
        if (toBound ? !other.equals(r[to]) : allowed != null && !allowed.containsKey(other)) {
          continue;
        }
        budget.row(r.length);
        String[] next = r.clone();
        next[to] = other;
        next[w] = (String) edge.get("id");
        out.add(next);
      }
    }
    return out;
  }



  /** Rows fetched by id for slots bound without a candidate scan. */
  private final Map<Integer, Map<String, Map<String, Object>>> fetched = new HashMap<>();

  /**
   * Makes the rows of {@code slot} for every binding in {@code rows} available to {@link #value}:
   * from the candidate scan when there was one, else by one chunked exact-id probe for the ids not
   * fetched yet (only the columns the query reads).
   */
  private void materialize(int slot, List<String[]> rows) {
    if (candidates.containsKey(slot) || plan.columns(slot).equals(Set.of("id"))) {
      return;
    }
    Map<String, Map<String, Object>> have = fetched.computeIfAbsent(slot, k -> new HashMap<>());
    Set<String> missing = new LinkedHashSet<>();
    for (String[] r : rows) {
      if (r[slot] != null && !have.containsKey(r[slot])) {
        missing.add(r[slot]);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    TablePin pin = state.tables().get(plan.slotType(slot).tableKey());
    for (Map<String, Object> row : tables.rowsById(pin.at(), missing, List.copyOf(plan.columns(slot)))) {
      have.put((String) row.get("id"), row);
    }
  }

  /** The slot's candidate nodes by id (sorted, so enumeration is deterministic), pushed filters applied. */
  private Map<String, Map<String, Object>> candidates(int slot) {
    Map<String, Map<String, Object>> known = candidates.get(slot);
    if (known != null) {
      return known;
    }
    Map<String, Map<String, Object>> out = held(slot, new TreeMap<>(Compare::codePoints));
    candidates.put(slot, out);
    return out;
  }

  /** The slot's candidate rows by id into {@code out}, each charged to the budget: they are held. */
  private Map<String, Map<String, Object>> held(int slot, Map<String, Map<String, Object>> out) {
    int width = plan.columns(slot).size();
    scanSlot(slot, row -> {
      budget.row(width);
      out.put((String) row.get("id"), row);
    });
    return out;
  }

  /**
   * Streams the slot's candidate rows (only the columns the query reads) to {@code sink}: one scan
   * of its table at the pin with its pushed filters in Lance, the filters beyond
   * {@link #MAX_PUSHED_CONDITIONS} tested on each row, its text matches first when it has any.
   * Holds nothing itself; the caller decides what to keep and charges it.
   */
  private void scanSlot(int slot, java.util.function.Consumer<Map<String, Object>> sink) {
    dev.omnigraph.schema.EdgeType edgeType = plan.slotEdge(slot).orElse(null);
    NodeType type = edgeType == null ? plan.slotType(slot) : null;
    TablePin pin = state.tables().get(edgeType != null ? edgeType.tableKey() : type.tableKey());
    if (pin == null) {
      return;
    }
    List<Filter> parts = plan.pushedParts(slot);
    int pushedCount = Math.min(parts.size(), MAX_PUSHED_CONDITIONS);
    Filter pushed = Filter.and(parts.subList(0, pushedCount).toArray(Filter[]::new));
    Filter rest = Filter.and(parts.subList(pushedCount, parts.size()).toArray(Filter[]::new));
    Schema schema = edgeType != null ? TableSchemas.edge(edgeType) : TableSchemas.node(type);
    // Text matches narrow the candidates to the nodes the pushed filters admit and whose text
    // matches: the full-text searches run first (pushed filters as prefilter) and only the nodes
    // they found are read, by id, instead of the whole table.
    Set<String> matched = null;
    if (edgeType == null) {
      for (Clause.TextMatch m : plan.textPushed(slot)) {
        Set<String> ids = search.textMatches(m, target(slot, pushed));
        if (matched == null) {
          matched = ids;
        } else {
          matched.retainAll(ids);
        }
      }
    }
    Optional<String> keyed = plan.boundByKeyAlone(slot);
    if (keyed.isPresent()) {
      sink.accept(Map.of("id", keyed.get())); // its traversal's edges decide whether it exists
      return;
    }
    java.util.function.Consumer<Map<String, Object>> keep = row -> {
      if (rest.isTrue() || rest.test(row, schema)) {
        sink.accept(row);
      }
    };
    if (matched != null) {
      tables.rowsById(pin.at(), matched, List.copyOf(plan.columns(slot))).forEach(keep);
    } else {
      tables.scan(pin.at(), pushed, List.copyOf(plan.columns(slot)), plan.usesIndexes(slot), keep);
    }
    budget.checkTime();
  }

  private Object eval(Value v) {
    return evaluator(params, now).apply(v);
  }

  /** A value's bound value in one run: a literal's, a parameter's, {@code now()} as the run's one instant. */
  static java.util.function.Function<Value, Object> evaluator(BoundParams params, Instant now) {
    return v -> v instanceof Value.Literal lit ? lit.value() : v instanceof Value.Param p ? params.get(p) : now;
  }

  private Object operand(ReadPlan.Scope scope, String[] binding, Operand o) {
    if (o instanceof Value v) {
      return eval(v);
    }
    return value(scope, binding, (Operand.Property) o);
  }

  private Object value(ReadPlan.Scope scope, String[] binding, Operand.Property p) {
    int slot = scope.visible.get(p.variable());
    if (p.isId() || plan.idSpells(slot, p)) {
      return binding[slot];
    }
    Map<String, Map<String, Object>> source = candidates.containsKey(slot) ? candidates.get(slot) : fetched.get(slot);
    return property(source == null ? null : source.get(binding[slot]), p);
  }

  /** The value of {@code p} in its variable's row: the one place the read takes a property's value. */
  static Object property(Map<String, Object> row, Operand.Property p) {
    if (row == null) {
      throw new IllegalStateException("binding of $" + p.variable() + " has no row");
    }
    if (p.isId()) {
      return row.get("id");
    }
    Object v = row.get(p.property());
    return p.type().kind() == dev.omnigraph.schema.ScalarKind.U64 ? unsigned(v) : v;
  }

  /**
   * A U64 value as its number: rows carry U64 as the Long of its bits, so values at or above 2^63
   * read negative; every comparison, aggregate, ordering and JSON cell needs the value (the reference's logic
   * tests), so those become BigIntegers here, the one place the read takes a property's value.
   */
  private static Object unsigned(Object v) {
    if (v instanceof Long l && l < 0) {
      return new java.math.BigInteger(Long.toUnsignedString(l));
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(e -> out.add(unsigned(e)));
      return out;
    }
    return v;
  }

  /**
   * One row per group of {@code bindings}: the group key is every non-aggregate, non-constant
   * column (a property, or a bm25 score: rows are scored, then folded, as the reference does). After
   * the columns, a row carries one value per order key for {@link ResultOrder#of}: for a score key the
   * group's best score in that key's direction (so groups rank by their best-scoring row), for a
   * column key nothing (it reads the column).
   */
  private List<List<Object>> aggregate(CheckedRead q, ReadPlan.Scope top, List<String[]> bindings,
      Map<Score, Map<String, Double>> scoreTables) {
    Map<List<Object>, List<String[]>> groups = new LinkedHashMap<>();
    List<Column> keys = q.columns().stream()
        .filter(c -> c instanceof Column.Projection || c instanceof Column.Scored).toList();
    for (String[] b : bindings) {
      List<Object> key = new ArrayList<>();
      for (Column c : keys) {
        key.add(c instanceof Column.Projection p ? value(top, b, p.property())
            : scoreValue(((Column.Scored) c).score(), top, b, bindings, scoreTables));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(b);
    }
    if (groups.isEmpty() && keys.isEmpty()) {
      groups.put(List.of(), List.of()); // a global aggregate over no rows is one row
    }
    List<List<Object>> out = new ArrayList<>();
    for (Map.Entry<List<Object>, List<String[]>> g : groups.entrySet()) {
      List<Object> row = new ArrayList<>();
      int k = 0;
      for (Column c : q.columns()) {
        if (c instanceof Column.Projection || c instanceof Column.Scored) {
          row.add(g.getKey().get(k++));
        } else if (c instanceof Column.Constant constant) {
          row.add(eval(constant.value()));
        } else {
          row.add(fold((Column.Aggregate) c, top, g.getValue()));
        }
      }
      for (OrderKey key : q.order()) {
        Object best = null;
        if (key instanceof OrderKey.ByScore bs) {
          Comparator<Object> first = key.descending() ? (x, y) -> Compare.nullsFirst(y, x) : Compare::nullsFirst;
          boolean seen = false;
          for (String[] b : g.getValue()) {
            Object v = scoreValue(bs.score(), top, b, bindings, scoreTables);
            if (!seen || first.compare(v, best) < 0) {
              best = v;
              seen = true;
            }
          }
        }
        row.add(best);
      }
      out.add(row);
    }
    return out;
  }

  private Object fold(Column.Aggregate a, ReadPlan.Scope top, List<String[]> rows) {
    // The rows are held already: a distinct value costs nothing more.
    Accumulator acc = new Accumulator(a, () -> { });
    int slot = top.visible.get(a.variable());
    for (String[] b : rows) {
      acc.add(Accumulator.countsBindings(a) ? b[slot] : value(top, b, a.property()));
    }
    return acc.result();
  }
}
