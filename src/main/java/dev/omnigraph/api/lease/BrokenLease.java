package dev.omnigraph.api.lease;

import java.util.Optional;

/**
 * What breaking the writer lease ({@code omnigraph lease break}) removed.
 *
 * @param view the lease as read, when it was readable
 * @param content the stored text
 */
public record BrokenLease(Optional<LeaseView> view, String content) {}
