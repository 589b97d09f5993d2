package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class RecoveryLocalTest extends AbstractRecoveryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("recovery"));
  }
}
