package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Parsed load rows by table key (sorted) and id (input order), with the line each came from. */
final class LoadBatch implements LoadSink {

  /** An edge's endpoint reference to check: node type, node id, and the line naming it. */
  record Endpoint(TableKey nodeTableKey, String id, long line) {}

  private final Map<TableKey, LinkedHashMap<String, Map<String, Object>>> rows = new TreeMap<>();
  private final Map<String, Long> lines = new java.util.HashMap<>();
  /** Endpoints by table key and edge id: a merge's later line for the same id replaces the earlier one's. */
  private final Map<String, List<Endpoint>> endpoints = new java.util.LinkedHashMap<>();
  /** Edge tables by key, with the ids the input named (rather than generated) in them. */
  private final Map<TableKey, java.util.Set<String>> namedEdgeIds = new TreeMap<>();

  @Override
  public void add(TableKey tableKey, String id, Map<String, Object> row, long line, boolean strict) {
    LinkedHashMap<String, Map<String, Object>> table = rows.computeIfAbsent(tableKey, k -> new LinkedHashMap<>());
    Long first = lines.get(tableKey + "\u0000" + id);
    if (first != null && strict) {
      throw new LoadInputError(line, tableKey + " id " + id + " appears twice (first at line " + first + ")");
    }
    // Merge and overwrite: the last occurrence wins, as an upsert of the same id would.
    table.remove(id);
    table.put(id, row);
    lines.putIfAbsent(tableKey + "\u0000" + id, line);
  }

  @Override
  public void addEdge(TableKey tableKey, String id, Map<String, Object> row, long line, String fromType, String from,
      String toType, String to, boolean named, boolean strict) {
    add(tableKey, id, row, line, strict);
    if (named) {
      namedEdgeIds.computeIfAbsent(tableKey, k -> new java.util.LinkedHashSet<>()).add(id);
    }
    endpoints.put(tableKey + "\u0000" + id,
        List.of(new Endpoint(TableKey.node(fromType), from, line), new Endpoint(TableKey.node(toType), to, line)));
  }

  /** Edge tables whose input named ids, with those ids: only they can meet a committed row. */
  Map<TableKey, java.util.Set<String>> namedEdgeIds() {
    return namedEdgeIds;
  }

  @Override
  public int rowsIn(TableKey tableKey) {
    return rows.get(tableKey).size();
  }

  Map<TableKey, LinkedHashMap<String, Map<String, Object>>> rows() {
    return rows;
  }

  List<Endpoint> endpoints() {
    return endpoints.values().stream().flatMap(List::stream).toList();
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  long total() {
    return rows.values().stream().mapToLong(Map::size).sum();
  }
}
