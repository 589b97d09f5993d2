package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.merge.MergePlan;
import dev.omnigraph.merge.TableDelta;
import dev.omnigraph.merge.TablePlan;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a merge's result like any write, before any effect (docs/merge.md: "validated like any write
 * (constraints, referential integrity, cardinality)"): the merged result is the target snapshot plus
 * each table's delta, judged with the same {@link RowValidator} the other writers use, and every
 * violation becomes a typed {@link MergeConflict} instead of aborting at the first — a merge reports
 * all it found. Referential integrity is the merge's own check: an edge of the result must name
 * nodes the result holds ({@link MergeConflict.Kind#ORPHAN_EDGE}).
 */
final class MergeValidator implements dev.omnigraph.merge.MergePlanner.Validation {

  private final SchemaIr schema;
  private final DataTables tables;
  private final ManifestState target;
  private final PrepareContext ctx;

  MergeValidator(SchemaIr schema, DataTables tables, ManifestState target) {
    this.schema = schema;
    this.tables = tables;
    this.target = target;
    // RowValidator reads the committed side through the target's pins: exactly the result's base.
    this.ctx = new PrepareContext(new AuthorityToken(target.branch(), Optional.empty(), Optional.empty(),
        schema.identity()), target, schema, tables);
  }

  /** One-row constraint violations the planner's join showed us, in join order. */
  private final List<MergeConflict> rowViolations = new ArrayList<>();
  /** Per node table key: its type when it has row constraints, else empty (looked up once, not per row). */
  private final Map<TableKey, java.util.Optional<NodeType>> rowChecked = new java.util.HashMap<>();

  /**
   * What validation reads of a written row: its id, its {@code @unique} columns and, for an edge,
   * its endpoints. The planner keeps only these, so a wide row costs the
   * validation budget only the columns validation reads, charged to its one budget.
   */
  @Override
  public List<String> projection(TableKey tableKey) {
    String name = tableKey.typeName();
    Set<String> columns = new LinkedHashSet<>(List.of("id"));
    if (tableKey.isNode()) {
      schema.catalog().node(name).orElseThrow().uniques().forEach(columns::addAll);
    } else {
      columns.add("src");
      columns.add("dst");
      schema.catalog().edge(name).orElseThrow().uniques().forEach(columns::addAll);
    }
    return List.copyOf(columns);
  }

  @Override
  public boolean holdsBlobs(TableKey tableKey) {
    return Effects.holdsBlobs(schema.catalog(), tableKey);
  }

  /** {@code @range} / {@code @check} of a written node row, while the join holds it. */
  @Override
  public void written(TableKey tableKey, java.util.function.Function<String, Object> column) {
    java.util.Optional<NodeType> checked = rowChecked.computeIfAbsent(tableKey, k -> k.isNode()
        ? java.util.Optional.of(schema.catalog().node(k.typeName()).orElseThrow())
            .filter(t -> !t.ranges().isEmpty() || !t.checks().isEmpty())
        : java.util.Optional.empty());
    if (checked.isPresent()) {
      NodeType type = checked.get();
      guard(rowViolations, MergeConflict.Kind.VALUE_CONSTRAINT_VIOLATION, () -> RowValidator.checkRow(type, column));
    }
  }

  List<MergeConflict> validate(MergePlan plan) {
    Map<TableKey, TableDelta> deltas = new LinkedHashMap<>();
    plan.tables().forEach(t -> deltas.put(t.tableKey(), t.delta()));
    List<MergeConflict> out = new ArrayList<>(rowViolations);
    for (TablePlan t : plan.tables()) {
      TableDelta d = t.delta();
      if (d.isEmpty()) {
        continue;
      }
      List<Map<String, Object>> written = d.written();
      String name = t.tableKey().typeName();
      if (t.tableKey().isNode()) {
        NodeType type = schema.catalog().node(name).orElseThrow();
        guard(out, MergeConflict.Kind.UNIQUE_VIOLATION,
            () -> RowValidator.checkUnique(ctx, t.tableKey(), type.uniques(), written, d.deletes(), false));
      } else {
        EdgeType type = schema.catalog().edge(name).orElseThrow();
        guard(out, MergeConflict.Kind.UNIQUE_VIOLATION,
            () -> RowValidator.checkUnique(ctx, t.tableKey(), type.uniques(), written, d.deletes(), false));
        // An updated edge's committed version gives way to its merged one: count it once.
        Set<String> replaced = new HashSet<>(d.deletes());
        replaced.addAll(d.updatedIds());
        guard(out, MergeConflict.Kind.CARDINALITY_VIOLATION,
            () -> RowValidator.checkCardinality(ctx, type, written, replaced, false));
      }
    }
    orphans(deltas, out);
    return out;
  }

  private static void guard(List<MergeConflict> out, MergeConflict.Kind kind, Runnable check) {
    try {
      check.run();
    } catch (ConstraintViolation v) {
      out.add(MergeConflict.of(kind, v.tableKey().toString(), v.entityId(), v.getMessage()));
    }
  }

  /** Every edge of the result names nodes the result holds. */
  private void orphans(Map<TableKey, TableDelta> deltas, List<MergeConflict> out) {
    TableDelta none = TableDelta.NONE;
    for (EdgeType edge : schema.catalog().edges().values()) {
      TableDelta ed = deltas.getOrDefault(edge.tableKey(), none);
      TableKey fromKey = TableKey.node(edge.from());
      TableKey toKey = TableKey.node(edge.to());
      // Edges the merge writes: both endpoints must be in the result.
      List<Map<String, Object>> written = ed.written();
      if (!written.isEmpty()) {
        Set<String> fromIds = new LinkedHashSet<>();
        Set<String> toIds = new LinkedHashSet<>();
        written.forEach(r -> {
          fromIds.add(String.valueOf(r.get("src")));
          toIds.add(String.valueOf(r.get("dst")));
        });
        Set<String> fromPresent = present(fromKey, fromIds, deltas.getOrDefault(fromKey, none));
        Set<String> toPresent = fromKey.equals(toKey) && fromIds.containsAll(toIds) ? fromPresent
            : present(toKey, toIds, deltas.getOrDefault(toKey, none));
        for (Map<String, Object> r : written) {
          String src = String.valueOf(r.get("src"));
          String dst = String.valueOf(r.get("dst"));
          if (!fromPresent.contains(src) || !toPresent.contains(dst)) {
            boolean srcMissing = !fromPresent.contains(src);
            out.add(MergeConflict.of(MergeConflict.Kind.ORPHAN_EDGE, edge.tableKey().toString(), String.valueOf(r.get("id")),
                "edge names " + (srcMissing ? edge.from() + " '" + src : edge.to() + " '" + dst)
                    + "', which the merged result does not hold"));
          }
        }
      }
      // Edges the merge keeps: none may name a node the merge deletes.
      Set<String> rewritten = new HashSet<>(ed.deletes());
      written.forEach(r -> rewritten.add(String.valueOf(r.get("id"))));
      TablePin pin = target.tables().get(edge.tableKey());
      for (String column : List.of("src", "dst")) {
        TableKey nodeKey = column.equals("src") ? fromKey : toKey;
        Set<String> deleted = deltas.getOrDefault(nodeKey, none).deletes();
        if (deleted.isEmpty() || pin == null) {
          continue;
        }
        tables.scan(pin.at(), Filter.in(column, deleted), List.of("id", "src", "dst"), r -> {
              String id = String.valueOf(r.get("id"));
              if (!rewritten.contains(id)) {
                out.add(MergeConflict.of(MergeConflict.Kind.ORPHAN_EDGE, edge.tableKey().toString(), id, "edge names "
                    + nodeKey.typeName() + " '" + r.get(column) + "', which the merge deletes"));
              }
            });
      }
    }
  }

  /** Which of {@code ids} the merged result holds in node table {@code nodeKey}. */
  private Set<String> present(TableKey nodeKey, Set<String> ids, TableDelta delta) {
    Set<String> found = new HashSet<>();
    Set<String> probe = new LinkedHashSet<>();
    Set<String> written = new HashSet<>();
    delta.written().forEach(r -> written.add(String.valueOf(r.get("id"))));
    for (String id : ids) {
      if (written.contains(id)) {
        found.add(id);
      } else if (!delta.deletes().contains(id)) {
        probe.add(id);
      }
    }
    TablePin pin = target.tables().get(nodeKey);
    if (!probe.isEmpty() && pin != null) {
      tables.rowsById(pin.at(), probe, List.of("id"))
          .forEach(r -> found.add(String.valueOf(r.get("id"))));
    }
    return found;
  }
}
