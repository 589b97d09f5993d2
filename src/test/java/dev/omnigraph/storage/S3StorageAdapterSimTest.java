package dev.omnigraph.storage;

import dev.omnigraph.sim.Scenario;
import dev.omnigraph.sim.SimS3;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage contract through the simulated S3 with no faults: the simulation's wire front is
 * transparent (the simulated store must pass the StorageAdapter contract suite).
 */
class S3StorageAdapterSimTest extends AbstractStorageAdapterContractTest {
  private static SimS3 sim;

  @BeforeAll
  static void start() throws Exception {
    sim = new SimS3(Scenario.NONE, 1);
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Override
  protected StorageConfig newRoot() {
    return sim.freshRoot("contract");
  }
}
