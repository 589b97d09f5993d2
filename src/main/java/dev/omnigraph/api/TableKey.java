package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * The name the graph manifest gives one type's table: {@code node:<Type>} or {@code edge:<Type>}.
 * The stored and wire form is {@link #toString()}, so a manifest row, a recovery sidecar or a JSON
 * answer spells a key exactly as the string did before this type existed; keys order as those
 * strings do, so sorted maps keep the order the stored bytes were written in.
 *
 * @param kind whether the table holds nodes or edges
 * @param typeName the type's name, without the kind prefix
 */
public record TableKey(Kind kind, String typeName) implements Comparable<TableKey> {

  /** Which half of the graph a table holds; its {@link #prefix()} starts the stored form. */
  public enum Kind {
    NODE("node"),
    EDGE("edge");

    private final String prefix;

    Kind(String prefix) {
      this.prefix = prefix;
    }

    /** {@code node} or {@code edge}. */
    public String prefix() {
      return prefix;
    }
  }

  public TableKey {
    Objects.requireNonNull(kind, "kind");
    if (typeName == null || typeName.isEmpty()) {
      throw new IllegalArgumentException("a table key names a type");
    }
  }

  /** {@code node:<type>}. */
  public static TableKey node(String type) {
    return new TableKey(Kind.NODE, type);
  }

  /** {@code edge:<type>}. */
  public static TableKey edge(String type) {
    return new TableKey(Kind.EDGE, type);
  }

  /**
   * The key a stored or wire string spells.
   *
   * @throws IllegalArgumentException unless it is {@code node:<Type>} or {@code edge:<Type>}
   */
  @JsonCreator
  public static TableKey parse(String stored) {
    Objects.requireNonNull(stored, "stored");
    for (Kind k : Kind.values()) {
      if (stored.startsWith(k.prefix) && stored.length() > k.prefix.length() + 1
          && stored.charAt(k.prefix.length()) == ':') {
        return new TableKey(k, stored.substring(k.prefix.length() + 1));
      }
    }
    throw new IllegalArgumentException("table key must be node:T or edge:T, got " + stored);
  }

  public boolean isNode() {
    return kind == Kind.NODE;
  }

  public boolean isEdge() {
    return kind == Kind.EDGE;
  }

  @Override
  public int compareTo(TableKey other) {
    return toString().compareTo(other.toString());
  }

  /** The stored form: {@code node:<Type>} or {@code edge:<Type>}. */
  @JsonValue
  @Override
  public String toString() {
    return kind.prefix + ":" + typeName;
  }
}
