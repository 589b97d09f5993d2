package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class RootCopyLocalTest extends AbstractRootCopyTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("copy"));
  }

  @Override
  protected StorageConfig movedRoot(StorageConfig original) throws Exception {
    return StorageConfig.local(Files.createTempDirectory("moved").resolve("graphs").resolve("g"));
  }
}
