package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.Filter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The in-memory accumulator of one multi-statement mutation, so that its later statements read
 * what its earlier ones wrote: per table, pending rows by id and pending deletions. Reads during the
 * mutation see committed rows at the pin plus pending rows, a pending id shadowing its committed
 * row, with the same predicate semantics on both ({@link Filter#toSql()} pushed into Lance,
 * {@link Filter#test} on pending rows). Lance HEAD never moves while statements run.
 */
final class MutationStaging {

  /** One table's pending state. */
  static final class Pending {
    final Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
    /** Ids inserted by this mutation: they must be absent from the committed table (strict). */
    final Set<String> inserted = new LinkedHashSet<>();
    /**
     * Keyed node ids this mutation inserted: an upsert by derived id (reference), so at the end the
     * committed ones among them become rewrites ({@link #updated}) and only the rest stay {@link #inserted}.
     */
    final Set<String> keyed = new LinkedHashSet<>();
    /** Ids of committed rows this mutation rewrites. */
    final Set<String> updated = new LinkedHashSet<>();
    final Set<String> deleted = new LinkedHashSet<>();
    /** Where each committed row a statement matched is, at the pin ({@code _rowaddr}). */
    final Map<String, Long> addresses = new java.util.HashMap<>();

    /**
     * What the stage of this table may reuse instead of probing again: the matched rows' addresses
     * and the inserted ids the strict preflight proved absent, all at {@code pin}. Only a stage at
     * that exact version of that branch may use them.
     */
    dev.omnigraph.table.KnownRows known(Set<String> ids) {
      Map<String, Long> located = new java.util.HashMap<>();
      for (String id : ids) {
        Long a = addresses.get(id);
        if (a != null) {
          located.put(id, a);
        }
      }
      return new dev.omnigraph.table.KnownRows(located, inserted);
    }
  }

  private final PrepareContext ctx;
  private final Map<TableKey, Pending> tables = new TreeMap<>();

  MutationStaging(PrepareContext ctx) {
    this.ctx = ctx;
  }

  Map<TableKey, Pending> tables() {
    return tables;
  }

  Pending table(TableKey tableKey) {
    return tables.computeIfAbsent(tableKey, k -> new Pending());
  }

  /** Rows matching {@code filter}: committed at the pin (shadowed by pending ids), then pending. */
  List<Map<String, Object>> scan(TableKey tableKey, Filter filter, List<String> columns, int limit) {
    Pending p = tables.get(tableKey);
    TablePin pin = ctx.pin(tableKey);
    List<Map<String, Object>> out = new ArrayList<>();
    ctx.tables().scanAddressed(pin.at(), filter, columns, (row, address) -> {
      String id = String.valueOf(row.get("id"));
      if (p == null || (!p.rows.containsKey(id) && !p.deleted.contains(id))) {
        out.add(row);
        table(tableKey).addresses.put(id, address);
        WriteLimits.checkMatches(tableKey, out.size(), limit);
      }
    });
    if (p != null) {
      for (Map<String, Object> row : p.rows.values()) {
        if (filter.test(row)) {
          out.add(row);
          WriteLimits.checkMatches(tableKey, out.size(), limit);
        }
      }
    }
    return out;
  }

  /** Which of {@code ids} exist in the committed table at the pin (the strict-insert preflight). */
  Set<String> existingCommitted(TableKey tableKey, Set<String> ids) {
    TablePin pin = ctx.pin(tableKey);
    Set<String> found = new LinkedHashSet<>();
    ctx.tables().rowsById(pin.at(), ids, List.of("id"))
        .forEach(r -> found.add(String.valueOf(r.get("id"))));
    return found;
  }

  /** Which of {@code ids} exist for this mutation: pending, or committed at the pin. */
  Set<String> existing(TableKey tableKey, Set<String> ids) {
    Set<String> found = new HashSet<>();
    Pending p = tables.get(tableKey);
    Set<String> committedToProbe = new LinkedHashSet<>();
    for (String id : ids) {
      if (p != null && p.rows.containsKey(id)) {
        found.add(id);
      } else if (p == null || !p.deleted.contains(id)) {
        committedToProbe.add(id);
      }
    }
    if (!committedToProbe.isEmpty()) {
      TablePin pin = ctx.pin(tableKey);
      ctx.tables().rowsById(pin.at(), committedToProbe, List.of("id"))
          .forEach(r -> found.add(String.valueOf(r.get("id"))));
    }
    return found;
  }
}
