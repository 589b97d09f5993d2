package dev.omnigraph.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code limit} of the rows a read produces, in its order: under a limit a bounded heap
 * keeps the best {@code limit} as rows go by, so {@code order { d desc } limit 10} over 100,000
 * groups holds and sorts 10 (docs/performance.md, the top-k); without one every row is kept. The
 * order is total, so the result is exactly the head of the full sort. Not thread-safe.
 */
final class TopRows {

  private final Comparator<List<Object>> order;
  private final long limit;
  private final Runnable held;
  private final List<List<Object>> all;
  private final PriorityQueue<List<Object>> heap;

  /**
   * @param limit rows to keep ({@link Long#MAX_VALUE}: all)
   * @param held run for each row this starts holding (a streamed read charges its budget)
   */
  TopRows(Comparator<List<Object>> order, long limit, Runnable held) {
    this.order = order;
    this.limit = limit;
    this.held = held;
    this.all = limit == Long.MAX_VALUE ? new ArrayList<>() : null;
    this.heap = all == null ? new PriorityQueue<>((int) Math.min(limit, 1 << 16) + 1, order.reversed()) : null;
  }

  void add(List<Object> row) {
    if (all != null) {
      held.run();
      all.add(row);
      return;
    }
    if (heap.size() < limit) {
      held.run();
      heap.add(row);
    } else if (limit > 0 && order.compare(row, heap.peek()) < 0) {
      heap.poll(); // the worst of limit + 1
      heap.add(row);
    }
  }

  /** The rows kept, in order, each cut to its first {@code width} cells (the returned columns). */
  List<List<Object>> sorted(int width) {
    List<List<Object>> kept = all != null ? all : new ArrayList<>(heap);
    kept.sort(order);
    List<List<Object>> out = new ArrayList<>(kept.size());
    for (List<Object> row : kept) {
      out.add(row.size() == width ? row : new ArrayList<>(row.subList(0, width)));
    }
    return out;
  }
}
