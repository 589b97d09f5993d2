package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class RootCopyS3Test extends AbstractRootCopyTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("copy");
  }

  @Override
  protected StorageConfig movedRoot(StorageConfig original) {
    return S3TestServer.get().rootBeside(original, original.prefix() + "-moved/graphs/g");
  }

  @Override
  protected boolean thorough() {
    return false;
  }
}
