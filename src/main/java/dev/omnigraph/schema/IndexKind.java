package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The physical index a declared column gets (docs/indexes-and-search.md, "Building indexes: index
 * ensure"), decided here and nowhere else: {@link #of(PropertyType)} is the reference's
 * {@code node_prop_index_kind}, and {@link #declared(Catalog, TableKey)} the per-table list of what
 * should exist, shared by the EnsureIndices writer's planning and anything that asks whether a
 * column is (or should be) indexed, so the two cannot drift.
 */
public enum IndexKind {
  /** A Lance BTree scalar index: {@code =}, ranges, {@code IN}, null tests, prefix. */
  BTREE,
  /** A Lance inverted (full-text) index: {@code search}, {@code match_text}, {@code bm25}. */
  INVERTED,
  /** A Lance vector index (IVF, L2): {@code nearest}. */
  VECTOR,
  /** No index: lists and Blobs are not indexable. */
  NONE;

  /**
   * The index a property of {@code type} gets from a single-property {@code @index} or {@code @key}:
   * enums and orderable scalars (Bool, integers, floats, Date, DateTime) a BTree; a free-text
   * (non-enum) String an inverted index — Lance never answers {@code =} or a prefix from it, so
   * equality on such a column stays a scan, as in the reference; a vector a vector index; a list
   * nothing. Nullability does not matter.
   */
  public static IndexKind of(PropertyType type) {
    if (type.list()) {
      return NONE;
    }
    return switch (type.kind()) {
      case STRING -> INVERTED;
      case VECTOR -> VECTOR;
      case BLOB -> NONE;
      case ENUM, BOOL, I32, I64, U32, U64, F32, F64, DATE, DATETIME -> BTREE;
    };
  }

  /**
   * Every index table {@code tableKey} should have, column → kind, in build order: the key columns
   * first (a node's {@code id}; an edge's {@code id}, {@code src}, {@code dst}: BTree, the indexes
   * every write probe uses), then each property named by a single-property {@code @key} or
   * {@code @index} with the kind {@link #of} gives it (in the catalog's canonical order). Composite
   * declarations get no index of their own (a composite {@code @key} is served by the {@code id}
   * index its ids derive from); a column named twice appears once; {@link #NONE} is left out.
   *
   * @throws IllegalArgumentException for a table key the catalog does not have
   */
  public static Map<String, IndexKind> declared(Catalog catalog, TableKey tableKey) {
    Map<String, IndexKind> out = new LinkedHashMap<>();
    if (tableKey.isNode()) {
      return declared(catalog.node(tableKey.typeName())
          .orElseThrow(() -> new IllegalArgumentException("no node type " + tableKey)));
    } else {
      EdgeType edge = catalog.edges().get(tableKey.typeName());
      if (edge == null) {
        throw new IllegalArgumentException("no edge type " + tableKey);
      }
      out.put("id", BTREE);
      out.put("src", BTREE);
      out.put("dst", BTREE);
      for (List<String> index : edge.indexes()) {
        if (index.size() == 1) {
          add(out, index.get(0), edge.property(index.get(0)));
        }
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** As {@link #declared(Catalog, TableKey)} for a node type's table. */
  public static Map<String, IndexKind> declared(NodeType node) {
    Map<String, IndexKind> out = new LinkedHashMap<>();
    out.put("id", BTREE);
    if (node.key().size() == 1) {
      add(out, node.key().get(0), node.property(node.key().get(0)));
    }
    for (List<String> index : node.indexes()) {
      if (index.size() == 1) {
        add(out, index.get(0), node.property(index.get(0)));
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static void add(Map<String, IndexKind> out, String column, Optional<Property> property) {
    // src/dst on an edge are already in (system columns have no Property).
    if (out.containsKey(column) || property.isEmpty()) {
      return;
    }
    IndexKind kind = of(property.get().type());
    if (kind != NONE) {
      out.put(column, kind);
    }
  }
}
