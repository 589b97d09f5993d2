package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class WriterLeaseS3Test extends AbstractWriterLeaseTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("lease");
  }
}
