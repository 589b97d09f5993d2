package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A typechecked schema: what {@link SchemaParser#parse(String)} returns and what the engine plans
 * against. Immutable; maps are sorted by type name, so iteration order is deterministic and two
 * catalogs are equal exactly when their schemas mean the same thing.
 *
 * @param nodes node types by name
 * @param edges edge types by declared name
 * @param interfaces interfaces by name
 */
public record Catalog(
    SortedMap<String, NodeType> nodes,
    SortedMap<String, EdgeType> edges,
    SortedMap<String, InterfaceType> interfaces) {

  public Catalog {
    nodes = Collections.unmodifiableSortedMap(new TreeMap<>(nodes));
    edges = Collections.unmodifiableSortedMap(new TreeMap<>(edges));
    interfaces = Collections.unmodifiableSortedMap(new TreeMap<>(interfaces));
    for (Map.Entry<String, EdgeType> e : edges.entrySet()) {
      if (!nodes.containsKey(e.getValue().from()) || !nodes.containsKey(e.getValue().to())) {
        throw new IllegalArgumentException("edge " + e.getKey() + " names an unknown endpoint");
      }
    }
  }

  /** The node type with this exact name. */
  public Optional<NodeType> node(String name) {
    return Optional.ofNullable(nodes.get(name));
  }

  /** The edge type whose name equals {@code name} ignoring case ({@code knows} finds {@code Knows}). */
  public Optional<EdgeType> edge(String name) {
    EdgeType exact = edges.get(name);
    if (exact != null) {
      return Optional.of(exact);
    }
    String folded = foldEdgeName(name);
    return edges.values().stream().filter(e -> foldEdgeName(e.name()).equals(folded)).findFirst();
  }

  /**
   * {@code " (did you mean X?)"} naming the node type closest to {@code wrong} (a slip of case or of
   * one or two letters), else the empty string: for messages that refuse an unknown type.
   */
  public String nodeTypeHint(String wrong) {
    return Names.hint(wrong, nodes.keySet());
  }

  /** As {@link #nodeTypeHint}, among the edge types. */
  public String edgeTypeHint(String wrong) {
    return Names.hint(wrong, edges.keySet());
  }

  /** The interface with this exact name. */
  public Optional<InterfaceType> iface(String name) {
    return Optional.ofNullable(interfaces.get(name));
  }

  /** Every table key ({@code node:T}, {@code edge:T}), sorted. */
  public List<TableKey> tableKeys() {
    List<TableKey> keys = new ArrayList<>();
    nodes.values().forEach(n -> keys.add(n.tableKey()));
    edges.values().forEach(e -> keys.add(e.tableKey()));
    Collections.sort(keys);
    return List.copyOf(keys);
  }

  /** Root-locale lower case: the one folding used for edge-name matching, independent of the JVM locale. */
  static String foldEdgeName(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  static List<List<String>> copyNested(List<List<String>> lists) {
    return lists.stream().map(List::copyOf).toList();
  }
}
