package dev.omnigraph.manifest;

/**
 * Lance kept rejecting the manifest commit although the graph head did not move (row-level
 * contention unrelated to this branch's authority), more often than the publisher's retry limit.
 */
public final class PublishContention extends RuntimeException {

  private final int attempts;

  public PublishContention(int attempts, Throwable last) {
    super("manifest publish rejected " + attempts + " times without a head change", last);
    this.attempts = attempts;
  }

  public int attempts() {
    return attempts;
  }
}
