package dev.omnigraph.api;

/**
 * The caller already has as many requests in flight as its admission limit allows (docs/authorization.md: the
 * reference's per-actor admission cap); this one was refused before anything ran. HTTP 429
 * {@code too_many_requests} with {@code Retry-After}; CLI exit 3 (retrying later can succeed).
 */
public final class TooManyRequests extends OmnigraphException {

  private final int limit;
  private final long retryAfterSeconds;

  public TooManyRequests(String message, int limit, long retryAfterSeconds) {
    super(message);
    this.limit = limit;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The concurrent requests the caller may have in flight. */
  public int limit() {
    return limit;
  }

  /** Seconds after which a retry may be admitted, for the {@code Retry-After} header. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String code() {
    return "too_many_requests";
  }
}
