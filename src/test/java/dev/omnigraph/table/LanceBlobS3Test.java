package dev.omnigraph.table;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class LanceBlobS3Test extends AbstractLanceBlobTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("lance");
  }
}
