package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;
import java.util.Objects;

/**
 * Typechecks a parsed {@link Declaration} against a schema {@link Catalog}: the step between
 * {@link QueryParser} and the engine, which runs only checked queries.
 */
public final class QueryChecker {

  private QueryChecker() {}

  /**
   * Resolves every type, property, edge and variable of the declaration and checks the typing rules
   * of {@code docs/query-language.md}.
   *
   * @param declaration a declaration from {@link QueryParser#parse}
   * @param catalog the schema to check against
   * @return a {@link CheckedRead} or a {@link CheckedMutation}
   * @throws QueryParseException on the first error, naming the query and, where one is involved, the
   *     variable, with the position of the offending token
   */
  public static CheckedQuery check(Declaration declaration, Catalog catalog) {
    Objects.requireNonNull(declaration, "declaration");
    Objects.requireNonNull(catalog, "catalog");
    return new Checker(declaration.ast(), catalog).check();
  }
}
