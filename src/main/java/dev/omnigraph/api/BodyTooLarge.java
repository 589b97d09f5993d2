package dev.omnigraph.api;

/**
 * A request body over the route's byte limit (reference: 1 MiB for JSON bodies): refused from its
 * {@code Content-Length} before any byte is read, or, for a body sent without a length (chunked), as
 * soon as the bytes read pass the limit. 413 {@code bad_request}, no detail, as the reference answers
 * its own body-limit rejection.
 */
public final class BodyTooLarge extends OmnigraphException {

  private final long limit;
  private final long actual;

  /** A body whose declared length {@code actual} is over {@code limit}. */
  public BodyTooLarge(long limit, long actual) {
    this(limit, actual, "request body is " + actual + " bytes, over the limit of " + limit + " bytes for this route");
  }

  private BodyTooLarge(long limit, long actual, String message) {
    super(message);
    this.limit = limit;
    this.actual = actual;
  }

  /**
   * A body sent without a length, refused once {@code read} bytes of it (more than {@code limit})
   * had arrived: its whole length is never known, because the rest is never read.
   */
  public static BodyTooLarge whileReading(long limit, long read) {
    return new BodyTooLarge(limit, read, "request body is over the limit of " + limit
        + " bytes for this route (refused after reading " + read + " bytes of it)");
  }

  public long limit() {
    return limit;
  }

  /** The declared length, or the bytes read before the refusal of a body sent without one. */
  public long actual() {
    return actual;
  }

  @Override
  public String code() {
    return "bad_request";
  }
}
