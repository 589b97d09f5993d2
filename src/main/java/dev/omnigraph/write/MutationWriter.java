package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.query.BoundParams;
import dev.omnigraph.query.CheckedMutation;
import dev.omnigraph.query.Predicate;
import dev.omnigraph.query.Statement;
import dev.omnigraph.query.Value;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.KeyIds;
import dev.omnigraph.schema.ValueLimits;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.KnownRows;
import dev.omnigraph.util.Ulid;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A checked {@code .gq} mutation as a {@link PreparedWrite}. Statements run in order against
 * {@link MutationStaging}, so later statements see earlier ones; at the end each touched table
 * stages exactly one transaction: a strict insert (certified) when the mutation only added rows, an
 * upsert when it also rewrote committed rows, or a deletion-vector delete. A keyed node insert is an
 * upsert by its derived id (reference): the strict, certified insert only when every id is new.
 * Generated-id node and edge inserts stay strict. D₂ (checked per query) keeps inserts/updates and
 * deletes out of one mutation.
 */
final class MutationWriter implements PreparedWrite {

  private final CheckedMutation mutation;
  private final BoundParams params;
  private final Catalog catalog;
  private final Instant now;
  private final ExternalBlobs externals;
  private Map<TableKey, Set<String>> strictIds = Map.of();

