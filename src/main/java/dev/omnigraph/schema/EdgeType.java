package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An edge type: one Lance dataset whose rows have non-null {@code id}, {@code src} and {@code dst}
 * plus these properties. Edge names are unique ignoring case, so a query may spell {@code Knows} as
 * {@code knows} ({@link Catalog#edge(String)}).
 *
 * @param name the type name as declared
 * @param from the source node type
 * @param to the target node type
 * @param cardinality {@code @card}, {@link Cardinality#UNBOUNDED} when absent
 * @param properties sorted by name
 * @param uniques {@code @unique} column sets, each sorted; may name {@code src} and {@code dst}
 * @param indexes {@code @index} column lists in declared order; may name {@code src} and {@code dst}
 * @param annotations uninterpreted type-level annotations
 */
public record EdgeType(
    String name,
    String from,
    String to,
    Cardinality cardinality,
    List<Property> properties,
    List<List<String>> uniques,
    List<List<String>> indexes,
    List<Annotation> annotations) {

  public EdgeType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(cardinality, "cardinality");
    properties = List.copyOf(properties);
    uniques = Catalog.copyNested(uniques);
    indexes = Catalog.copyNested(indexes);
    annotations = List.copyOf(annotations);
  }

  /** {@code edge:Name}: the manifest's table key for this type. */
  public TableKey tableKey() {
    return TableKey.edge(name);
  }

  /** The property with this exact name. */
  public Optional<Property> property(String propertyName) {
    return properties.stream().filter(p -> p.name().equals(propertyName)).findFirst();
  }
}
