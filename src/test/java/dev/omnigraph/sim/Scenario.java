package dev.omnigraph.sim;

/**
 * What the simulated S3 may do to a request: every share is a probability per request, drawn from
 * the request's identity and the seed ({@link FaultPlan}), never from arrival order or wall time.
 *
 * @param name part of every draw, so two scenarios with one seed fault different requests
 * @param maxLatencyMillis each forwarded request waits 0..this long first
 * @param transientShare answered 503 SlowDown or 500 InternalError without forwarding
 * @param timeoutShare the connection closed unanswered without forwarding (what a client sees of a timeout)
 * @param lostResponseShare a PUT, POST or DELETE forwarded (it takes effect) and then its answer lost:
 *     the connection closed or a 500 sent, drawn per request; the classic in-doubt write
 * @param crashShare in a step the driver arms for a crash, each write (PUT, POST, DELETE) is the crash
 *     point with this probability: it and everything after it until {@link SimS3#restart} are refused
 * @param faultConditional whether conditional requests ({@code If-Match}, {@code If-None-Match}) may be
 *     faulted: our adapter sends them exactly once by design, so a scenario its own retries must
 *     absorb leaves them alone
 * @param slowListSteps a LIST omits keys written in the last this many steps (0: off). Off by default
 *     and in every CI scenario: S3 has been strongly consistent for LIST since December 2020, so this
 *     models other S3-compatible stores only
 */
public record Scenario(String name, int maxLatencyMillis, double transientShare, double timeoutShare,
    double lostResponseShare, double crashShare, boolean faultConditional, int slowListSteps) {

  /** Forwards everything unchanged. */
  public static final Scenario NONE = new Scenario("none", 0, 0, 0, 0, 0, false, 0);

  /**
   * Latency and transient errors on the requests the adapter retries itself (unconditional ones):
   * its bounded retries absorb them, so the storage contract holds as without faults.
   */
  public static final Scenario ABSORBED = new Scenario("absorbed", 3, 0.08, 0.02, 0, 0, false, 0);

  /**
   * The failpoint tier ({@link LocalSim}): the local filesystem, no wire. A failpoint hit of the
   * operation throws an injected error with {@code transientShare}; in a step armed for a crash each
   * hit is the crash point with {@code crashShare} (a step whose operation passes them all crashes
   * after its answer).
   */
  public static final Scenario LOCAL = new Scenario("local", 0, 0.03, 0, 0, 0.3, true, 0);

  /** The write-path workload's faults: everything, conditional requests included, and crashes. */
  public static final Scenario WRITE_PATH = new Scenario("write-path", 2, 0.02, 0.01, 0.01, 0.1, true, 0);

  /** This scenario with LIST lagging {@code steps} steps behind writes (not S3's behaviour today). */
  public Scenario withSlowList(int steps) {
    return new Scenario(name + "+slowlist" + steps, maxLatencyMillis, transientShare, timeoutShare,
        lostResponseShare, crashShare, faultConditional, steps);
  }

  /** Whether this scenario runs on the failpoint tier (local filesystem) rather than the wire. */
  public boolean local() {
    return name.equals(LOCAL.name);
  }

  /** The named scenario: none, absorbed, write-path (optionally {@code +slowlistN}), local. */
  public static Scenario named(String name) {
    int plus = name.indexOf("+slowlist");
    String base = plus < 0 ? name : name.substring(0, plus);
    Scenario s = switch (base) {
      case "none" -> NONE;
      case "absorbed" -> ABSORBED;
      case "write-path" -> WRITE_PATH;
      case "local" -> LOCAL;
      default -> throw new IllegalArgumentException("no scenario " + name);
    };
    return plus < 0 ? s : s.withSlowList(Integer.parseInt(name.substring(plus + "+slowlist".length())));
  }
}
