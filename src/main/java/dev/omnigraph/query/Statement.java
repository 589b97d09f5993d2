package dev.omnigraph.query;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One checked mutation statement. Value maps keep the written order and are keyed by property
 * name; properties left out are null on insert and unchanged on update.
 */
public sealed interface Statement
    permits Statement.InsertNode, Statement.InsertEdge, Statement.Update, Statement.DeleteNode, Statement.DeleteEdge {

  /** {@code node:T} or {@code edge:T}: the table the statement writes. */
  TableKey tableKey();

  /** True for the destructive statements; by the D₂ rule a mutation holds only one kind. */
  default boolean isDelete() {
    return this instanceof DeleteNode || this instanceof DeleteEdge;
  }

  /**
   * {@code insert Node { ... }}. Every key property and every non-nullable property is present; the id
   * derives from the key (or is generated for an unkeyed type) and is never assigned.
   */
  record InsertNode(NodeType type, Map<String, Value> values) implements Statement {
    public InsertNode {
      Objects.requireNonNull(type, "type");
      values = copy(values);
    }

    @Override
    public TableKey tableKey() {
      return type.tableKey();
    }
  }

  /**
   * {@code insert Edge { from: ..., to: ..., ... }}; {@code from} and {@code to} are String node ids
   * of the edge's source and target types (a keyed node's id is its key's canonical spelling).
   */
  record InsertEdge(EdgeType type, Value from, Value to, Map<String, Value> values) implements Statement {
    public InsertEdge {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      values = copy(values);
    }

    @Override
    public TableKey tableKey() {
      return type.tableKey();
    }
  }

  /** {@code update Node set { ... } where ...}; never assigns {@code id} or a key property. */
  record Update(NodeType type, Map<String, Value> assignments, Predicate where) implements Statement {
    public Update {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(where, "where");
      assignments = copy(assignments);
    }

    @Override
    public TableKey tableKey() {
      return type.tableKey();
    }
  }

  /** {@code delete Node where ...}; the matched nodes' incident edges are deleted with them. */
  record DeleteNode(NodeType type, Predicate where) implements Statement {
    public DeleteNode {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(where, "where");
    }

    @Override
    public TableKey tableKey() {
      return type.tableKey();
    }
  }

  /** {@code delete Edge where ...}. */
  record DeleteEdge(EdgeType type, Predicate where) implements Statement {
    public DeleteEdge {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(where, "where");
    }

    @Override
    public TableKey tableKey() {
      return type.tableKey();
    }
  }

  private static Map<String, Value> copy(Map<String, Value> values) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }
}
