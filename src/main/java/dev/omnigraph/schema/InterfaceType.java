package dev.omnigraph.schema;

import java.util.List;
import java.util.Objects;

/**
 * An interface: a named property set that node types implement. It has no table; its properties
 * (with their {@code @key}/{@code @unique}/{@code @index} flags) are merged into every implementing
 * node type.
 *
 * @param name the interface name
 * @param properties sorted by name
 * @param annotations uninterpreted annotations
 */
public record InterfaceType(String name, List<Property> properties, List<Annotation> annotations) {

  public InterfaceType {
    Objects.requireNonNull(name, "name");
    properties = List.copyOf(properties);
    annotations = List.copyOf(annotations);
  }
}
