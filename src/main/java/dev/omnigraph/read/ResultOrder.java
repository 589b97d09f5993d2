package dev.omnigraph.read;

import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.OrderKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The order a read's rows come back in, made total so equal keys never reorder between runs. */
final class ResultOrder {

  private ResultOrder() {}

  /**
   * The query's order, made total: by the order keys (nulls first ascending), then by every
   * returned column, then (non-aggregating) by the bound entity ids.
   */
  static Comparator<List<Object>> of(CheckedRead q, List<String> names, ReadPlan.Scope top) {
    List<Comparator<List<Object>>> parts = new ArrayList<>();
    int width = names.size();
    for (int i = 0; i < q.order().size(); i++) {
      OrderKey k = q.order().get(i);
      int index = k instanceof OrderKey.ByColumn bc ? names.indexOf(bc.column()) : width + i;
      Comparator<List<Object>> c = (a, b) -> Compare.nullsFirst(a.get(index), b.get(index));
      parts.add(k.descending() ? c.reversed() : c);
    }
    for (int i = 0; i < width; i++) {
      int index = i;
      parts.add((a, b) -> Compare.nullsFirst(a.get(index), b.get(index)));
    }
    if (top != null) {
      int from = width + q.order().size();
      parts.add((a, b) -> {
        for (int i = from; i < a.size(); i++) {
          int c = Compare.nullsFirst(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      });
    }
    return (a, b) -> {
      for (Comparator<List<Object>> c : parts) {
        int r = c.compare(a, b);
        if (r != 0) {
          return r;
        }
      }
      return 0;
    };
  }
}
