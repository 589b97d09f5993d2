package dev.omnigraph.lease;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.LeaseHeld;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * A child JVM that races for a writer lease: {@code LeaseRaceChild <root URI> <owner id>} opens the
 * root (S3 settings from its environment), prints {@code READY}, waits for a line on stdin, acquires,
 * and prints {@code HELD <owner>} or {@code REFUSED <holder>}, then exits without releasing.
 */
public final class LeaseRaceChild {

  private LeaseRaceChild() {}

  public static void main(String[] args) throws Exception {
    StorageConfig config = StorageConfig.fromEnvironment(args[0]);
    try (StorageAdapter store = StorageAdapters.open(config)) {
      LeaseManager leases = new LeaseManager(store, Clock.systemUTC());
      LeaseOwner me = new LeaseOwner(args[1], "child", ProcessHandle.current().pid());
      System.out.println("READY");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      try {
        leases.acquire(me, Duration.ofMinutes(5));
        System.out.println("HELD " + me.ownerId());
      } catch (LeaseHeld e) {
        System.out.println("REFUSED " + e.owner());
      } catch (Conflict e) {
        System.out.println("REFUSED (changed hands)");
      }
      System.out.flush();
    }
  }
}
