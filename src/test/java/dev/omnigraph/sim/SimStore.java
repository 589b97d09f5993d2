package dev.omnigraph.sim;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.omnigraph.api.storage.StorageConfig;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Where a history's graph lives and how faults and crashes reach it: the wire tier
 * ({@link SimS3}, S3 faults Lance and the SDK both meet) or the failpoint tier ({@link LocalSim},
 * the local filesystem with crashes and errors thrown at the write path's typed failpoints). A
 * {@link History} drives either the same way: steps, faults on for the operation and off for the
 * checker, a crash armed, restart.
 */
interface SimStore extends AutoCloseable {

  /** The store for {@code scenario}: a {@code local...} scenario runs on the failpoint tier. */
  static SimStore open(Scenario scenario, long seed) throws java.io.IOException {
    return scenario.local() ? new LocalSim(scenario, seed) : new SimS3(scenario, seed);
  }

  /** An empty root of this store. */
  StorageConfig freshRoot(String label) throws java.io.IOException;

  /** A fresh root holding the graph {@code init} made, copied from the tier's template (built beforehand). */
  StorageConfig initialised() throws java.io.IOException;

  /** Starts step {@code n}: occurrences count afresh, and no crash is armed. */
  void step(int n);

  /** Faults on (the operation under test) or off (the checker's reads, recovery's settling). */
  void faults(boolean on);

  /** Lets the current step crash at a seeded point. */
  void armCrash();

  /** Whether a crash stopped the client (until {@link #restart}). */
  boolean crashed();

  /** The client dies now, between two requests (after its answer). */
  void crashNow();

  /** The restarted client's requests reach the store again. */
  void restart();

  /** How many requests (or failpoint hits) met each fault so far. */
  Map<FaultPlan.Fault, Integer> faultCounts();

  /** How many requests (or failpoint hits) the trace holds. */
  int requests();

  /** The canonical trace, one line per request or hit, sorted so thread interleaving does not change it. */
  List<String> trace();

  /** SHA-256 of the trace, one line per entry. */
  default String traceHash() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (String line : trace()) {
        md.update((line + "\n").getBytes(UTF_8));
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  void close();
}
