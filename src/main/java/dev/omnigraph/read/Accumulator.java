package dev.omnigraph.read;

import dev.omnigraph.query.AggFunc;
import dev.omnigraph.query.Column;
import java.util.DoubleSummaryStatistics;
import java.util.TreeSet;

/**
 * One aggregate column's running value for one group, fed one value at a time, so an aggregate can
 * fold rows as a scan or a traversal streams them instead of holding them (docs/performance.md). The
 * one definition of the aggregates' semantics (docs/query-language.md, "Aggregates"): nulls are
 * skipped (but {@code count($v)} counts every row); {@code count(distinct …)} counts values as
 * {@link Compare#values} sees them equal (1 and 1.0 one value); {@code sum}/{@code avg} add as
 * doubles with {@link DoubleSummaryStatistics}' compensated sum; {@code min}/{@code max} keep the
 * first of equal values; all but {@code count} are null over no values. Not thread-safe.
 */
final class Accumulator {

  private final Column.Aggregate aggregate;
  /** Told each time a distinct value is held: the read's budget counts what is materialised. */
  private final Runnable held;
  private long count;
  private final DoubleSummaryStatistics sum = new DoubleSummaryStatistics();
  private Object best;
  private TreeSet<Object> distinct;

  /**
   * @param held run once per value a {@code count(distinct …)} starts holding (charged to the read's
   *     budget by streamed aggregates; a no-op where the rows are held anyway)
   */
  Accumulator(Column.Aggregate aggregate, Runnable held) {
    this.aggregate = aggregate;
    this.held = held;
  }

  /** Whether the aggregate reads its variable's bound id rather than a property ({@code count($v)}). */
  static boolean countsBindings(Column.Aggregate a) {
    return a.property() == null;
  }

  /** Adds one row's value: the bound id for {@link #countsBindings}, else the property's value (null: absent). */
  void add(Object value) {
    AggFunc f = aggregate.function();
    if (f == AggFunc.COUNT && !aggregate.distinct() && countsBindings(aggregate)) {
      count++; // count($v) counts rows
      return;
    }
    if (value == null) {
      return;
    }
    switch (f) {
      case COUNT -> {
        if (!aggregate.distinct()) {
          count++;
        } else {
          if (distinct == null) {
            distinct = new TreeSet<>(Compare::values);
          }
          if (distinct.add(value)) {
            held.run();
          }
        }
      }
      case SUM, AVG -> sum.accept(((Number) value).doubleValue());
      case MIN -> best = best == null || Compare.values(value, best) < 0 ? value : best;
      case MAX -> best = best == null || Compare.values(value, best) > 0 ? value : best;
    }
  }

  /** Adds {@code n} rows to a {@code count($v)} without distinct; see {@link #countsRowsOnly}. */
  void addRows(long n) {
    count += n;
  }

  /** Whether the aggregate only counts rows ({@code count($v)}), so {@link #addRows} may stand for {@link #add}. */
  static boolean countsRowsOnly(Column.Aggregate a) {
    return a.function() == AggFunc.COUNT && !a.distinct() && countsBindings(a);
  }

  /** The aggregate's value over what was added. */
  Object result() {
    return switch (aggregate.function()) {
      case COUNT -> aggregate.distinct() ? (long) (distinct == null ? 0 : distinct.size()) : count;
      case SUM -> sum.getCount() == 0 ? null : sum.getSum();
      case AVG -> sum.getCount() == 0 ? null : sum.getSum() / sum.getCount();
      case MIN, MAX -> best;
    };
  }
}
