package dev.omnigraph.query;

import dev.omnigraph.schema.PropertyType;
import java.util.Objects;

/** One side of a checked comparison: a property of a bound variable, or a {@link Value}. */
public sealed interface Operand permits Operand.Property, Value {

  /** The operand's type; for a {@link Value.Literal} the type it was converted to. */
  PropertyType type();

  /**
   * {@code $variable.property}.
   *
   * @param variable the variable without its {@code $}
   * @param property the column: a declared property, or {@code id}, the system id (String, never null)
   * @param type the property's declared type
   */
  record Property(String variable, String property, PropertyType type) implements Operand {
    public Property {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(type, "type");
    }

    /** True for the system {@code id} column rather than a declared property. */
    public boolean isId() {
      return property.equals("id");
    }

    /** The default column name of a projection, {@code p.name}. */
    public String columnName() {
      return variable + "." + property;
    }
  }
}
