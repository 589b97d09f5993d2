package dev.omnigraph.api;

import java.util.Objects;
import java.util.Optional;

/**
 * This service instance does not take writes for the graph right now, for a reason the client can
 * act on (docs/lease.md): it is a standby waiting for the writer lease another process holds, it lost
 * the lease, it is draining for shutdown, or it is a read replica. Nothing was changed. HTTP 503,
 * with {@code Retry-After} when retrying the same address can succeed (standby, lost, draining);
 * CLI exit 3.
 */
public final class WriterUnavailable extends OmnigraphException {

  /** Why writes are refused. */
  public enum Reason {
    /** Another process holds the writer lease; this one takes over when it expires or is released. */
    STANDBY,
    /** This process lost the writer lease; it takes it again (and recovers) when it is free. */
    LEASE_LOST,
    /** The service is shutting down: in-flight writes finish, new ones go to the next writer. */
    DRAINING,
    /** A read replica ({@code omnigraph.mode=read-only}) never writes: send writes to the writer. */
    READ_REPLICA
  }

  private final Reason reason;
  private final Optional<Long> retryAfterSeconds;

  /**
   * @param retryAfterSeconds when to retry, for the {@code Retry-After} header; empty when retrying
   *     here cannot help ({@link Reason#READ_REPLICA})
   */
  public WriterUnavailable(Reason reason, String message, Optional<Long> retryAfterSeconds) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.retryAfterSeconds = Objects.requireNonNull(retryAfterSeconds, "retryAfterSeconds");
  }

  /** Why writes are refused. */
  public Reason reason() {
    return reason;
  }

  /** Seconds after which a retry at this address may succeed, when it may. */
  public Optional<Long> retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String code() {
    return "internal";
  }
}
