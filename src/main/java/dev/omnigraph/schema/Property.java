package dev.omnigraph.schema;

import java.util.List;
import java.util.Objects;

/**
 * A property of a node, edge or interface.
 *
 * @param name the column name
 * @param type its declared type
 * @param annotations annotations the language does not interpret, kept verbatim in canonical order
 */
public record Property(String name, PropertyType type, List<Annotation> annotations) {

  public Property {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    annotations = List.copyOf(annotations);
  }
}
