package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class RepairS3Test extends AbstractRepairTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("repair");
  }
}
