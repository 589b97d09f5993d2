package dev.omnigraph.read;

import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Column;
import dev.omnigraph.query.Value;
import dev.omnigraph.schema.NodeType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * A grouped aggregate folded as its rows stream ({@link ReadPlan.Streamed}; docs/performance.md).
 * Over a scan, each row of the group slot's scan (its filters pushed into Lance, only the columns
 * the query reads) is folded and dropped. Over a hop, each node of the group side (streamed from its
 * scan, or every node the adjacency knows when nothing of it is read) walks its distinct one-hop
 * neighbours in the edge table's adjacency, built from the src/dst columns once per table version
 * and cached: no row per edge ever exists. The far side's rows are held only when the query filters
 * them or reads a column of them.
 *
 * <p>When the group key holds the group side's id or its single {@code @key}, every node is its own
 * group and its row goes straight to the {@link TopRows} heap as soon as it is folded: a top 10 by
 * degree holds 10 rows. Otherwise the groups are held until the end.
 *
 * <p>The budget is charged for what is held: far-side rows, groups (or the rows kept), one per value
 * a {@code count(distinct …)} holds. Folding a streamed row holds nothing; it reads the clock every
 * few thousand rows.
 */
final class StreamedAggregate {

  /** How the executor reads a slot's candidate rows ({@code scan}) or holds them by id ({@code held}, charged). */
  interface Rows {
    void scan(int slot, Consumer<Map<String, Object>> sink);

    Map<String, Map<String, Object>> held(int slot);
  }

  private final ReadPlan plan;
  private final CheckedRead q;
  private final ReadBudget budget;
  private final Hops hops;
  private final Rows rows;
  private final Function<Value, Object> eval;
  private final List<Column.Projection> keys = new ArrayList<>();
  private final List<Column.Aggregate> aggregates = new ArrayList<>();
  private final int width;
  /** Per group key, whether the group node's id is its value ({@link ReadPlan#idSpells}). */
  private final boolean[] keyFromId;
  /** Per group key, its accumulators; unused when every node is its own group. */
  private final Map<List<Object>, Accumulator[]> groups = new HashMap<>();
  private final boolean ownGroups;
  private final TopRows out;

  StreamedAggregate(ReadPlan plan, CheckedRead q, ReadBudget budget, Hops hops, Rows rows,
      Function<Value, Object> eval) {
    this.plan = plan;
    this.q = q;
    this.budget = budget;
    this.hops = hops;
    this.rows = rows;
    this.eval = eval;
    for (Column c : q.columns()) {
      if (c instanceof Column.Projection p) {
        keys.add(p);
      } else if (c instanceof Column.Aggregate a) {
        aggregates.add(a);
      }
    }
    this.width = q.columns().size();
    int groupSlot = plan.streamed().orElseThrow().group();
    this.keyFromId = new boolean[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      keyFromId[i] = plan.idSpells(groupSlot, keys.get(i).property());
    }
    NodeType type = plan.slotType(plan.streamed().orElseThrow().group());
    this.ownGroups = keys.stream().anyMatch(k -> k.property().isId() || type.key().equals(List.of(k.property().property())));
    // Held groups are charged as they are made; rows of own groups as the heap keeps them.
    this.out = new TopRows(ResultOrder.of(q, q.columnNames(), null), q.limit().orElse(Long.MAX_VALUE),
        ownGroups ? () -> budget.row(width) : () -> { });
  }

  /** The result rows, in the query's order, limited, cut to the returned columns. */
  List<List<Object>> run() {
    ReadPlan.Streamed s = plan.streamed().orElseThrow();
    if (s.hop().isEmpty()) {
      rows.scan(s.group(), row -> {
        budget.step();
        List<Object> key = groupKey(s.group(), row);
        Accumulator[] accs = group(key);
        for (int i = 0; i < accs.length; i++) {
          accs[i].add(value(aggregates.get(i), s.group(), row));
        }
        done(key, accs);
      });
    } else {
      foldHop(s.group(), s.hop().get());
    }
    if (!ownGroups) {
      if (groups.isEmpty() && keys.isEmpty()) {
        group(List.of()); // a global aggregate over no rows is one row
      }
      groups.forEach((key, accs) -> out.add(row(key, accs)));
    }
    return out.sorted(width);
  }

  /** The group's accumulators: held by key, or fresh when every node is its own group. */
  private Accumulator[] group(List<Object> key) {
    return ownGroups ? accumulators() : groups.computeIfAbsent(key, k -> {
      budget.row(width);
      return accumulators();
    });
  }

  private Accumulator[] accumulators() {
    Accumulator[] accs = new Accumulator[aggregates.size()];
    for (int i = 0; i < accs.length; i++) {
      accs[i] = new Accumulator(aggregates.get(i), () -> budget.row(1));
    }
    return accs;
  }

  /** A node that is its own group is complete once folded: its row goes to the heap now. */
  private void done(List<Object> key, Accumulator[] accs) {
    if (ownGroups) {
      out.add(row(key, accs));
    }
  }

