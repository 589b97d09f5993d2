package dev.omnigraph.api;

/**
 * Retained history no longer holds what a change read needs (reference {@code ChangeFeedGapOutput},
 * HTTP 410): {@code cleanup} reclaimed a table version the commit or its parent pins. Retrying
 * cannot succeed.
 */
public final class ChangeFeedGap extends OmnigraphException {

  private final String firstUnreadableCommitId;

  public ChangeFeedGap(String firstUnreadableCommitId, String message) {
    super(message);
    this.firstUnreadableCommitId = firstUnreadableCommitId;
  }

  public String firstUnreadableCommitId() {
    return firstUnreadableCommitId;
  }

  /** None: the reference's {@code ErrorCode} is closed, and {@code change_feed_gap} is the discriminator. */
  @Override
  public String code() {
    return null;
  }
}
