package dev.omnigraph.server;

import dev.omnigraph.storage.StorageException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the graph root answers a listing of {@code __recovery/}. It also reports the pending
 * recovery sidecars it saw; the service issue turns this DOWN while a write-blocking one is pending.
 */
@Readiness
@ApplicationScoped
public class StorageReadinessCheck implements HealthCheck {

  @Inject ServerStorage storage;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder b = HealthCheckResponse.named("graph-storage")
        .withData("root", storage.config().rootUri());
    try {
      List<String> pending = storage.adapter().list("__recovery");
      return b.up().withData("pending_recovery_sidecars", pending.size()).build();
    } catch (StorageException e) {
      return b.down().withData("error_kind", e.kind().name()).withData("error", e.getMessage()).build();
    }
  }
}
