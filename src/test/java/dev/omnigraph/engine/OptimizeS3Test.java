package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class OptimizeS3Test extends AbstractOptimizeTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("optimize");
  }
}
