package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code GET /graphs/{id}/lease} (ours; the reference has no lease): this service's role for the
 * graph's writer lease and the stored lease as read now, for the console's health view and
 * operators. Authenticated like every {@code /graphs} route, since it names a host and a pid.
 *
 * @param role {@code writer}, {@code standby}, {@code lease_lost}, {@code draining},
 *     {@code read_only} (a replica never takes the lease) or {@code unclaimed} (the graph is not
 *     open yet; the first open or write takes it)
 * @param live whether a stored lease exists and has not expired
 * @param unreadable why the stored lease could not be read, when it could not
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LeaseOutput(
    @JsonProperty("graph_id") String graphId,
    @JsonProperty("role") String role,
    @JsonProperty("live") boolean live,
    @JsonProperty("holder") Holder holder,
    @JsonProperty("acquired_at_micros") Long acquiredAtMicros,
    @JsonProperty("renewed_at_micros") Long renewedAtMicros,
    @JsonProperty("expires_at_micros") Long expiresAtMicros,
    @JsonProperty("unreadable") String unreadable) {

  /** The process named in the stored lease. */
  public record Holder(
      @JsonProperty("owner_id") String ownerId,
      @JsonProperty("host") String host,
      @JsonProperty("pid") long pid) {}
}
