package dev.omnigraph.server;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

/**
 * The authorization snapshot one request decides against: the gates in force when the request made
 * its first decision, kept to its end. A policy reload while the request runs swaps
 * {@link Authorization}'s snapshot for the requests that start after it; this one's checks (the
 * server's and, through a handle pinned to the same gate, the engine's) all see one policy.
 */
@RequestScoped
class RequestGates {

  @Inject Authorization authorization;

  private Authorization.Gates pinned;

  /** The snapshot of this request, taken at its first call. */
  Authorization.Gates pinned() {
    if (pinned == null) {
      pinned = authorization.current();
    }
    return pinned;
  }
}
