package dev.omnigraph.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.UUID;

/**
 * Who holds (or wants) a writer lease: a unique owner id, plus the host and process id an operator
 * needs to find the holder. The owner id alone decides identity; host and pid are for people.
 *
 * <p>{@code pidNamespace} and {@code startedAtMicros} let a process on the same host and in the same
 * pid namespace prove a holder dead without waiting for its TTL ({@link ProcessLiveness}); they are
 * empty/0 when unknown, and then only the TTL frees the lease.
 *
 * @param ownerId unique per lease-holding process instance (a restarted process is a new owner)
 * @param host the holder's host name
 * @param pid the holder's process id on {@code host}
 * @param pidNamespace the holder's pid namespace ({@code /proc/self/ns/pid}), empty when unknown
 * @param startedAtMicros when the holder process started, 0 when unknown
 */
public record LeaseOwner(String ownerId, String host, long pid, String pidNamespace, long startedAtMicros) {

  public LeaseOwner {
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(pidNamespace, "pidNamespace");
    if (ownerId.isBlank()) {
      throw new IllegalArgumentException("owner id must not be blank");
    }
  }

  /** An owner whose process identity is unknown: only its TTL frees its lease. */
  public LeaseOwner(String ownerId, String host, long pid) {
    this(ownerId, host, pid, "", 0);
  }

  /** This process, with a fresh random owner id. */
  public static LeaseOwner ofThisProcess() {
    ProcessHandle self = ProcessHandle.current();
    return new LeaseOwner(UUID.randomUUID().toString(), hostName(), self.pid(), ProcessLiveness.pidNamespace(),
        ProcessLiveness.startedAtMicros(self));
  }

  private static String hostName() {
    String fromEnv = System.getenv("HOSTNAME"); // the pod name on Kubernetes
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
