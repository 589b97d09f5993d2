package dev.omnigraph.schema;

import java.util.List;
import java.util.Objects;

/**
 * An interface: a named property set that node types implement. It has no table; its properties,
 * and the {@code @key}/{@code @unique}/{@code @index} flags written on them, are merged into every
 * implementing node type.
 *
 * @param name the interface name
 * @param properties sorted by name
 * @param key the property flagged {@code @key}, or empty
 * @param uniques one single-column list per property flagged {@code @unique}, sorted
 * @param indexes one single-column list per property flagged {@code @index}, sorted
 * @param annotations uninterpreted annotations
 */
public record InterfaceType(
    String name,
    List<Property> properties,
    List<String> key,
    List<List<String>> uniques,
    List<List<String>> indexes,
    List<Annotation> annotations) {

  public InterfaceType {
    Objects.requireNonNull(name, "name");
    properties = List.copyOf(properties);
    key = List.copyOf(key);
    uniques = Catalog.copyNested(uniques);
    indexes = Catalog.copyNested(indexes);
    annotations = List.copyOf(annotations);
  }
}
