package dev.omnigraph.api;

/**
 * A keyed write exceeded a bounded physical plan (8,192 rows or 32 MiB per table transaction).
 * Raised before any sidecar or effect; split the write into smaller commits.
 */
public final class ResourceLimitExceeded extends OmnigraphException {

  private final String resource;
  private final long limit;
  private final long actual;

  public ResourceLimitExceeded(String resource, long limit, long actual) {
    this(resource, limit, actual, "split the write into smaller commits");
  }

  /** A limit other than a write's plan (a request body, concurrent streams): {@code hint} says what to do. */
  public ResourceLimitExceeded(String resource, long limit, long actual, String hint) {
    super("resource limit exceeded: " + resource + " is " + actual + ", limit " + limit + "; " + hint);
    this.resource = resource;
    this.limit = limit;
    this.actual = actual;
  }

  public String resource() {
    return resource;
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
