package dev.omnigraph.api;

import java.util.Objects;

/**
 * A full-text function ({@code search}, {@code fuzzy}, {@code match_text}, {@code bm25}) targets a
 * property that has no inverted (full-text) index at the version read. Declaring the property
 * {@code @index} and running {@code omnigraph index ensure} builds it; until then the query cannot
 * run (a flat text scan would answer with another analyzer than the index will).
 */
public final class SearchIndexMissing extends InvalidRequest {

  private final String typeName;
  private final String property;
  private final String function;

  /**
   * @param typeName the node type
   * @param property the String property without an inverted index
   * @param function the function that needed it, e.g. {@code bm25}
   */
  public SearchIndexMissing(String typeName, String property, String function) {
    super(function + "() needs a full-text (inverted) index on " + typeName + "." + property
        + ", which has none at this version; declare it in the schema (" + property + ": String @index) and run"
        + " omnigraph index ensure");
    this.typeName = Objects.requireNonNull(typeName, "typeName");
    this.property = Objects.requireNonNull(property, "property");
    this.function = Objects.requireNonNull(function, "function");
  }

  /** The node type. */
  public String typeName() {
    return typeName;
  }

  /** The property without an inverted index. */
  public String property() {
    return property;
  }

  /** The function that needed the index. */
  public String function() {
    return function;
  }
}
