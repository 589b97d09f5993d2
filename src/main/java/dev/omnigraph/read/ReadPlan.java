package dev.omnigraph.read;

import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Clause;
import dev.omnigraph.query.Column;
import dev.omnigraph.query.CompareOp;
import dev.omnigraph.query.Operand;
import dev.omnigraph.query.OrderKey;
import dev.omnigraph.query.Score;
import dev.omnigraph.query.Value;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.InvalidKeyException;
import dev.omnigraph.schema.KeyIds;
import dev.omnigraph.schema.ScalarKind;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.table.Filter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What one read will do, decided from the checked query and its bound values before any data is
 * read: one slot per variable (node or edge) with its type and the columns the query reads of it;
 * per scope (the match, each {@code not} block) which filters and text matches narrow a slot's own
 * scan (pushed into Lance) and which are tested on bound rows; and whether a leading search runs
 * first. {@link ReadExecutor} follows the plan; what depends on the data itself (a traversal's probe
 * or adjacency, the rows fetched by id) is decided there, as the rows arrive.
 *
 * <p>Built once per run and not changed afterwards.
 */
final class ReadPlan {

  private final Map<String, NodeType> nodeTypesByName;
  private final Function<Value, Object> eval;
  private final Map<String, Integer> slots = new LinkedHashMap<>();
  private final Map<Integer, NodeType> slotTypes = new HashMap<>();
  /** Slots of edge variables ({@code $a $w:knows $b}): their rows are edges of this type, by edge id. */
  private final Map<Integer, EdgeType> slotEdges = new HashMap<>();
  private final Map<Integer, Set<String>> slotColumns = new HashMap<>();
  private final Map<Clause.Not, Scope> innerScopes = new IdentityHashMap<>();
  private final List<Scope> scopes = new ArrayList<>();
  private final Scope top;
  private final Optional<Integer> searchFirst;
  /** Per node slot, the id its pushed equalities on every {@code @key} property derive. */
  private final Map<Integer, String> keyIds = new HashMap<>();
  private final Optional<Streamed> streamed;
  /** The {@code limit} of an ordered query: the executor keeps a top-k heap of that many rows. */
  private final Optional<Long> topK;
  private final CheckedRead query;

  /**
   * Plans {@code q}.
   *
   * @param allNodeTypes the schema's node types by name (traversal endpoints take their edge's)
   * @param eval a value's bound value (literal, parameter, {@code now()}), for the pushed filters
   */
  ReadPlan(CheckedRead q, Map<String, NodeType> allNodeTypes, Function<Value, Object> eval) {
    this.nodeTypesByName = allNodeTypes;
    this.eval = eval;
    this.top = new Scope(q.match(), Map.of());
    // A returned or ordered lone String @key is its node's id (idSpells): no column to read for it.
    for (Column c : q.columns()) {
      if (c instanceof Column.Projection p) {
        top.noteReturned(p.property());
      } else if (c instanceof Column.Aggregate a && a.property() != null) {
        top.noteReturned(a.property());
      }
    }
    for (OrderKey k : q.order()) {
      if (k instanceof OrderKey.ByProperty bp) {
        top.noteReturned(bp.property());
      }
    }
    for (Scope scope : scopes) {
      for (int slot : scope.local) {
        keyId(slot, scope.pushed.getOrDefault(slot, List.of())).ifPresent(id -> keyIds.put(slot, id));
      }
    }
    this.searchFirst = !q.isAggregating() && !q.order().isEmpty() && q.order().get(0) instanceof OrderKey.ByScore s
        ? searchFirstSlot(s.score()) : Optional.empty();
    this.query = q;
    this.streamed = streamedShape(q);
    this.topK = !q.order().isEmpty() && q.limit().isPresent() ? Optional.of(q.limit().getAsLong()) : Optional.empty();
  }

  /**
   * A grouped aggregate that folds rows as they stream (docs/performance.md) instead of binding
   * them: the groups are held, the rows are not.
   *
   * @param group the slot whose rows are grouped: every group-key column is a property of it
   * @param hop for an aggregate over one traversal hop, the hop; empty for a scan of {@code group}
   */
  record Streamed(int group, Optional<Hop> hop) {}

