package dev.omnigraph.query;

import dev.omnigraph.schema.NodeType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A checked {@code match { ... } return { ... } [order { ... }] [limit N]}.
 *
 * @param name the query name
 * @param params the declared parameters
 * @param variables every variable bound outside {@code not} blocks, with its node type, in order of
 *     first binding
 * @param match the clauses, a conjunction
 * @param columns the return columns, names unique
 * @param order the order keys, most significant first; empty for no {@code order}
 * @param limit the {@code limit}, when given
 */
public record CheckedRead(
    String name,
    List<ParamDecl> params,
    Map<String, NodeType> variables,
    List<Clause> match,
    List<Column> columns,
    List<OrderKey> order,
    OptionalLong limit) implements CheckedQuery {

  public CheckedRead {
    Objects.requireNonNull(name, "name");
    params = List.copyOf(params);
    variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    match = List.copyOf(match);
    columns = List.copyOf(columns);
    order = List.copyOf(order);
    Objects.requireNonNull(limit, "limit");
  }

  /** True when a column aggregates: rows are then grouped by the {@link Column.Projection} columns. */
  public boolean isAggregating() {
    return columns.stream().anyMatch(c -> c instanceof Column.Aggregate);
  }

  /** The column names in return order. */
  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }
}
