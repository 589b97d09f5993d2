package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node type: one Lance dataset whose rows have a non-null {@code id} plus these properties.
 *
 * <p>Lists are in canonical order so that two schemas with the same meaning compare equal:
 * properties by name, constraint lists sorted. The key is the exception: its order is the order of
 * the {@code @key(a, b)} list, because it fixes the spelling of every composite id ({@link KeyIds}).
 *
 * @param name the type name
 * @param interfaces the interfaces it implements, sorted
 * @param properties its own and its interfaces' properties, sorted by name
 * @param key the key properties in tuple order; empty for an unkeyed type (generated ids)
 * @param uniques {@code @unique} column sets, each sorted
 * @param indexes {@code @index} column lists, each in declared order
 * @param ranges {@code @range} constraints, one per property at most
 * @param checks {@code @check} constraints
 * @param annotations uninterpreted type-level annotations
 */
public record NodeType(
    String name,
    List<String> interfaces,
    List<Property> properties,
    List<String> key,
    List<List<String>> uniques,
    List<List<String>> indexes,
    List<RangeConstraint> ranges,
    List<CheckConstraint> checks,
    List<Annotation> annotations) {

  public NodeType {
    Objects.requireNonNull(name, "name");
    interfaces = List.copyOf(interfaces);
    properties = List.copyOf(properties);
    key = List.copyOf(key);
    uniques = Catalog.copyNested(uniques);
    indexes = Catalog.copyNested(indexes);
    ranges = List.copyOf(ranges);
    checks = List.copyOf(checks);
    annotations = List.copyOf(annotations);
  }

  /** {@code node:Name}: the manifest's table key for this type. */
  public TableKey tableKey() {
    return TableKey.node(name);
  }

  /** True when ids derive from the {@code @key} tuple rather than being generated. */
  public boolean isKeyed() {
    return !key.isEmpty();
  }

  /** The property with this exact name. */
  public Optional<Property> property(String propertyName) {
    return properties.stream().filter(p -> p.name().equals(propertyName)).findFirst();
  }
}
