package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Files;

class RevertLocalTest extends AbstractRevertTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("revert"));
  }
}
