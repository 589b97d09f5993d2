package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An NDJSON load as a {@link PreparedWrite}: one load is one graph commit. {@code append} is a strict
 * insert (an existing id is {@link KeyConflict}, and it stays strict through reprepare),
 * {@code merge} upserts by id, {@code overwrite} replaces the content of every touched table. Edges
 * follow the same rule by their id: a generated one cannot meet a committed row, a named one can
 * (append: {@link KeyConflict}; merge: the committed edge is replaced, endpoints included).
 */
final class LoadWriter implements PreparedWrite {

  private final LoadBatch batch;
  private final LoadMode mode;
  private final Catalog catalog;
  private final ExternalBlobs externals;

  LoadWriter(LoadBatch batch, LoadMode mode, Catalog catalog, ExternalBlobs externals) {
    this.batch = batch;
    this.mode = mode;
    this.catalog = catalog;
    this.externals = externals;
  }

  @Override
  public dev.omnigraph.recovery.WriterKind writerKind() {
    return new dev.omnigraph.recovery.WriterKind.Load();
  }

  @Override
  public boolean repreparable() {
    return mode != LoadMode.OVERWRITE;
  }

  @Override
  public Map<TableKey, Set<String>> strictIds() {
    if (mode != LoadMode.APPEND) {
      return Map.of();
    }
    Map<TableKey, Set<String>> ids = new HashMap<>();
    batch.rows().forEach((table, rows) -> ids.put(table, rows.keySet()));
    return ids;
  }

  @Override
  public List<TableEffect> prepare(PrepareContext ctx) {
    for (Map.Entry<TableKey, LinkedHashMap<String, Map<String, Object>>> t : batch.rows().entrySet()) {
      if (t.getKey().isNode() && mode != LoadMode.OVERWRITE) {
        WriteLimits.checkRows(t.getKey(), t.getValue().size());
      }
    }
    if (mode != LoadMode.OVERWRITE) {
      Map<TableKey, java.util.Collection<Map<String, Object>>> rows = new LinkedHashMap<>();
      batch.rows().forEach((table, byId) -> rows.put(table, byId.values()));
      if (BlobAdmission.anyBlob(rows)) {
        // Rows are settled in place: a reprepare finds managed bytes and reads no source again.
        BlobAdmission.materialise(ctx, externals, rows, dev.omnigraph.schema.BlobValue.MAX_OPERATION_BYTES);
      }
    }
    checkEndpoints(ctx);
    checkConstraints(ctx);
    List<TableEffect> effects = new ArrayList<>();
    for (Map.Entry<TableKey, LinkedHashMap<String, Map<String, Object>>> t : batch.rows().entrySet()) {
      effects.add(effect(ctx, t.getKey(), new ArrayList<>(t.getValue().values())));
    }
    return effects;
  }

  private TableEffect effect(PrepareContext ctx, TableKey tableKey, List<Map<String, Object>> rows) {
    TablePin pin = ctx.pin(tableKey);
    Schema schema = Effects.schemaOf(catalog, tableKey);
    List<String> ids = rows.stream().map(r -> (String) r.get("id")).toList();
    long existing = 0;
    boolean probed = probesIds(tableKey);
    if (probed) {
      List<Map<String, Object>> present = ctx.tables().rowsById(pin.at(), ids, List.of("id"));
      if (mode == LoadMode.APPEND && !present.isEmpty()) {
        // Exact-id preflight against the pinned parent: terminal, never an upsert.
        throw new KeyConflict(tableKey.toString(), String.valueOf(present.get(0).get("id")));
      }
      existing = present.size();
    }
    long after = switch (mode) {
      case APPEND -> pin.rowCount() + rows.size();
      case MERGE -> pin.rowCount() + rows.size() - existing;
      case OVERWRITE -> rows.size();
    };
    // The certificate needs the exact-id preflight above against the same read version.
    boolean certify = mode == LoadMode.APPEND && probed;
    TableEffect.Stager stager = (readVersion, uuid) -> stage(ctx.tables(), ctx.targetAt(pin, readVersion), schema,
        rows, certify, uuid);
    return Effects.of(ctx, pin, stager, after, rows.size(), tableKey.isNode() && mode != LoadMode.OVERWRITE);
  }

