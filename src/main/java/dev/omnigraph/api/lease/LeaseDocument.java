package dev.omnigraph.api.lease;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The content of {@code __lease.json}, one version of the graph's writer lease. Immutable: a renewal
 * writes a new document with a later {@link #renewedAtMicros()}, which also makes every version's
 * bytes (and so its version token) unique per owner and instant.
 *
 * <p>The lease is live until {@code renewed_at + ttl}; after that anyone may take it over. Times are
 * the holder's wall clock in microseconds since the epoch, compared with the reader's wall clock:
 * the TTL must exceed the clock skew between hosts plus the holder's longest pause.
 *
 * @param formatVersion {@link #FORMAT_VERSION}; a reader refuses any other
 * @param ownerId the holder's unique owner id
 * @param host the holder's host name
 * @param pid the holder's process id
 * @param acquiredAtMicros when this owner acquired the lease
 * @param renewedAtMicros when this owner last renewed it (= acquired at first)
 * @param ttlMs how long after {@code renewedAtMicros} the lease stays live without a renewal
 * @param pidNamespace the holder's pid namespace, empty when unknown (optional field, format 1)
 * @param processStartMicros when the holder process started, 0 when unknown (optional field, format 1)
 */
public record LeaseDocument(int formatVersion, String ownerId, String host, long pid, long acquiredAtMicros,
    long renewedAtMicros, long ttlMs, String pidNamespace, long processStartMicros) {

  /** The only format this build reads and writes. */
  public static final int FORMAT_VERSION = 1;

  /** The lease document's key under the graph root. */
  public static final String KEY = "__lease.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  public LeaseDocument {
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(pidNamespace, "pidNamespace");
    if (ttlMs <= 0) {
      throw new IllegalArgumentException("ttl must be positive: " + ttlMs);
    }
  }

  /** A document without the holder's process identity (only its TTL frees it). */
  public LeaseDocument(int formatVersion, String ownerId, String host, long pid, long acquiredAtMicros,
      long renewedAtMicros, long ttlMs) {
    this(formatVersion, ownerId, host, pid, acquiredAtMicros, renewedAtMicros, ttlMs, "", 0);
  }

  /** The next version: the same holder, renewed at {@code nowMicros}. */
  public LeaseDocument renewedAt(long nowMicros) {
    return new LeaseDocument(formatVersion, ownerId, host, pid, acquiredAtMicros, nowMicros, ttlMs, pidNamespace,
        processStartMicros);
  }

  /** When this owner acquired the lease. */
  public Instant acquiredAt() {
    return instant(acquiredAtMicros);
  }

  /** When this owner last renewed it. */
  public Instant renewedAt() {
    return instant(renewedAtMicros);
  }

  /** The instant after which the lease is expired: {@code renewed_at + ttl}. */
  public Instant expiresAt() {
    return instant(expiresAtMicros());
  }

  long expiresAtMicros() {
    return renewedAtMicros + ttlMs * 1000;
  }

  /** Expired at {@code nowMicros}: strictly past {@code renewed_at + ttl}. */
  public boolean expiredAt(long nowMicros) {
    return expiresAtMicros() < nowMicros;
  }

  /** The stored form, with a fixed field order. */
  public byte[] toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("format_version", formatVersion);
    n.put("owner_id", ownerId);
    n.put("host", host);
    n.put("pid", pid);
    n.put("acquired_at_micros", acquiredAtMicros);
    n.put("renewed_at_micros", renewedAtMicros);
    n.put("ttl_ms", ttlMs);
    if (!pidNamespace.isEmpty()) {
      n.put("pid_namespace", pidNamespace);
    }
    if (processStartMicros != 0) {
      n.put("process_start_micros", processStartMicros);
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n).getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("a lease document always serializes", e);
    }
  }

  /**
   * Parses a stored lease.
   *
   * @throws IllegalArgumentException when the bytes are not a lease document of {@link #FORMAT_VERSION},
   *     with the reason in words
   */
  public static LeaseDocument parse(byte[] data) {
    JsonNode n;
    try {
      n = JSON.readTree(data);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON (" + e.getOriginalMessage() + ")", e);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON", e);
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    JsonNode version = n.get("format_version");
    if (version == null || !version.canConvertToInt()) {
      throw new IllegalArgumentException("no format_version");
    }
    if (version.intValue() != FORMAT_VERSION) {
      throw new IllegalArgumentException("format_version " + version.intValue() + " (this build reads "
          + FORMAT_VERSION + (version.intValue() > FORMAT_VERSION ? "; written by a newer omnigraph)" : ")"));
    }
    try {
      return new LeaseDocument(FORMAT_VERSION, text(n, "owner_id"), text(n, "host"), number(n, "pid"),
          number(n, "acquired_at_micros"), number(n, "renewed_at_micros"), number(n, "ttl_ms"),
          n.hasNonNull("pid_namespace") ? text(n, "pid_namespace") : "",
          n.hasNonNull("process_start_micros") ? number(n, "process_start_micros") : 0);
    } catch (NullPointerException e) {
      throw new IllegalArgumentException("a field is null", e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("missing or non-text " + field);
    }
    return v.asText();
  }

  private static long number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
      throw new IllegalArgumentException("missing or non-integer " + field);
    }
    return v.longValue();
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
