package dev.omnigraph.api;

/**
 * This process no longer holds the graph's writer lease it acquired: a renewal found the lease
 * object changed (another process took it over after it expired, or an operator broke it), or the
 * lease expired before it could be renewed. The holder must stop writing. Raised before a write's
 * first durable effect, nothing was changed; after one, the write's outcome is
 * {@link RecoveryRequired} instead, as for any post-effect failure. A {@link Conflict}: HTTP 409,
 * CLI exit 3.
 */
public final class LeaseLost extends Conflict {

  private final String owner;

  /**
   * @param owner the owner id whose lease was lost
   * @param why what showed it, in words (e.g. {@code the lease is now held by X}, {@code expired at T})
   */
  public LeaseLost(String owner, String why) {
    super("writer lease of " + owner + " lost: " + why + "; stop writing and reacquire");
    this.owner = owner;
  }

  /** The owner id whose lease was lost. */
  public String owner() {
    return owner;
  }
}
