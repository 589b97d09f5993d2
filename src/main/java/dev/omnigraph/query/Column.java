package dev.omnigraph.query;

import dev.omnigraph.schema.PropertyType;
import java.util.Objects;

/** A checked {@code return} column, in return order. Column names are unique within a query. */
public sealed interface Column permits Column.Projection, Column.Aggregate, Column.Constant, Column.Scored {

  /** The output column name: the alias, or {@code p.name} for {@code $p.name}. */
  String name();

  /** The type of the column's values. */
  PropertyType type();

  /**
   * {@code $p.name [as alias]}. In an aggregating query every projection is a group key.
   */
  record Projection(String name, Operand.Property property) implements Column {
    public Projection {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(property, "property");
    }

    @Override
    public PropertyType type() {
      return property.type();
    }
  }

  /**
   * A value known per invocation ({@code $param}, a literal, {@code now()}), the same on every row;
   * in an aggregating query it is neither a group key nor an aggregate, and repeats on every group.
   * Unaliased, a literal's column is named {@code literal}, a parameter's after it, now()'s {@code now}.
   */
  record Constant(String name, Value value) implements Column {
    public Constant {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public PropertyType type() {
      return value.type();
    }
  }

  /**
   * {@code func($p)} or {@code func($p.prop)} per group. {@code count($p)} counts bound rows,
   * {@code count($p.prop)} non-null values; {@code sum} and {@code avg} take a numeric property and give
   * F64; {@code min} and {@code max} take an orderable scalar and give its type. Nulls are skipped;
   * every aggregate but {@code count} is null over no values.
   *
   * @param variable the aggregated variable
   * @param property the aggregated property, or null for {@code count($p)}
   */
  record Aggregate(String name, AggFunc function, boolean distinct, String variable, Operand.Property property,
      PropertyType type) implements Column {

    /** An aggregate over every value (no {@code distinct}). */
    public Aggregate(String name, AggFunc function, String variable, Operand.Property property, PropertyType type) {
      this(name, function, false, variable, property, type);
    }

    public Aggregate {
      if (distinct && function != AggFunc.COUNT) {
        throw new IllegalArgumentException("distinct is only for count");
      }
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(type, "type");
      if (property == null && function != AggFunc.COUNT) {
        throw new IllegalArgumentException(function.spelling() + " needs a property");
      }
    }
  }

  /**
   * A search score ({@code nearest}, {@code bm25}, {@code rrf}) of each row's node, F64 (null where
   * the score has no value, see {@link Score}). Unaliased, the column is named after the function.
   */
  record Scored(String name, Score score) implements Column {
    private static final PropertyType TYPE = PropertyType.scalar(dev.omnigraph.schema.ScalarKind.F64, true);

    public Scored {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
    }

    @Override
    public PropertyType type() {
      return TYPE;
    }
  }
}
