package dev.omnigraph.engine;

import dev.omnigraph.query.QueryParser;
import java.util.List;

/** What a front end may learn of a {@code .gq} source without running it. */
public final class QuerySources {

  private QuerySources() {}

  /**
   * The names the source declares, in order.
   *
   * @throws dev.omnigraph.query.QueryParseException when the source does not parse (mapped like every query error)
   */
  public static List<String> declaredNames(String source) {
    return QueryParser.parse(source).names();
  }
}
