package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The node and edge types a checked query touches, by their schema names in the order the query
 * first touches them: what a per-type authorization scope (docs/authorization.md) is checked against
 * before the query runs. Derived from the checked form only, so it is exactly what the engine would
 * read or write.
 */
public final class TouchedTypes {

  private TouchedTypes() {}

  /**
   * A read's bound node types and traversed edges (with both end types: a traversal reads the nodes it
   * reaches), inside {@code not} blocks too; a mutation's target types, and for a node delete every
   * edge type incident to it in {@code catalog} (the write path deletes those edges with the node).
   */
  public static Set<String> of(CheckedQuery query, Catalog catalog) {
    Set<String> types = new LinkedHashSet<>();
    if (query instanceof CheckedRead read) {
      read.variables().values().forEach(t -> types.add(t.name()));
      clauses(read.match(), types);
    } else if (query instanceof CheckedMutation mutation) {
      for (Statement s : mutation.statements()) {
        if (s instanceof Statement.InsertNode n) {
          types.add(n.type().name());
        } else if (s instanceof Statement.InsertEdge e) {
          types.add(e.type().name());
        } else if (s instanceof Statement.Update u) {
          types.add(u.type().name());
        } else if (s instanceof Statement.DeleteEdge e) {
          types.add(e.type().name());
        } else if (s instanceof Statement.DeleteNode n) {
          String node = n.type().name();
          types.add(node);
          catalog.edges().values().stream().filter(e -> e.from().equals(node) || e.to().equals(node))
              .map(EdgeType::name).forEach(types::add);
        }
      }
    }
    return Collections.unmodifiableSet(types);
  }

  private static void clauses(List<Clause> clauses, Set<String> types) {
    for (Clause c : clauses) {
      if (c instanceof Clause.Bind b) {
        types.add(b.type().name());
      } else if (c instanceof Clause.Traverse t) {
        types.add(t.edge().from());
        types.add(t.edge().name());
        types.add(t.edge().to());
      } else if (c instanceof Clause.Not n) {
        clauses(n.clauses(), types);
      }
    }
  }
}
