package dev.omnigraph.sim;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.SplittableRandom;

/**
 * The faults of one run as a pure function of (scenario, seed, request identity): the same request
 * in the same step of the same run always meets the same fate, whichever thread sent it and
 * whenever it arrived. That is what makes a run replayable although Lance sends its requests from
 * its own threads.
 */
final class FaultPlan {

  /** What happens to one request. */
  enum Fault {
    NONE,
    /** 503 SlowDown, not forwarded. */
    SLOW_DOWN,
    /** 500 InternalError, not forwarded. */
    INTERNAL_ERROR,
    /** Connection closed unanswered, not forwarded. */
    TIMEOUT,
    /** Forwarded, then the connection closed unanswered. */
    LOST_RESPONSE_DROP,
    /** Forwarded, then answered 500 InternalError. */
    LOST_RESPONSE_500,
    /** The crash point: refused, and so is everything after it until the restart. */
    CRASH,
    /** The failpoint tier: an error thrown at a failpoint hit (the operation fails, the process lives). */
    INJECTED_ERROR
  }

  /** The decision for one request: a latency before it is handled, and its fault. */
  record Decision(int latencyMillis, Fault fault) {}

  private final Scenario scenario;
  private final long seed;

  FaultPlan(Scenario scenario, long seed) {
    this.scenario = scenario;
    this.seed = seed;
  }

  /**
   * @param crashArmed whether the driver armed a crash for this request's step
   */
  Decision decide(RequestId id, boolean crashArmed) {
    SplittableRandom r = new SplittableRandom(hash(scenario.name() + "|" + seed + "|" + id.canonical()));
    int latency = scenario.maxLatencyMillis() == 0 ? 0 : r.nextInt(scenario.maxLatencyMillis() + 1);
    double u = r.nextDouble();
    double crashDraw = r.nextDouble();
    // Only a write can be the crash point: a crash at a read leaves the store as a crash at the next
    // write would, and reads racing a crash point would make the trace depend on thread timing.
    if (crashArmed && id.writes() && crashDraw < scenario.crashShare()) {
      return new Decision(latency, Fault.CRASH);
    }
    if (id.conditional() && !scenario.faultConditional()) {
      return new Decision(latency, Fault.NONE);
    }
    double t = scenario.transientShare();
    if (u < t) {
      return new Decision(latency, r.nextBoolean() ? Fault.SLOW_DOWN : Fault.INTERNAL_ERROR);
    }
    if (u < t + scenario.timeoutShare()) {
      return new Decision(latency, Fault.TIMEOUT);
    }
    if (id.writes() && u < t + scenario.timeoutShare() + scenario.lostResponseShare()) {
      return new Decision(latency, r.nextBoolean() ? Fault.LOST_RESPONSE_DROP : Fault.LOST_RESPONSE_500);
    }
    return new Decision(latency, Fault.NONE);
  }

  /** The first 64 bits of the SHA-256 of {@code text}: stable across JVMs, unlike String.hashCode mixes. */
  static long hash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
      long h = 0;
      for (int i = 0; i < 8; i++) {
        h = (h << 8) | (d[i] & 0xFF);
      }
      return h;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
