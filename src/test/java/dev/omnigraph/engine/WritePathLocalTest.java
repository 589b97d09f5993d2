package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class WritePathLocalTest extends AbstractWritePathTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("write"));
  }

  /**
   * 8 threads × 20 appends by default (160 racing publishes); {@code -Domnigraph.test.writes.per.thread=50}
   * (the {@code long} profile, {@code ./mvnw -B -Plong verify}) runs the former 8 × 50.
   */
  @Override
  protected int[] concurrency() {
    return new int[] {8, Integer.getInteger("omnigraph.test.writes.per.thread", 20)};
  }
}
