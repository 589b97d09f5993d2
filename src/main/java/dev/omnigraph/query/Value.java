package dev.omnigraph.query;

import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.Objects;

/**
 * A value known per invocation: a literal, a parameter, or {@code now()}. What inserts assign, what
 * binding constraints and mutation predicates compare against.
 */
public sealed interface Value extends Operand permits Value.Literal, Value.Param, Value.Now {

  /**
   * A literal converted to the Java type of {@link #type()}: String (also for enums), Boolean, Integer
   * (I32), Long (I64, U32, U64 up to 2^63-1), BigInteger (U64 above), Float (F32), Double (F64), LocalDate (Date), Instant (DateTime), an
   * unmodifiable List of those (lists), float[] (vectors), or null for {@code null}. The same
   * representation {@link Params#bind} produces, so executors handle one set of types.
   *
   * <p>In a read comparison the type is the compared property's when the literal is exactly
   * representable in it, otherwise the literal's own (I64 or F64): numeric comparisons are by value.
   *
   * @param value the converted value; a float[] is shared, do not modify it
   * @param type the type it was converted to
   */
  record Literal(Object value, PropertyType type) implements Value {
    public Literal {
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * {@code $name}: a declared parameter, bound at run time by {@link Params#bind}.
   *
   * @param name the name without its {@code $}
   * @param type the declared type ({@code nullable} when the parameter is optional)
   */
  record Param(String name, PropertyType type) implements Value {
    public Param {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }

  /** {@code now()}: the invocation's timestamp, one instant for every use within one query run. */
  record Now() implements Value {
    private static final PropertyType TYPE = PropertyType.scalar(ScalarKind.DATETIME, false);

    @Override
    public PropertyType type() {
      return TYPE;
    }
  }
}