  /**
   * One hop of an edge without an edge variable, walked node by node from {@code group} through the
   * edge table's adjacency (the src/dst columns, cached per version): set semantics, as the bound
   * traversal has, and never one held row per edge.
   *
   * @param forward whether the group slot is the traversal's source
   * @param far the other end's slot
   */
  record Hop(Clause.Traverse traverse, boolean forward, int far) {}

  /** The streamed shape of this read, when it has one. */
  Optional<Streamed> streamed() {
    return streamed;
  }

  /** The number of rows an ordered, limited read keeps in its top-k heap. */
  Optional<Long> topK() {
    return topK;
  }

  /**
   * Whether {@code q} is a grouped aggregate the executor may stream: every column a group key or an
   * aggregate (no scores, no constants ordered by), ordered by returned columns only, and a match of
   * one node variable or one plain hop between two, whose every filter is pushed into a scan (no
   * {@code not}, no text match, no filter between variables) and whose group keys are properties of
   * one variable. Anything else binds its rows as before.
   */
  private Optional<Streamed> streamedShape(CheckedRead q) {
    if (!q.isAggregating() || searchFirst.isPresent() || !top.residual.isEmpty() || !top.textResidual.isEmpty()
        || !top.textPushed.isEmpty() || !slotEdges.isEmpty()) {
      return Optional.empty();
    }
    if (q.order().stream().anyMatch(k -> !(k instanceof OrderKey.ByColumn))
        || q.columns().stream().anyMatch(c -> c instanceof Column.Scored)) {
      return Optional.empty();
    }
    Clause.Traverse hop = null;
    for (Clause c : top.clauses) {
      if (c instanceof Clause.Traverse t) {
        if (hop != null || t.minHops() != 1 || t.maxHops() != 1 || t.edgeVariable() != null
            || t.source().equals(t.target())) {
          return Optional.empty();
        }
        hop = t;
      } else if (!(c instanceof Clause.Bind || c instanceof Clause.Filter)) {
        return Optional.empty();
      }
    }
    Set<Integer> keySlots = new LinkedHashSet<>();
    for (Column c : q.columns()) {
      if (c instanceof Column.Projection p) {
        keySlots.add(top.visible.get(p.property().variable()));
      }
    }
    if (keySlots.size() > 1) {
      return Optional.empty();
    }
    if (hop == null) {
      return top.local.size() == 1 ? Optional.of(new Streamed(top.local.iterator().next(), Optional.empty()))
          : Optional.empty();
    }
    int source = top.visible.get(hop.source());
    int target = top.visible.get(hop.target());
    if (top.local.size() != 2) {
      return Optional.empty();
    }
    int group = keySlots.isEmpty() ? source : keySlots.iterator().next();
    boolean forward = group == source;
    return Optional.of(new Streamed(group, Optional.of(new Hop(hop, forward, forward ? target : source))));
  }

  /**
   * Whether {@code p}'s value in {@code slot}'s node is the node's id itself: the type's lone
   * {@code @key} is a String, whose id is its value as is ({@link KeyIds}), and a key is never
   * updated. A read then returns, groups or orders by the bound id and reads no column for it (the
   * names of a hop's friends, the names of a top 10 by degree). Filters still read the column.
   */
  boolean idSpells(int slot, Operand.Property p) {
    NodeType type = slotTypes.get(slot);
    return !p.isId() && type != null && !slotEdges.containsKey(slot) && !p.type().list()
        && p.type().kind() == ScalarKind.STRING && type.key().equals(List.of(p.property()));
  }

