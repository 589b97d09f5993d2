package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.sim.Scenario;
import dev.omnigraph.sim.SimS3;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage contract through the simulated S3 under {@link Scenario#ABSORBED}: seeded latency,
 * 503/500 and dropped connections on the unconditional requests, which the adapter's SDK client
 * retries (its conditional requests get one attempt by design, so the scenario spares them). The
 * contract holds exactly as without faults; the class checks at the end that faults did fire.
 */
class S3StorageAdapterSimFaultsTest extends AbstractStorageAdapterContractTest {
  private static SimS3 sim;

  @BeforeAll
  static void start() throws Exception {
    sim = new SimS3(Scenario.ABSORBED, Long.getLong("sim.seed", 42));
  }

  @AfterAll
  static void stop() {
    try {
      // Without this the class could pass with a plan that faults nothing.
      assertThat(sim.faultCounts().values().stream().mapToInt(Integer::intValue).sum())
          .as("faults injected under %s", sim).isGreaterThan(10);
      System.out.println("S3StorageAdapterSimFaultsTest " + sim + ": " + sim.requests() + " requests, faults "
          + sim.faultCounts());
    } finally {
      sim.close();
    }
  }

  @Override
  protected StorageConfig newRoot() {
    return sim.freshRoot("contract");
  }
}
