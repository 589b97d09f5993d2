package dev.omnigraph.query;

/** The aggregates a {@code return} clause may apply; see {@link Column.Aggregate} for their result types. */
public enum AggFunc {
  COUNT("count"),
  SUM("sum"),
  AVG("avg"),
  MIN("min"),
  MAX("max");

  private final String spelling;

  AggFunc(String spelling) {
    this.spelling = spelling;
  }

  /** The keyword as written in a query. */
  public String spelling() {
    return spelling;
  }
}
