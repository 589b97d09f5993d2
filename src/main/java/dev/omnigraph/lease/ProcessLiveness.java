package dev.omnigraph.lease;

import dev.omnigraph.api.lease.LeaseDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Whether a lease holder is provably dead, judged from this process without waiting for its TTL.
 *
 * <p>Only a holder on our host <em>and</em> in our pid namespace can be judged: there a pid names
 * the same process for both of us. It is dead when no process has its pid, or the process with its
 * pid started at another instant (the pid was reused). Anything we cannot judge (another host,
 * another container's namespace, a platform without {@code /proc}, unknown start time) is treated
 * as alive, so the only error this can make is waiting for the TTL. This is what lets a writer
 * reopen at once after its predecessor on the same machine crashed (a killed CLI run, a crash test's
 * child JVM), while a holder elsewhere is still waited out.
 */
public final class ProcessLiveness {

  /** Start instants are compared at this tolerance: /proc reports them in clock ticks. */
  private static final long START_TOLERANCE_MICROS = 1_000_000;

  private ProcessLiveness() {}

  /** This process's pid namespace, e.g. {@code pid:[4026531836]}; empty when unknown. */
  static String pidNamespace() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    } catch (Exception e) {
      return "";
    }
  }

  /** When {@code process} started, in microseconds since the epoch; 0 when unknown. */
  static long startedAtMicros(ProcessHandle process) {
    return process.info().startInstant().map(ProcessLiveness::micros).orElse(0L);
  }

  /**
   * True only when {@code holder}'s process is provably gone as seen from {@code self} (see the
   * class comment); false when it is alive or cannot be judged.
   */
  public static boolean provablyDead(LeaseDocument holder, LeaseOwner self) {
    if (holder.pidNamespace().isEmpty() || holder.processStartMicros() == 0
        || !holder.host().equals(self.host()) || !holder.pidNamespace().equals(self.pidNamespace())) {
      return false;
    }
    if (holder.pid() == self.pid()) {
      return false; // our own pid: the holder is this process (or we would not be running)
    }
    Optional<ProcessHandle> process = ProcessHandle.of(holder.pid());
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    long started = startedAtMicros(process.get());
    return started != 0 && Math.abs(started - holder.processStartMicros()) > START_TOLERANCE_MICROS;
  }

  private static long micros(Instant i) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, i);
  }
}
