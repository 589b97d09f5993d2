package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class MergeS3Test extends AbstractMergeTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("merge");
  }
}
