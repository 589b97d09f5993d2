package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class ReplicaBranchReuseS3Test extends AbstractReplicaBranchReuseTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("replica-reuse");
  }
}
