package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class MutationS3Test extends AbstractMutationTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("mutation");
  }
}
