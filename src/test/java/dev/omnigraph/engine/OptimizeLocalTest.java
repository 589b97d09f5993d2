package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class OptimizeLocalTest extends AbstractOptimizeTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("optimize"));
  }
}
