package dev.omnigraph.api;

/**
 * A request body over the route's byte limit (reference: 1 MiB for JSON bodies), refused from its
 * {@code Content-Length} before any byte is read. 413 {@code bad_request}, no detail, as the reference
 * answers its own body-limit rejection.
 */
public final class BodyTooLarge extends OmnigraphException {

  private final long limit;
  private final long actual;

  public BodyTooLarge(long limit, long actual) {
    super("request body is " + actual + " bytes, over the limit of " + limit + " bytes for this route");
    this.limit = limit;
    this.actual = actual;
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
