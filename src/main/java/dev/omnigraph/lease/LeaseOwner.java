package dev.omnigraph.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.UUID;

/**
 * Who holds (or wants) a writer lease: a unique owner id, plus the host and process id an operator
 * needs to find the holder. The owner id alone decides identity; host and pid are for people.
 *
 * @param ownerId unique per lease-holding process instance (a restarted process is a new owner)
 * @param host the holder's host name
 * @param pid the holder's process id on {@code host}
 */
public record LeaseOwner(String ownerId, String host, long pid) {

  public LeaseOwner {
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(host, "host");
    if (ownerId.isBlank()) {
      throw new IllegalArgumentException("owner id must not be blank");
    }
  }

  /** This process, with a fresh random owner id. */
  public static LeaseOwner ofThisProcess() {
    return new LeaseOwner(UUID.randomUUID().toString(), hostName(), ProcessHandle.current().pid());
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
