package dev.omnigraph.query;

import java.util.List;
import java.util.Objects;

/**
 * A checked mutation: its statements in written order, all constructive (insert/update) or all
 * destructive (delete), by the D₂ rule.
 *
 * @param name the query name
 * @param params the declared parameters
 * @param statements at least one
 */
public record CheckedMutation(String name, List<ParamDecl> params, List<Statement> statements)
    implements CheckedQuery {

  public CheckedMutation {
    Objects.requireNonNull(name, "name");
    params = List.copyOf(params);
    statements = List.copyOf(statements);
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("a mutation has at least one statement");
    }
    boolean delete = statements.get(0).isDelete();
    if (statements.stream().anyMatch(s -> s.isDelete() != delete)) {
      throw new IllegalArgumentException("a mutation is either insert/update-only or delete-only (D₂)");
    }
  }

  /** True for a delete-only mutation, false for an insert/update one. */
  public boolean isDelete() {
    return statements.get(0).isDelete();
  }
}
