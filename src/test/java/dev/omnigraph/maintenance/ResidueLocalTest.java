package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class ResidueLocalTest extends AbstractResidueTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("residue"));
  }
}
