package dev.omnigraph.api.lease;

import java.time.Instant;

/**
 * The graph's writer lease as one read saw it, judged by the reader's clock.
 *
 * @param document the stored lease
 * @param versionToken the storage version token of that read
 * @param expired whether {@code renewed_at + ttl} had passed at {@code readAt}
 * @param readAt the reader's clock when judged
 */
public record LeaseView(LeaseDocument document, String versionToken, boolean expired, Instant readAt) {

  /** When the lease expires (or expired) unless renewed. */
  public Instant expiresAt() {
    return document.expiresAt();
  }
}
