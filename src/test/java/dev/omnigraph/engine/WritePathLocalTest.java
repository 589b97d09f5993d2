package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Files;

class WritePathLocalTest extends AbstractWritePathTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("write"));
  }

  @Override
  protected int[] concurrency() {
    return new int[] {8, 50};
  }
}