  /**
   * The id of a node slot that needs no read of its own: bound by its whole {@code @key} alone (every
   * filter on it a key equality, which the id it derives decides: {@link #keyId}), nothing but its id
   * read, and an endpoint of a traversal of at least one hop in the match. Every row that binds it
   * then has an edge at it, and edges only join existing nodes (a node's delete cascades to its
   * edges), so the node exists exactly when the traversal finds an edge: the probe of its row
   * (Q2's and Q3's {@code $p: Person { name: $n }  $p knows …}) decides nothing and is skipped.
   */
  Optional<String> boundByKeyAlone(int slot) {
    String id = keyIds.get(slot);
    if (id == null || !top.local.contains(slot) || !textPushed(slot).isEmpty() || readsBeyondId(slot)) {
      return Optional.empty();
    }
    NodeType type = slotTypes.get(slot);
    for (Scope scope : scopes) {
      for (Clause.Filter f : scope.pushed.getOrDefault(slot, List.of())) {
        Operand.Property p = compared(f);
        if (f.op() != CompareOp.EQ || p == null || !type.key().contains(p.property())) {
          return Optional.empty();
        }
      }
    }
    for (Clause c : top.clauses) {
      if (c instanceof Clause.Traverse t && t.minHops() >= 1
          && (top.visible.get(t.source()) == slot || top.visible.get(t.target()) == slot)) {
        return Optional.of(id);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether the query reads anything of {@code slot}'s node besides its id and its pushed filters: a
   * returned, aggregated or ordered property the id does not spell, a score, or a filter tested on
   * bound rows (a comparison between variables, one inside {@code not}).
   */
  private boolean readsBeyondId(int slot) {
    java.util.function.Predicate<Operand> beyond = o -> o instanceof Operand.Property p
        && top.visible.get(p.variable()) == slot && !p.isId() && !idSpells(slot, p);
    for (Column c : query.columns()) {
      if (c instanceof Column.Scored || c instanceof Column.Projection p && beyond.test(p.property())
          || c instanceof Column.Aggregate a && a.property() != null && beyond.test(a.property())) {
        return true;
      }
    }
    for (OrderKey k : query.order()) {
      if (k instanceof OrderKey.ByScore || k instanceof OrderKey.ByProperty bp && beyond.test(bp.property())) {
        return true;
      }
    }
    for (Scope scope : scopes) {
      for (Clause.Filter f : scope.residual) {
        for (Operand o : List.of(f.left(), f.right())) {
          if (o instanceof Operand.Property p && scope.visible.get(p.variable()) == slot && !p.isId()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The top-level match. */
  Scope top() {
    return top;
  }

  /** The scope of a {@code not} block. */
  Scope inner(Clause.Not n) {
    return innerScopes.get(n);
  }

  int slotCount() {
    return slots.size();
  }

  /** The node type of a node slot (null for an edge slot). */
  NodeType slotType(int slot) {
    return slotTypes.get(slot);
  }

  /** The edge type of an edge slot; empty for a node slot. */
  Optional<EdgeType> slotEdge(int slot) {
    return Optional.ofNullable(slotEdges.get(slot));
  }

  /** The columns the query reads of a slot's rows ({@code id} first). */
  Set<String> columns(int slot) {
    return Collections.unmodifiableSet(slotColumns.get(slot));
  }

  /**
   * The slot of a leading score that may run its search before the match: a lone variable whose
   * every clause narrows its own scan, so the nodes the match admits are exactly those its pushed
   * filters and text matches admit, and the search runs first with them as Lance's prefilter.
   */
  Optional<Integer> searchFirst() {
    return searchFirst;
  }

  private Optional<Integer> searchFirstSlot(Score score) {
    int slot = top.visible.get(score.variable());
    if (top.local.size() != 1 || !top.residual.isEmpty() || !top.textResidual.isEmpty()
        || slotEdges.containsKey(slot) || pushedParts(slot).size() > ReadExecutor.MAX_PUSHED_CONDITIONS) {
      return Optional.empty();
    }
    for (Clause c : top.clauses) {
      if (!(c instanceof Clause.Bind || c instanceof Clause.Filter || c instanceof Clause.TextMatch)) {
        return Optional.empty();
      }
    }
    return Optional.of(slot);
  }

  /**
   * The id of a keyed node slot whose pushed filters bind every {@code @key} property by equality
   * ({@code $p: Person { name: $n }}): the id derives from the key ({@link KeyIds}), so its scan
   * becomes an exact probe of the {@code id} BTree instead of a scan of the key column. The probe
   * is one more conjunct of the pushed filter, so it can only narrow: the key equalities stay and
   * still decide. Only kinds whose key spelling is exactly the value compared are used (strings,
   * enums, booleans, integers, dates); a value the key cannot spell leaves the scan as it was.
   */
  private Optional<String> keyId(int slot, List<Clause.Filter> pushed) {
    NodeType type = slotTypes.get(slot);
    if (slotEdges.containsKey(slot) || type == null || !type.isKeyed()) {
      return Optional.empty();
    }
    Map<String, Object> values = new HashMap<>();
    for (Clause.Filter f : pushed) {
      if (f.op() != CompareOp.EQ) {
        continue;
      }
      Operand.Property p = compared(f);
      Value v = f.right() instanceof Value r ? r : f.left() instanceof Value l ? l : null;
      if (p == null || v == null || p.isId() || !type.key().contains(p.property()) || p.type().list()) {
        continue;
      }
      Object value = eval.apply(v);
      if (value != null && exactlySpelled(p.type().kind(), value)) {
        values.putIfAbsent(p.property(), value);
      }
    }
    if (!values.keySet().containsAll(type.key())) {
      return Optional.empty();
    }
    try {
      return Optional.of(KeyIds.nodeId(type, values));
    } catch (InvalidKeyException unusable) {
      return Optional.empty(); // the key cannot spell this value: the scan decides, as before
    }
  }

  /** The property a single-variable comparison compares (on either side), or null. */
  private static Operand.Property compared(Clause.Filter f) {
    return f.left() instanceof Operand.Property l ? l : f.right() instanceof Operand.Property r ? r : null;
  }

  private static boolean exactlySpelled(ScalarKind kind, Object value) {
    return switch (kind) {
      case STRING, ENUM -> value instanceof String;
      case BOOL -> value instanceof Boolean;
      case I32, I64, U32, U64 -> value instanceof Integer || value instanceof Long || value instanceof java.math.BigInteger;
      case DATE -> value instanceof java.time.LocalDate;
      default -> false;
    };
  }

  /**
   * The plan in words, for {@code explain} and tests: one line per slot (its type, how its
   * candidates are found: an id probe from the key, a scan with the filter pushed into Lance and the
   * declared BTree indexes that filter can use, or none: bound by a traversal; the columns read),
   * then how the rows are aggregated and ordered.
   */
  List<String> describe() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Integer> e : slots.entrySet()) {
      int slot = e.getValue();
      String variable = e.getKey().substring(0, e.getKey().indexOf('#'));
      String type = slotEdges.containsKey(slot) ? "edge " + slotEdges.get(slot).name() : slotTypes.get(slot).name();
      String access = keyIds.containsKey(slot) ? "id probe from its @key (the id BTree), pushed filter "
          + pushedFilter(slot).toSql() + boundByKeyAlone(slot).map(id -> ", not read: its traversal's edges decide").orElse("")
          : filtered(slot) ? "scan with pushed filter " + pushedFilter(slot).toSql() + indexUse(slot) : "unfiltered";
      out.add("$" + variable + ": " + type + ", " + access + ", columns " + String.join(",", slotColumns.get(slot)));
    }
    searchFirst.ifPresent(slot -> out.add("search first on slot " + slot));
    streamed.ifPresent(s -> out.add("streamed aggregate, grouped by $" + variableOf(s.group()) + ", "
        + s.hop().map(h -> "over the " + h.traverse().edge().name() + " adjacency " + (h.forward() ? "out of" : "into")
            + " each node (src/dst only, no row per edge)").orElse("folded batch by batch from its scan")));
    if (query.isAggregating() && streamed.isEmpty()) {
      out.add("aggregate over bound rows");
    }
    topK.ifPresent(k -> out.add("top-k heap of " + k + " rows by " + orderSpelling()));
    return out;
  }

  /**
   * The declared BTree indexes a slot's pushed filter compares, and whether its scan uses them
   * ({@link #usesIndexes}; docs/performance.md, "Index or scan").
   */
  private String indexUse(int slot) {
    Set<String> used = indexedColumns(slot, false);
    if (used.isEmpty()) {
      return "";
    }
    return usesIndexes(slot) ? " (BTree index on " + String.join(",", indexedColumns(slot, true)) + ")"
        : " (BTree index on " + String.join(",", used) + " not used: ranges only, scanned)";
  }

  /**
   * Whether the scan of {@code slot} answers its pushed filter through Lance's scalar indexes: only
   * when the filter has an equality on an indexed column (the id from the key, {@code id},
   * {@code src}/{@code dst} of an edge, a declared BTree property). A filter whose indexed parts are
   * ranges only is scanned: at 10,000 persons {@code city = $c AND age > 40} took 3.8 ms through the
   * {@code age} BTree (its row ids, then a take of each) and 1.7 ms as a scan; an equality on
   * {@code age} alone 1.4 ms through it and 2.4 ms scanned (docs/performance.md).
   */
  boolean usesIndexes(int slot) {
    return keyIds.containsKey(slot) || !indexedColumns(slot, true).isEmpty();
  }

  /** The indexed columns {@code slot}'s pushed filters compare (by equality only, or by any comparison). */
  private Set<String> indexedColumns(int slot, boolean equalities) {
    NodeType type = slotTypes.get(slot);
    Set<String> indexed = new java.util.HashSet<>(List.of("id"));
    if (slotEdges.containsKey(slot)) {
      indexed.addAll(List.of("src", "dst"));
    } else if (type != null) {
      dev.omnigraph.schema.IndexKind.declared(type).forEach((property, kind) -> {
        if (kind == dev.omnigraph.schema.IndexKind.BTREE) {
          indexed.add(property);
        }
      });
    }
    Set<String> used = new LinkedHashSet<>();
    for (Scope scope : scopes) {
      if (scope.local.contains(slot)) {
        for (Clause.Filter f : scope.pushed.getOrDefault(slot, List.of())) {
          boolean equality = f.op() == CompareOp.EQ || f.op() == CompareOp.LIST_CONTAINS;
          for (Operand o : List.of(f.left(), f.right())) {
            if (o instanceof Operand.Property p && indexed.contains(p.property()) && (equality || !equalities)) {
              used.add(p.property());
            }
          }
        }
      }
    }
    return used;
  }

  /**
   * The slots whose rows come from a scan of their table (docs/performance.md, "The column cache"):
   * every slot but one bound by its key alone and one reached only through a traversal without a
   * filter of its own.
   */
  List<Integer> scannedSlots() {
    List<Integer> out = new ArrayList<>();
    for (int slot : slots.values()) {
      boolean reached = scopes.stream().anyMatch(s -> s.clauses.stream().anyMatch(c -> c instanceof Clause.Traverse t
          && (s.visible.get(t.source()) == slot || s.visible.get(t.target()) == slot)));
      if (boundByKeyAlone(slot).isEmpty() && (filtered(slot) || !reached)) {
        out.add(slot);
      }
    }
    return out;
  }

  String variableOf(int slot) {
    for (Map.Entry<String, Integer> e : slots.entrySet()) {
      if (e.getValue() == slot) {
        return e.getKey().substring(0, e.getKey().indexOf('#'));
      }
    }
    throw new IllegalStateException("no slot " + slot);
  }

  private String orderSpelling() {
    List<String> keys = new ArrayList<>();
    for (OrderKey k : query.order()) {
      String what = k instanceof OrderKey.ByColumn c ? c.column()
          : k instanceof OrderKey.ByProperty p ? "$" + p.property().variable() + "." + p.property().property() : "score";
      keys.add(what + (k.descending() ? " desc" : " asc"));
    }
    return String.join(", ", keys);
  }

  private NodeType nodeType(String name) {
    NodeType t = nodeTypesByName.get(name);
    if (t == null) {
      throw new IllegalStateException("no node type " + name + " among the query's bindings");
    }
    return t;
  }

  /** A scope: the top-level match or one {@code not} block. */
  final class Scope {
    final List<Clause> clauses;
    final Map<String, Integer> visible; // variable → slot, outer ones included
    final Set<Integer> local = new LinkedHashSet<>();
    final Map<Integer, List<Clause.Filter>> pushed = new HashMap<>();
    final List<Clause.Filter> residual = new ArrayList<>();
    /** Text matches on a variable of this scope: they narrow its candidate scan. */
    final Map<Integer, List<Clause.TextMatch>> textPushed = new HashMap<>();
    /** Text matches on an outer variable (inside not { }): tested per row. */
    final List<Clause.TextMatch> textResidual = new ArrayList<>();

    Scope(List<Clause> clauses, Map<String, Integer> outer) {
      this.clauses = clauses;
      this.visible = new LinkedHashMap<>(outer);
      scopes.add(this);
      for (Clause c : clauses) {
        if (c instanceof Clause.Bind b) {
          declare(b.variable(), b.type());
        } else if (c instanceof Clause.Traverse t) {
          declare(t.source(), null);
          declare(t.target(), null);
          if (t.edgeVariable() != null) {
            declare(t.edgeVariable(), null);
            int slot = visible.get(t.edgeVariable());
            slotEdges.put(slot, t.edge());
            // The traversal reads an edge's ends from its row.
            slotColumns.get(slot).addAll(List.of("src", "dst"));
          }
        }
      }
      for (Clause c : clauses) {
        if (c instanceof Clause.Traverse t) {
          typeFromEdge(t);
        }
      }
      for (Clause c : clauses) {
        if (c instanceof Clause.Filter f) {
          Integer only = singleLocalVariable(f);
          if (only != null && pushable(f) != null) {
            pushed.computeIfAbsent(only, k -> new ArrayList<>()).add(f);
          } else {
            residual.add(f);
          }
          noteColumns(f.left());
          noteColumns(f.right());
        } else if (c instanceof Clause.TextMatch m) {
          int slot = visible.get(m.field().variable());
          if (local.contains(slot)) {
            textPushed.computeIfAbsent(slot, k -> new ArrayList<>()).add(m);
          } else {
            textResidual.add(m);
          }
        } else if (c instanceof Clause.Not n) {
          innerScopes.put(n, new Scope(n.clauses(), visible));
        }
      }
    }

    private void declare(String variable, NodeType type) {
      if (visible.containsKey(variable)) {
        if (type != null) {
          slotTypes.putIfAbsent(visible.get(variable), type);
        }
        return;
      }
      int slot = slots.size();
      slots.put(variable + "#" + slot, slot);
      visible.put(variable, slot);
      local.add(slot);
      if (type != null) {
        slotTypes.put(slot, type);
      }
      slotColumns.put(slot, new LinkedHashSet<>(List.of("id")));
    }

    private void typeFromEdge(Clause.Traverse t) {
      // Traversal endpoints without a Bind clause take the edge's endpoint types.
      slotTypes.putIfAbsent(visible.get(t.source()), nodeType(t.edge().from()));
      slotTypes.putIfAbsent(visible.get(t.target()), nodeType(t.edge().to()));
    }

    private Integer singleLocalVariable(Clause.Filter f) {
      Set<Integer> vars = new LinkedHashSet<>();
      if (f.left() instanceof Operand.Property p) {
        vars.add(visible.get(p.variable()));
      }
      if (f.right() instanceof Operand.Property p) {
        vars.add(visible.get(p.variable()));
      }
      if (vars.size() != 1) {
        return null;
      }
      Integer slot = vars.iterator().next();
      return local.contains(slot) ? slot : null;
    }

    private void noteReturned(Operand.Property p) {
      if (!idSpells(visible.get(p.variable()), p)) {
        noteColumns(p);
      }
    }

    private void noteColumns(Operand o) {
      if (o instanceof Operand.Property p) {
        slotColumns.get(visible.get(p.variable())).add(p.property());
      }
    }
  }

  /** Whether any scope pushes a filter or a text match into the slot's candidate scan. */
  boolean filtered(int slot) {
    for (Scope scope : scopes) {
      if (scope.local.contains(slot) && (!scope.pushed.getOrDefault(slot, List.of()).isEmpty()
          || !scope.textPushed.getOrDefault(slot, List.of()).isEmpty())) {
        return true;
      }
    }
    return false;
  }

  /** The filters of {@code slot} pushed into its scan: at most {@link ReadExecutor#MAX_PUSHED_CONDITIONS}. */
  Filter pushedFilter(int slot) {
    List<Filter> parts = pushedParts(slot);
    return Filter.and(parts.subList(0, Math.min(parts.size(), ReadExecutor.MAX_PUSHED_CONDITIONS)).toArray(Filter[]::new));
  }

  /** The text matches that narrow {@code slot}'s own candidates, from every scope it is local to. */
  List<Clause.TextMatch> textPushed(int slot) {
    List<Clause.TextMatch> out = new ArrayList<>();
    for (Scope scope : scopes) {
      if (scope.local.contains(slot)) {
        out.addAll(scope.textPushed.getOrDefault(slot, List.of()));
      }
    }
    return out;
  }

  List<Filter> pushedParts(int slot) {
    List<Filter> parts = new ArrayList<>();
    String keyId = keyIds.get(slot);
    if (keyId != null) {
      parts.add(Filter.in("id", List.of(keyId)));
    }
    for (Scope scope : scopes) {
      if (scope.local.contains(slot)) {
        for (Clause.Filter f : scope.pushed.getOrDefault(slot, List.of())) {
          parts.add(pushable(f));
        }
      }
    }
    return parts;
  }

  /**
   * The Lance filter for a single-variable comparison with a value, or null when it cannot be
   * pushed (list membership of a list property, a literal on the left of contains/starts_with).
   */
  private Filter pushable(Clause.Filter f) {
    Operand.Property p;
    Value v;
    CompareOp op = f.op();
    if (f.left() instanceof Operand.Property lp && f.right() instanceof Value rv) {
      p = lp;
      v = rv;
    } else if (f.left() instanceof Value lv && f.right() instanceof Operand.Property rp) {
      p = rp;
      v = lv;
      if (op == CompareOp.LIST_CONTAINS) {
        Object list = eval.apply(v);
        return list == null ? Filter.FALSE : Filter.in(p.property(), (List<?>) list);
      }
      op = flip(op);
      if (op == null) {
        return null;
      }
    } else {
      return null;
    }
    if (p.type().list()) {
      return null;
    }
    String c = p.property();
    if (op == CompareOp.IS_NULL) {
      return Filter.isNull(c);
    }
    if (op == CompareOp.IS_NOT_NULL) {
      return Filter.not(Filter.isNull(c));
    }
    Object value = eval.apply(v);
    if (value == null) {
      return Filter.FALSE; // a comparison with null matches nothing
    }
    return switch (op) {
      // By value: an integer property against a decimal or out-of-range number (see Filter.compare).
      case EQ -> Filter.compare(Filter.Comparison.EQ, c, p.type().kind(), value);
      case NE -> Filter.compare(Filter.Comparison.NE, c, p.type().kind(), value);
      case LT -> Filter.compare(Filter.Comparison.LT, c, p.type().kind(), value);
      case LE -> Filter.compare(Filter.Comparison.LE, c, p.type().kind(), value);
      case GT -> Filter.compare(Filter.Comparison.GT, c, p.type().kind(), value);
      case GE -> Filter.compare(Filter.Comparison.GE, c, p.type().kind(), value);
      case STARTS_WITH -> Filter.startsWith(c, (String) value);
      case STRING_CONTAINS -> Filter.contains(c, (String) value);
      default -> null;
    };
  }


  private static CompareOp flip(CompareOp op) {
    return switch (op) {
      case EQ -> CompareOp.EQ;
      case NE -> CompareOp.NE;
      case LT -> CompareOp.GT;
      case LE -> CompareOp.GE;
      case GT -> CompareOp.LT;
      case GE -> CompareOp.LE;
      default -> null;
    };
  }
}
