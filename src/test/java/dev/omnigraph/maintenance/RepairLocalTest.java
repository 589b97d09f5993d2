package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class RepairLocalTest extends AbstractRepairTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("repair"));
  }
}
