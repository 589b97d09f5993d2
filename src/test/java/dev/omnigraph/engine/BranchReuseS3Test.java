package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class BranchReuseS3Test extends AbstractBranchReuseTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("reuse");
  }
}
