package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.CheckConstraint;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.RangeConstraint;
import dev.omnigraph.table.Filter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Write-time enforcement of the declared constraints, shared by every writer so committed and
 * pending rows are judged alike: {@code @range} and {@code @check} per row, {@code @unique} across
 * the write and the committed table, {@code @card} per touched source node.
 */
final class RowValidator {

  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  private RowValidator() {}

  /** {@code @range} and {@code @check} on one node row. */
  static void checkRow(NodeType type, Map<String, Object> row) {
    checkRow(type, row::get);
  }

  /**
   * {@code @range} and {@code @check} on one node row, read column by column through
   * {@code column} (a streamed row is not decoded whole for this).
   */
  static void checkRow(NodeType type, Function<String, Object> column) {
    for (RangeConstraint r : type.ranges()) {
      Object v = column.apply(r.property());
      if (v == null) {
        continue;
      }
      BigDecimal d = decimal(v);
      if ((r.min() != null && d.compareTo(r.min()) < 0) || (r.max() != null && d.compareTo(r.max()) > 0)) {
        throw new ConstraintViolation(type.tableKey(), "@range(" + r.property() + ", " + bound(r.min()) + ".."
            + bound(r.max()) + ")", String.valueOf(column.apply("id")), r.property() + " = " + v);
      }
    }
    for (CheckConstraint c : type.checks()) {
      Object v = column.apply(c.property());
      if (v == null) {
        continue;
      }
      Pattern p = PATTERNS.computeIfAbsent(c.pattern(), Pattern::compile);
      if (!p.matcher(v.toString()).find()) {
        throw new ConstraintViolation(type.tableKey(), "@check(" + c.property() + ", \"" + c.pattern() + "\")",
            String.valueOf(column.apply("id")),
            c.property() + " = \"" + v + "\"");
      }
    }
  }

  /**
   * {@code @unique} column sets: no two live rows (written here, or committed and not rewritten or
   * deleted here) share a non-null tuple.
   */
  static void checkUnique(PrepareContext ctx, TableKey tableKey, List<List<String>> uniques,
      Collection<Map<String, Object>> written, Set<String> removed, boolean replacesTable) {
    if (uniques.isEmpty() || written.isEmpty()) {
      return;
    }
    // Built only when a committed row can be probed: a write whose every tuple is null (a bulk
    // merge of rows without the unique column) needs no id set of its size.
    Set<String> writtenIds = new java.util.HashSet<>();
    TablePin pin = ctx.pin(tableKey);
    for (List<String> columns : uniques) {
      Map<List<Object>, String> seen = new HashMap<>();
      for (Map<String, Object> row : written) {
        List<Object> tuple = tuple(row, columns);
        if (tuple == null) {
          continue;
        }
        String id = String.valueOf(row.get("id"));
        String other = seen.putIfAbsent(tuple, id);
        if (other != null && !other.equals(id)) {
          throw new ConstraintViolation(tableKey, "@unique(" + String.join(", ", columns) + ")", id,
              "same " + columns + " as " + other + " in this write");
        }
      }
      if (seen.isEmpty() || replacesTable) {
        continue;
      }
      if (writtenIds.isEmpty()) {
        written.forEach(r -> writtenIds.add(String.valueOf(r.get("id"))));
      }
      Filter probe = columns.size() == 1
          ? Filter.in(columns.get(0), seen.keySet().stream().map(t -> t.get(0)).toList())
          : Filter.or(seen.keySet().stream().map(t -> tupleFilter(columns, t)).toArray(Filter[]::new));
      List<String> cols = new ArrayList<>(columns);
      cols.add("id");
      ctx.tables().scan(pin.at(), probe, cols, committed -> {
        String id = String.valueOf(committed.get("id"));
        if (writtenIds.contains(id) || removed.contains(id)) {
          return; // rewritten or deleted by this write: its committed tuple no longer counts
        }
        String mine = seen.get(tuple(committed, columns));
        if (mine != null) {
          throw new ConstraintViolation(tableKey, "@unique(" + String.join(", ", columns) + ")", mine,
              "same " + columns + " as existing " + id);
        }
      });
    }
  }

  /**
   * {@code @card(min..max)}: after the write, every source node touched by inserted or deleted
   * edges has between min and max outgoing edges of this type.
   */
  static void checkCardinality(PrepareContext ctx, EdgeType type, Collection<Map<String, Object>> inserted,
      Set<String> deletedIds, boolean replacesTable) {
    long min = type.cardinality().min();
    Long max = type.cardinality().max();
    if (min == 0 && max == null) {
      return;
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    inserted.forEach(r -> counts.merge(String.valueOf(r.get("src")), 1L, Long::sum));
    TablePin pin = ctx.pin(type.tableKey());
    if (!deletedIds.isEmpty()) {
      ctx.tables().rowsById(pin.at(), deletedIds, List.of("id", "src"))
          .forEach(r -> counts.putIfAbsent(String.valueOf(r.get("src")), 0L));
    }
    if (counts.isEmpty() || replacesTable) {
      checkCounts(type, counts, min, max);
      return;
    }
    ctx.tables().scan(pin.at(), Filter.in("src", counts.keySet()), List.of("id", "src"), committed -> {
          if (!deletedIds.contains(String.valueOf(committed.get("id")))) {
            counts.merge(String.valueOf(committed.get("src")), 1L, Long::sum);
          }
        });
    checkCounts(type, counts, min, max);
  }

  private static void checkCounts(EdgeType type, Map<String, Long> counts, long min, Long max) {
    for (Map.Entry<String, Long> c : counts.entrySet()) {
      if (c.getValue() < min || (max != null && c.getValue() > max)) {
        throw new ConstraintViolation(type.tableKey(), "@card(" + type.cardinality() + ")", c.getKey(),
            type.from() + " '" + c.getKey() + "' would have " + c.getValue() + " " + type.name() + " edges");
      }
    }
  }

  private static Filter tupleFilter(List<String> columns, List<Object> tuple) {
    Filter[] parts = new Filter[columns.size()];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = Filter.eq(columns.get(i), tuple.get(i));
    }
    return Filter.and(parts);
  }

  private static List<Object> tuple(Map<String, Object> row, List<String> columns) {
    List<Object> t = new ArrayList<>(columns.size());
    for (String c : columns) {
      Object v = row.get(c);
      if (v == null) {
        return null; // a null never collides (SQL unique semantics)
      }
      t.add(v);
    }
    return t;
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof Integer || v instanceof Long) {
      return BigDecimal.valueOf(((Number) v).longValue()); // exact, without a string round trip
    }
    if (v instanceof Float f) {
      return new BigDecimal(Float.toString(f));
    }
    if (v instanceof Double d) {
      return BigDecimal.valueOf(d);
    }
    return new BigDecimal(v.toString());
  }

  private static String bound(BigDecimal b) {
    return b == null ? "" : b.toPlainString();
  }
}
