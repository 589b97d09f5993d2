package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class RevertS3Test extends AbstractRevertTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("revert");
  }
}
