package dev.omnigraph.api.lease;

/**
 * A share of this process's writer lease on one root, as a front end holds it (the service holds
 * one from start to close, so the lease does not depend on a handle being open). Closing the
 * process's last claim on the root releases the lease.
 */
public interface LeaseClaim extends AutoCloseable {

  /** The lease as this process sees it now. */
  LeaseStatus status();

  @Override
  void close();
}
