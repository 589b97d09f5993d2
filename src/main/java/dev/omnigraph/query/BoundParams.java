package dev.omnigraph.query;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parameter values bound by {@link Params#bind}, converted to the Java types listed on
 * {@link Value.Literal}. Holds every declared parameter; an optional one that was left out or given
 * as JSON null maps to null.
 */
public final class BoundParams {

  private final String query;
  private final Map<String, Object> values;

  BoundParams(String query, Map<String, Object> values) {
    this.query = query;
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The query these values were bound for. */
  public String query() {
    return query;
  }

  /** Every declared parameter by name (without {@code $}), in declaration order; values may be null. */
  public Map<String, Object> values() {
    return values;
  }

  /**
   * The value of a declared parameter, null for an optional one not given.
   *
   * @throws IllegalArgumentException when the query declares no such parameter (a checked query
   *     only names declared ones, so this is a programming error)
   */
  public Object get(String name) {
    if (!values.containsKey(name)) {
      throw new IllegalArgumentException("query '" + query + "' declares no parameter $" + name);
    }
    return values.get(name);
  }

  /** The value a checked {@link Value.Param} stands for. */
  public Object get(Value.Param param) {
    return get(param.name());
  }

  @Override
  public String toString() {
    return "BoundParams" + values;
  }
}
