package dev.omnigraph.api;

/**
 * A read query was stopped by one of its budgets (docs/query-language.md, "Read budgets"): it
 * produced more intermediate rows or bytes than allowed, or ran longer than the timeout. Nothing
 * was written and nothing is held; narrow the query (filters, a smaller traversal) or raise the
 * limit in the configuration the message names.
 */
public final class ReadBudgetExceeded extends OmnigraphException {

  /** Which budget ran out; {@link #wireName()} is the {@code resource} of the error body. */
  public enum Budget {
    /** Binding rows produced (scanned candidates, joins, expansions), summed over the query. */
    INTERMEDIATE_ROWS("intermediate_rows", "omnigraph.read.max-intermediate-rows"),
    /** Estimated bytes of the binding rows produced, summed over the query. */
    INTERMEDIATE_BYTES("intermediate_bytes", "omnigraph.read.max-intermediate-bytes"),
    /** Wall-clock milliseconds since the read started. */
    TIMEOUT_MS("timeout_ms", "omnigraph.read.timeout-ms");

    private final String wireName;
    private final String setting;

    Budget(String wireName, String setting) {
      this.wireName = wireName;
      this.setting = setting;
    }

    /** The name in the error body, e.g. {@code intermediate_rows}. */
    public String wireName() {
      return wireName;
    }

    /** The configuration key (and system property) that sets the limit. */
    public String setting() {
      return setting;
    }
  }

  private final Budget budget;
  private final long limit;
  private final long actual;

  /**
   * @param budget the budget that ran out
   * @param limit its configured limit
   * @param actual the amount reached when the read stopped (above {@code limit})
   */
  public ReadBudgetExceeded(Budget budget, long limit, long actual) {
    super("read budget exceeded: " + budget.wireName() + " reached " + actual + ", limit " + limit + " ("
        + budget.setting() + "); narrow the query or raise the limit");
    this.budget = budget;
    this.limit = limit;
    this.actual = actual;
  }

  public Budget budget() {
    return budget;
  }

  public long limit() {
    return limit;
  }

  public long actual() {
    return actual;
  }

  @Override
  public String code() {
    return "bad_request";
  }
}
