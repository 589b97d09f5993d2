package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class BlobS3Test extends AbstractBlobTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("blob");
  }
}
