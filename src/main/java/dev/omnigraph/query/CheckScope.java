package dev.omnigraph.query;

import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Node variables by type, where each was first bound, and edge variables ({@code $w:knows}) by edge. */
record CheckScope(Map<String, NodeType> types, Map<String, Ast.Pos> boundAt, Map<String, EdgeType> edges) {
  static CheckScope empty() {
    return new CheckScope(new LinkedHashMap<>(), new HashMap<>(), new LinkedHashMap<>());
  }

  CheckScope copy() {
    return new CheckScope(new LinkedHashMap<>(types), new HashMap<>(boundAt), new LinkedHashMap<>(edges));
  }
}