  /** A result row laid out as {@link ReadExecutor}'s aggregate rows: the columns, then one cell per order key. */
  private List<Object> row(List<Object> key, Accumulator[] accs) {
    List<Object> row = new ArrayList<>(width + q.order().size());
    int k = 0;
    int a = 0;
    for (Column c : q.columns()) {
      row.add(c instanceof Column.Projection ? key.get(k++)
          : c instanceof Column.Constant constant ? eval.apply(constant.value()) : accs[a++].result());
    }
    for (int i = 0; i < q.order().size(); i++) {
      row.add(null); // ordered by returned columns only (ReadPlan.Streamed)
    }
    return row;
  }

  /**
   * The value an aggregate reads from the row of its variable's {@code slot}: the id for
   * {@code count($v)} or a property the id spells ({@link ReadPlan#idSpells}), else the property.
   */
  private Object value(Column.Aggregate a, int slot, Map<String, Object> row) {
    return Accumulator.countsBindings(a) || plan.idSpells(slot, a.property()) ? row.get("id")
        : ReadExecutor.property(row, a.property());
  }

  private List<Object> groupKey(int group, Map<String, Object> row) {
    List<Object> key = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      key.add(keyFromId[i] ? row.get("id") : ReadExecutor.property(row, keys.get(i).property()));
    }
    return key;
  }

  /**
   * Folds one hop node by node from the group side: each node's distinct neighbours (those the far
   * side's filters admit) are its rows, as the traversal binds them.
   */
  private void foldHop(int group, ReadPlan.Hop hop) {
    Adjacency adj = hops.adjacencyOf(hop.traverse());
    boolean farFiltered = plan.filtered(hop.far());
    Map<String, Map<String, Object>> farRows = readsRows(hop.far()) ? rows.held(hop.far()) : null;
    boolean[] onFar = new boolean[aggregates.size()];
    boolean rowsOnly = farRows == null;
    for (int i = 0; i < onFar.length; i++) {
      onFar[i] = plan.top().visible.get(aggregates.get(i).variable()) == hop.far();
      rowsOnly &= Accumulator.countsRowsOnly(aggregates.get(i));
    }
    boolean countOnly = rowsOnly;
    Adjacency.OneHop walk = adj.new OneHop();
    boolean eitherWay = hop.traverse().undirected();
    int[][] reached = {new int[64]};
    int[] count = new int[1];
    IntConsumer collect = t -> {
      if (count[0] == reached[0].length) {
        reached[0] = Arrays.copyOf(reached[0], count[0] * 2);
      }
      reached[0][count[0]++] = t;
    };
    IntConsumer ignore = t -> { };
    NodeVisit visit = (position, nearRow) -> {
      budget.step();
      if (countOnly) {
        // count($v) only, nothing read of the far side: the number of neighbours is the count.
        int n = walk.forEach(position, hop.forward(), eitherWay, ignore);
        if (n > 0) {
          List<Object> key = groupKey(group, nearRow);
          if (ownGroups) {
            out.add(countRow(key, n)); // complete: no accumulator needed for one node's count
            return;
          }
          Accumulator[] accs = group(key);
          for (Accumulator acc : accs) {
            acc.addRows(n);
          }
        }
        return;
      }
      count[0] = 0;
      walk.forEach(position, hop.forward(), eitherWay, collect);
      List<Object> key = null;
      Accumulator[] accs = null;
      for (int r = 0; r < count[0]; r++) {
        String farId = adj.id(reached[0][r]);
        Map<String, Object> farRow = farRows != null ? farRows.get(farId) : Map.of("id", farId);
        if (farRow == null) {
          if (farFiltered) {
            continue; // the far side's filters reject it
          }
          throw new IllegalStateException("binding of the far end of " + hop.traverse().edge().name() + " has no row");
        }
        if (accs == null) {
          key = groupKey(group, nearRow);
          accs = group(key);
        }
        for (int i = 0; i < accs.length; i++) {
          accs[i].add(value(aggregates.get(i), onFar[i] ? hop.far() : group, onFar[i] ? farRow : nearRow));
        }
      }
      if (accs != null) {
        done(key, accs);
      }
    };
    if (readsRows(group)) {
      rows.scan(group, nearRow -> {
        int position = adj.position((String) nearRow.get("id"));
        if (position >= 0) { // else no edge touches it: no row, so no group
          visit.at(position, nearRow);
        }
      });
    } else {
      // Nothing of the group side is read: every node an edge touches, by its dictionary position.
      for (int n = 0; n < adj.nodeCount(); n++) {
        visit.at(n, Map.of("id", adj.id(n)));
      }
    }
  }

  /** One node of the group side, at its adjacency position, with its row. */
  private interface NodeVisit {
    void at(int position, Map<String, Object> nearRow);
  }

  /** The result row of a node that is its own group and whose every aggregate counts its {@code n} rows. */
  private List<Object> countRow(List<Object> key, long n) {
    List<Object> row = new ArrayList<>(width + q.order().size());
    int k = 0;
    for (Column c : q.columns()) {
      row.add(c instanceof Column.Projection ? key.get(k++)
          : c instanceof Column.Constant constant ? eval.apply(constant.value()) : (Object) n);
    }
    for (int i = 0; i < q.order().size(); i++) {
      row.add(null); // ordered by returned columns only (ReadPlan.Streamed)
    }
    return row;
  }

  /** Whether the fold reads a slot's rows: it filters them or reads a column besides the id. */
  private boolean readsRows(int slot) {
    return plan.filtered(slot) || !plan.columns(slot).equals(Set.of("id"));
  }
}
