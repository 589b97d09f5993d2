package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class EnsureIndicesS3Test extends AbstractEnsureIndicesTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("ensure-indices");
  }
}
