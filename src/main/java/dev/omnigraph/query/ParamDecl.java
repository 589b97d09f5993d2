package dev.omnigraph.query;

import dev.omnigraph.schema.PropertyType;
import java.util.Objects;

/**
 * A declared query parameter, {@code $name: T} or {@code $name: T?}.
 *
 * @param name the name without its {@code $}
 * @param type a scalar, list or vector type; {@link PropertyType#nullable()} is true for {@code T?},
 *     which makes the parameter optional (absent or JSON null binds to null). Never an enum.
 */
public record ParamDecl(String name, PropertyType type) {

  public ParamDecl {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** True for {@code T?}: the caller may leave the parameter out. */
  public boolean optional() {
    return type.nullable();
  }
}
