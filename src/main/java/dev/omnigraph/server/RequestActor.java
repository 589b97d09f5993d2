package dev.omnigraph.server;

import jakarta.enterprise.context.RequestScoped;
import java.util.Optional;

/**
 * The actor of the current request, resolved server-side from its bearer token by
 * {@link AuthFilter}; empty when the server runs without tokens. Recorded in the commit lineage;
 * nothing in a request body can set it.
 */
@RequestScoped
class RequestActor {

  private Optional<String> actor = Optional.empty();

  Optional<String> get() {
    return actor;
  }

  void set(String actorId) {
    this.actor = Optional.of(actorId);
  }
}
