package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.omnigraph.Versions;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /healthz}: the reference liveness shape ({@code HealthOutput}), unauthenticated.
 * {@code version} is the API version served ({@link Versions#API_VERSION}, what clients check),
 * {@code source_version} our own build ({@link Versions#buildVersion()}).
 */
@Path("/healthz")
@Tag(name = "health")
public class HealthzResource {

  /** Reference {@code HealthOutput}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record HealthOutput(
      String status,
      String version,
      @JsonProperty("internal_schema_version") int internalSchemaVersion,
      @JsonProperty("source_version") String sourceVersion) {}

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  @Operation(operationId = "health", summary = "Liveness probe.")
  public HealthOutput health() {
    return new HealthOutput("ok", Versions.API_VERSION, Versions.INTERNAL_SCHEMA_VERSION, Versions.buildVersion());
  }
}