  MutationWriter(CheckedMutation mutation, BoundParams params, Catalog catalog, ExternalBlobs externals) {
    this.mutation = mutation;
    this.params = params;
    this.catalog = catalog;
    this.externals = externals;
    // One now() for the whole mutation, at the stored (millisecond) precision.
    this.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public dev.omnigraph.recovery.WriterKind writerKind() {
    return new dev.omnigraph.recovery.WriterKind.Mutation();
  }

  @Override
  public boolean repreparable() {
    return mutation.statements().stream()
        .allMatch(s -> s instanceof Statement.InsertNode || s instanceof Statement.InsertEdge);
  }

  @Override
  public Map<TableKey, Set<String>> strictIds() {
    return strictIds;
  }

  @Override
  public List<TableEffect> prepare(PrepareContext ctx) {
    MutationStaging staging = new MutationStaging(ctx);
    for (Statement s : mutation.statements()) {
      if (s instanceof Statement.InsertNode ins) {
        insertNode(staging, ins);
      } else if (s instanceof Statement.InsertEdge ins) {
        insertEdge(staging, ins);
      } else if (s instanceof Statement.Update upd) {
        update(staging, upd);
      } else if (s instanceof Statement.DeleteNode del) {
        deleteNode(staging, del);
      } else if (s instanceof Statement.DeleteEdge del) {
        deleteIds(staging, del.tableKey(), filter(del.where()));
      }
    }
    Map<TableKey, Set<String>> strict = new HashMap<>();
    List<TableEffect> effects = new ArrayList<>();
    Map<TableKey, java.util.Collection<Map<String, Object>>> pendingRows = new LinkedHashMap<>();
    staging.tables().forEach((table, pending) -> pendingRows.put(table, pending.rows.values()));
    if (BlobAdmission.anyBlob(pendingRows)) {
      // Input payloads, external sources and the committed cells an update carries: one budget.
      BlobAdmission.materialise(ctx, externals, pendingRows, BlobValue.MAX_OPERATION_BYTES);
    }
    for (Map.Entry<TableKey, MutationStaging.Pending> t : staging.tables().entrySet()) {
      TableKey tableKey = t.getKey();
      MutationStaging.Pending p = t.getValue();
      TablePin pin = ctx.pin(tableKey);
      checkConstraints(ctx, tableKey, p);
      if (!p.deleted.isEmpty()) {
        Set<String> ids = p.deleted;
        TableEffect.Stager stager = (readVersion, uuid) ->
            ctx.tables().staging().stageDeleteIds(ctx.targetAt(pin, readVersion), ids, uuid, atPin(ctx, pin, readVersion) ? p.known(ids) : KnownRows.NONE);
        effects.add(Effects.of(ctx, pin, stager, pin.rowCount() - ids.size(), ids.size(), false));
        continue;
      }
      if (p.rows.isEmpty()) {
        continue;
      }
      WriteLimits.checkRows(tableKey, p.rows.size());
      if (!p.inserted.isEmpty()) {
        Set<String> clash = staging.existingCommitted(tableKey, p.inserted);
        for (String id : clash) {
          if (!p.keyed.contains(id)) {
            throw new KeyConflict(tableKey.toString(), id); // a generated-id insert stays strict
          }
        }
        // A keyed insert of a committed id is an upsert of it: a rewrite, not an insertion.
        p.inserted.removeAll(clash);
        p.updated.addAll(clash);
        // Terminal key_conflict on a concurrent landing is for strict (generated-id) inserts only; a keyed
        // id that appears meanwhile reprepares, and the rerun upserts it (reference mutations/index.md).
        Set<String> strictOnly = new java.util.LinkedHashSet<>(p.inserted);
        strictOnly.removeAll(p.keyed);
        if (!strictOnly.isEmpty()) {
          strict.put(tableKey, Set.copyOf(strictOnly));
        }
      }
      Schema schema = Effects.schemaOf(catalog, tableKey);
      List<Map<String, Object>> rows = new ArrayList<>(p.rows.values());
      boolean insertOnly = p.updated.isEmpty();
      TableEffect.Stager stager = insertOnly
          ? (readVersion, uuid) -> ctx.tables().staging().stageInsert(ctx.targetAt(pin, readVersion), schema, rows, true, uuid)
          : (readVersion, uuid) -> ctx.tables().staging().stageUpsert(ctx.targetAt(pin, readVersion), schema, rows, uuid, atPin(ctx, pin, readVersion) ? p.known(p.rows.keySet()) : KnownRows.NONE);
      effects.add(Effects.of(ctx, pin, stager, pin.rowCount() + p.inserted.size(), p.rows.size(), true));
    }
    strictIds = strict;
    return effects;
  }

  /** Whether a stage at {@code readVersion} reads exactly what the statements scanned at the pin. */
  private static boolean atPin(PrepareContext ctx, TablePin pin, long readVersion) {
    return readVersion == pin.version() && ctx.targetBranch().equals(pin.nativeBranch());
  }

  /** Constraints over the table's final pending state, before anything is staged. */
  private void checkConstraints(PrepareContext ctx, TableKey tableKey, MutationStaging.Pending p) {
    String name = tableKey.typeName();
    if (tableKey.isNode()) {
      NodeType type = catalog.node(name).orElseThrow();
      p.rows.values().forEach(row -> RowValidator.checkRow(type, row));
      RowValidator.checkUnique(ctx, tableKey, type.uniques(), p.rows.values(), p.deleted, false);
    } else {
      EdgeType type = catalog.edge(name).orElseThrow();
      RowValidator.checkUnique(ctx, tableKey, type.uniques(), p.rows.values(), p.deleted, false);
      List<Map<String, Object>> inserted = p.rows.values().stream()
          .filter(r -> p.inserted.contains(String.valueOf(r.get("id")))).toList();
      RowValidator.checkCardinality(ctx, type, inserted, p.deleted, false);
    }
  }

  private void insertNode(MutationStaging staging, Statement.InsertNode ins) {
    NodeType type = ins.type();
    Map<String, Object> row = new LinkedHashMap<>();
    for (Property p : type.properties()) {
      Value v = ins.values().get(p.name());
      Object value = v == null ? null : stored(type.name() + "." + p.name(), eval(v));
      if (value == null && !p.type().nullable()) {
        throw new InvalidRequest(mutation.name() + ": insert " + type.name() + " needs " + p.name());
      }
      row.put(p.name(), value);
    }
    String id = type.isKeyed() ? KeyIds.nodeId(type, row) : Ulid.next();
    row.put("id", id);
    MutationStaging.Pending p = staging.table(type.tableKey());
    if (!type.isKeyed()) {
      p.rows.put(id, row);
      p.inserted.add(id);
      return;
    }
    // Keyed: an upsert by derived id (reference): the whole row replaces a pending or committed one.
    // Whether it is committed is settled once per table in prepare(), with one probe.
    boolean rewritesCommitted = p.updated.contains(id);
    p.rows.put(id, row);
    p.keyed.add(id);
    if (!rewritesCommitted) {
      p.inserted.add(id);
    }
  }

  private void insertEdge(MutationStaging staging, Statement.InsertEdge ins) {
    EdgeType type = ins.type();
    String from = endpoint(type, "from", eval(ins.from()));
    String to = endpoint(type, "to", eval(ins.to()));
    requireNode(staging, TableKey.node(type.from()), from);
    requireNode(staging, TableKey.node(type.to()), to);
    Map<String, Object> row = new LinkedHashMap<>();
    for (Property p : type.properties()) {
      Value v = ins.values().get(p.name());
      Object value = v == null ? null : stored(type.name() + "." + p.name(), eval(v));
      if (value == null && !p.type().nullable()) {
        throw new InvalidRequest(mutation.name() + ": insert " + type.name() + " needs " + p.name());
      }
      row.put(p.name(), value);
    }
    String id = Ulid.next();
    row.put("id", id);
    row.put("src", from);
    row.put("dst", to);
    MutationStaging.Pending p = staging.table(type.tableKey());
    p.rows.put(id, row);
    p.inserted.add(id);
  }

  private void requireNode(MutationStaging staging, TableKey nodeTableKey, String id) {
    if (staging.existing(nodeTableKey, Set.of(id)).isEmpty()) {
      throw new InvalidRequest(mutation.name() + ": " + nodeTableKey.typeName() + " '" + id
          + "' does not exist (an edge endpoint must be an existing or inserted node)");
    }
  }

  private void update(MutationStaging staging, Statement.Update upd) {
    NodeType type = upd.type();
    List<String> columns = columns(type.tableKey());
    List<Map<String, Object>> matches =
        staging.scan(type.tableKey(), filter(type, upd.where()), columns, WriteLimits.MAX_KEYED_ROWS);
    MutationStaging.Pending p = staging.table(type.tableKey());
    for (Map<String, Object> match : matches) {
      Map<String, Object> row = new LinkedHashMap<>(match);
      upd.assignments().forEach((prop, value) -> row.put(prop, stored(type.name() + "." + prop, eval(value))));
      String id = String.valueOf(row.get("id"));
      if (!p.inserted.contains(id)) {
        p.updated.add(id);
      }
      p.rows.put(id, row);
    }
  }

  private void deleteNode(MutationStaging staging, Statement.DeleteNode del) {
    Set<String> ids = deleteIds(staging, del.tableKey(), filter(del.type(), del.where()));
    if (ids.isEmpty()) {
      return;
    }
    // Deleting a node deletes its incident edges, in the same commit.
    for (EdgeType edge : catalog.edges().values()) {
      boolean from = edge.from().equals(del.type().name());
      boolean to = edge.to().equals(del.type().name());
      if (from || to) {
        Filter incident = from && to
            ? Filter.or(Filter.in("src", ids), Filter.in("dst", ids))
            : Filter.in(from ? "src" : "dst", ids);
        deleteIds(staging, edge.tableKey(), incident);
      }
    }
  }

  private Set<String> deleteIds(MutationStaging staging, TableKey tableKey, Filter filter) {
    Set<String> ids = new LinkedHashSet<>();
    staging.scan(tableKey, filter, List.of("id", "src", "dst").subList(0, tableKey.isEdge() ? 3 : 1),
        Integer.MAX_VALUE).forEach(r -> ids.add(String.valueOf(r.get("id"))));
    if (!ids.isEmpty()) {
      staging.table(tableKey).deleted.addAll(ids);
    }
    return ids;
  }

  /**
   * {@code key = value} on a node type keyed by that one String (or enum) property is {@code id =
   * value}: a keyed node's id is its key's spelling, and for these kinds the spelling is the value
   * itself (see {@link dev.omnigraph.schema.KeyIds}). The id form reads the {@code id} index and
   * the rows it names, not the key column of every fragment (docs/write-path.md, "what a write costs").
   */
  private Filter filter(NodeType type, Predicate where) {
    if (where.op() == dev.omnigraph.query.CompareOp.EQ && type.key().equals(List.of(where.column()))
        && !where.type().list()
        && (where.type().kind() == dev.omnigraph.schema.ScalarKind.STRING
            || where.type().kind() == dev.omnigraph.schema.ScalarKind.ENUM)
        && eval(where.value()) instanceof String key) {
      return Filter.eq("id", key);
    }
    return filter(where);
  }

  private Filter filter(Predicate where) {
    Object v = eval(where.value());
    String c = where.column();
    return switch (where.op()) {
      // By value, as a read compares: see Filter.compare.
      case EQ -> Filter.compare(Filter.Comparison.EQ, c, where.type().kind(), v);
      case NE -> Filter.compare(Filter.Comparison.NE, c, where.type().kind(), v);
      case LT -> Filter.compare(Filter.Comparison.LT, c, where.type().kind(), v);
      case LE -> Filter.compare(Filter.Comparison.LE, c, where.type().kind(), v);
      case GT -> Filter.compare(Filter.Comparison.GT, c, where.type().kind(), v);
      case GE -> Filter.compare(Filter.Comparison.GE, c, where.type().kind(), v);
      case STARTS_WITH -> Filter.startsWith(c, String.valueOf(v));
      case STRING_CONTAINS -> Filter.contains(c, String.valueOf(v));
      case IS_NULL -> Filter.isNull(c);
      case IS_NOT_NULL -> Filter.not(Filter.isNull(c));
      case LIST_CONTAINS -> throw new InvalidRequest(mutation.name()
          + ": list membership is not supported in a mutation's where clause yet");
    };
  }

  private List<String> columns(TableKey tableKey) {
    return Effects.schemaOf(catalog, tableKey).getFields().stream().map(Field::getName).toList();
  }

  /** {@code value}, checked against the value limits before it reaches a row (never staged over them). */
  private Object stored(String property, Object value) {
    String tooLong = ValueLimits.stringTooLong(value);
    if (tooLong != null) {
      throw new InvalidRequest(mutation.name() + ": " + property + ": " + tooLong);
    }
    return value;
  }

  /** An edge endpoint's node id; one over the id limit cannot name a node, so it is refused unlooked-up. */
  private String endpoint(EdgeType type, String side, Object value) {
    String id = String.valueOf(value);
    String tooLong = ValueLimits.idTooLong("the '" + side + "' node id", id);
    if (tooLong != null) {
      throw new InvalidRequest(mutation.name() + ": insert " + type.name() + ": " + tooLong);
    }
    return id;
  }

  private Object eval(Value v) {
    if (v instanceof Value.Literal lit) {
      return lit.value();
    }
    if (v instanceof Value.Param p) {
      return params.get(p);
    }
    return now;
  }
}
