package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class WritePathS3Test extends AbstractWritePathTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("write");
  }

  /** Every S3Mock round trip is slow; 8 threads run on the local backend. */
  @Override
  protected int[] concurrency() {
    return new int[] {4, 5};
  }
}