  /**
   * Whether a table's ids can already be committed: every node table's (key-derived), and an edge
   * table's only when the input named ids in it (generated ones are fresh). Overwrite replaces.
   */
  private boolean probesIds(TableKey tableKey) {
    return mode != LoadMode.OVERWRITE
        && (tableKey.isNode() || batch.namedEdgeIds().containsKey(tableKey));
  }

  private StagedWrite stage(DataTables tables, TableAt at, Schema schema, List<Map<String, Object>> rows,
      boolean certify, String uuid) {
    return switch (mode) {
      case APPEND -> tables.staging().stageInsert(at, schema, rows, certify, uuid);
      case MERGE -> tables.staging().stageUpsert(at, schema, rows, uuid);
      case OVERWRITE -> tables.staging().stageOverwrite(at, schema, rows, uuid);
    };
  }

  /** {@code @range}, {@code @check}, {@code @unique} and {@code @card} over the whole load. */
  private void checkConstraints(PrepareContext ctx) {
    boolean replaces = mode == LoadMode.OVERWRITE;
    for (Map.Entry<TableKey, LinkedHashMap<String, Map<String, Object>>> t : batch.rows().entrySet()) {
      String name = t.getKey().typeName();
      if (t.getKey().isNode()) {
        var type = catalog.node(name).orElseThrow();
        t.getValue().values().forEach(row -> RowValidator.checkRow(type, row));
        RowValidator.checkUnique(ctx, t.getKey(), type.uniques(), t.getValue().values(), Set.of(), replaces);
      } else {
        var type = catalog.edge(name).orElseThrow();
        RowValidator.checkUnique(ctx, t.getKey(), type.uniques(), t.getValue().values(), Set.of(), replaces);
        // A merge that names a committed edge replaces it: its old row must not count twice.
        RowValidator.checkCardinality(ctx, type, t.getValue().values(), replacedEdges(ctx, t.getKey()), replaces);
      }
    }
  }

  private Set<String> replacedEdges(PrepareContext ctx, TableKey tableKey) {
    Set<String> named = batch.namedEdgeIds().get(tableKey);
    if (mode != LoadMode.MERGE || named == null) {
      return Set.of();
    }
    TablePin pin = ctx.pin(tableKey);
    Set<String> replaced = new HashSet<>();
    ctx.tables().rowsById(pin.at(), named, List.of("id"))
        .forEach(r -> replaced.add(String.valueOf(r.get("id"))));
    return replaced;
  }

  /** Every edge endpoint names a node in this load or in the pinned snapshot. */
  private void checkEndpoints(PrepareContext ctx) {
    Map<TableKey, Map<String, Long>> wanted = new HashMap<>();
    for (LoadBatch.Endpoint e : batch.endpoints()) {
      Map<String, Map<String, Object>> pending = batch.rows().getOrDefault(e.nodeTableKey(), new LinkedHashMap<>());
      if (!pending.containsKey(e.id())) {
        wanted.computeIfAbsent(e.nodeTableKey(), k -> new LinkedHashMap<>()).putIfAbsent(e.id(), e.line());
      }
    }
    requireOnBranch(ctx, wanted, table -> mode != LoadMode.OVERWRITE || !batch.rows().containsKey(table));
  }

  /**
   * Refuses the first of the {@code wanted} endpoint ids (node table key → id → the first line
   * naming it; none of them in the load) that is not on the branch either; a table that
   * {@code probed} rejects (an overwrite replaces it) has none.
   */
  static void requireOnBranch(PrepareContext ctx, Map<TableKey, Map<String, Long>> wanted,
      java.util.function.Predicate<TableKey> probed) {
    for (Map.Entry<TableKey, Map<String, Long>> w : wanted.entrySet()) {
      TablePin pin = ctx.pin(w.getKey());
      Set<String> found = new HashSet<>();
      if (probed.test(w.getKey())) {
        ctx.tables().rowsById(pin.at(), w.getValue().keySet(), List.of("id"))
            .forEach(r -> found.add(String.valueOf(r.get("id"))));
      }
      for (Map.Entry<String, Long> id : w.getValue().entrySet()) {
        if (!found.contains(id.getKey())) {
          throw new LoadInputError(id.getValue(), "edge endpoint " + w.getKey().typeName() + " '" + id.getKey()
              + "' does not exist (not in this load, not on the branch)");
        }
      }
    }
  }
}
