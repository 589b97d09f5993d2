package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class CleanupS3Test extends AbstractCleanupTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("cleanup");
  }
}
