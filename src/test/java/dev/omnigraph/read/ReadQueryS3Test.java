package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class ReadQueryS3Test extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("read");
  }
}
