package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class CleanupLocalTest extends AbstractCleanupTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("cleanup"));
  }
}
