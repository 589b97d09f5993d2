package dev.omnigraph.server;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.engine.StoredQueries;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryException;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses a schema apply whose desired schema would break one of the graph's stored queries, as the
 * reference's {@code validate_registry_against_catalog} does: the catalog is fixed at startup, so a
 * query that stops typechecking would fail every invocation until a redeploy.
 *
 * <p>Checked before the engine call, not inside the apply: the catalog an apply accepts is the desired
 * source's (renames included), which neither a concurrent write nor the apply itself can change, so
 * checking it first decides the same as checking it under the apply's lock. Only breakages the change
 * causes count: a query that already fails against the accepted schema (the catalog is not checked
 * against the schema at startup, and {@code mixed}-style D₂ breaches fail on every schema) does not
 * block an apply.
 */
final class StoredQueryCheck {

  private StoredQueryCheck() {}

  /**
   * @throws InvalidRequest listing each stored query the desired schema breaks, in the reference's
   *     wording ({@code graph 'g': 1 stored query failed the schema check: query 'q': …})
   * @throws dev.omnigraph.schema.SchemaParseException when the desired source does not parse (400 at
   *     its line:column, as the engine would answer)
   */
  static void desiredSchema(String graphId, StoredQueries queries, String acceptedSource, String desiredSource) {
    if (queries.names().isEmpty()) {
      return;
    }
    Catalog desired = SchemaParser.parse(desiredSource);
    Catalog accepted = SchemaParser.parse(acceptedSource);
    List<String> broken = new ArrayList<>();
    for (String name : queries.names()) {
      String failure = failure(queries.get(name), desired);
      if (failure != null && failure(queries.get(name), accepted) == null) {
        broken.add("query '" + name + "': " + failure);
      }
    }
    if (!broken.isEmpty()) {
      throw new InvalidRequest("schema apply refused, nothing was changed: graph '" + graphId + "': " + broken.size()
          + " stored quer" + (broken.size() == 1 ? "y" : "ies") + " failed the schema check:\n  "
          + String.join("\n  ", broken));
    }
  }

  /** Why {@code query} does not typecheck against {@code catalog}, or null when it does. */
  private static String failure(StoredQueries.StoredQuery query, Catalog catalog) {
    try {
      QueryChecker.check(QueryParser.parse(query.source()).declaration(query.name()), catalog);
      return null;
    } catch (QueryException e) {
      return e.getMessage();
    }
  }
}
