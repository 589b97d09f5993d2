package dev.omnigraph.query;

/**
 * A checked comparison operator. The parser's {@code contains} is resolved by the left operand's type
 * so executors never re-derive it; {@code = null} and {@code != null} become the null tests.
 */
public enum CompareOp {
  /** Equality; both sides non-null (a null side never matches). */
  EQ("="),
  NE("!="),
  LT("<"),
  LE("<="),
  GT(">"),
  GE(">="),
  /** The left operand, a list, has the right operand as an element. */
  LIST_CONTAINS("contains"),
  /** The left operand, a String, contains the right one as an exact, case-sensitive substring. */
  STRING_CONTAINS("contains"),
  /** The left operand, a String, starts with the right one, exact and case-sensitive. */
  STARTS_WITH("starts_with"),
  /** The left operand is null; the right operand is the null literal. */
  IS_NULL("= null"),
  /** The left operand is not null; the right operand is the null literal. */
  IS_NOT_NULL("!= null");

  private final String spelling;

  CompareOp(String spelling) {
    this.spelling = spelling;
  }

  /** How the operator is written in a query. */
  public String spelling() {
    return spelling;
  }
}
