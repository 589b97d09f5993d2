package dev.omnigraph.api.lease;

import java.util.Optional;
import java.time.Instant;

/**
 * The lease as its holder sees it.
 *
 * @param held whether this process may write now ({@code WriterLease.holds()})
 * @param ownerId this process's owner id
 * @param acquiredAt when this process acquired it
 * @param renewedAt when it was last renewed
 * @param expiresAt when it expires unless renewed
 * @param lost why it was lost, when known
 * @param lastRenewalFailure the last renewal's storage failure, when the last renewal failed
 */
public record LeaseStatus(boolean held, String ownerId, Instant acquiredAt, Instant renewedAt, Instant expiresAt,
    Optional<String> lost, Optional<String> lastRenewalFailure) {}
