package dev.omnigraph.schema;

/**
 * An edge type's {@code @card(min..max)}: how many edges of the type one source node may have.
 * The default, without {@code @card}, is {@code 0..} (no bound).
 *
 * @param min the lower bound, 0 to 2<sup>32</sup>-1
 * @param max the upper bound (at least {@code min}), or null when unbounded
 */
public record Cardinality(long min, Long max) {

  /** Maximum value of either bound: the reference stores bounds as u32. */
  public static final long LIMIT = 0xFFFF_FFFFL;

  /** {@code 0..}: what an edge without {@code @card} gets. */
  public static final Cardinality UNBOUNDED = new Cardinality(0, null);

  public Cardinality {
    if (min < 0 || min > LIMIT || (max != null && (max < min || max > LIMIT))) {
      throw new IllegalArgumentException("invalid cardinality " + min + ".." + max);
    }
  }

  @Override
  public String toString() {
    return min + ".." + (max == null ? "" : max);
  }
}
