package dev.omnigraph.api.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a writer lease lives without a renewal, and how often its holder renews it.
 *
 * <p>The TTL bounds how long a dead holder on another host keeps the graph unwritable (a holder on
 * the same host and pid namespace is taken over at once, see {@code lease.ProcessLiveness}), and it must
 * exceed the clock skew between hosts plus the longest pause of a holder (see docs/lease.md).
 * Renewing every third of it survives two failed renewals in a row.
 *
 * @param ttl how long the lease stays live after a renewal
 * @param renewEvery the interval between renewals; less than {@code ttl}
 */
public record LeaseSettings(Duration ttl, Duration renewEvery) {

  /** The default TTL: 30 s. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  public LeaseSettings {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewEvery, "renewEvery");
    if (ttl.toMillis() <= 0 || renewEvery.toMillis() <= 0 || renewEvery.compareTo(ttl) >= 0) {
      throw new IllegalArgumentException("lease renewal interval " + renewEvery + " must be positive and below its"
          + " ttl " + ttl);
    }
  }

  /** A TTL renewed every third of it. */
  public static LeaseSettings ofTtl(Duration ttl) {
    return new LeaseSettings(ttl, ttl.dividedBy(3));
  }

  /**
   * From the system properties {@code omnigraph.lease.ttl} and {@code omnigraph.lease.renew-every}
   * (durations such as {@code 30s}, {@code 500ms}, {@code 2m} or ISO-8601 {@code PT30S}); the
   * defaults are a 30 s TTL renewed every third of it.
   *
   * @throws IllegalArgumentException for a malformed duration, naming the property
   */
  public static LeaseSettings fromSystemProperties() {
    Duration ttl = parse("omnigraph.lease.ttl", System.getProperty("omnigraph.lease.ttl"), DEFAULT_TTL);
    String renew = System.getProperty("omnigraph.lease.renew-every");
    return renew == null ? ofTtl(ttl) : new LeaseSettings(ttl, parse("omnigraph.lease.renew-every", renew, null));
  }

  /** Parses {@code 250ms}, {@code 30s}, {@code 2m}, {@code 1h} or ISO-8601; {@code fallback} when blank. */
  public static Duration parse(String name, String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    try {
      if (t.startsWith("pt") || t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(java.util.Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      switch (t.charAt(t.length() - 1)) {
        case 's':
          return Duration.ofSeconds(n);
        case 'm':
          return Duration.ofMinutes(n);
        case 'h':
          return Duration.ofHours(n);
        default:
          break;
      }
    } catch (RuntimeException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException(name + ": not a duration: '" + text + "' (use e.g. 30s, 500ms, 2m or PT30S)");
  }
}
