package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class BranchReuseLocalTest extends AbstractBranchReuseTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("reuse"));
  }
}
