package dev.omnigraph.schema;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * {@code @range(p, min..max)}: the numeric property {@code p} must lie within the closed interval.
 * Either bound may be open (null), not both. Bounds are exact decimals with trailing zeros stripped,
 * so {@code 1.50} and {@code 1.5} are the same constraint.
 *
 * @param property the constrained property
 * @param min inclusive lower bound, or null
 * @param max inclusive upper bound, or null
 */
public record RangeConstraint(String property, BigDecimal min, BigDecimal max) {

  public RangeConstraint {
    Objects.requireNonNull(property, "property");
    if (min == null && max == null) {
      throw new IllegalArgumentException("a range needs at least one bound");
    }
    min = min == null ? null : min.stripTrailingZeros();
    max = max == null ? null : max.stripTrailingZeros();
    if (min != null && max != null && min.compareTo(max) > 0) {
      throw new IllegalArgumentException("range min exceeds max");
    }
  }
}
