package dev.omnigraph.lease;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

/** The writer lease on a real S3 protocol server (S3Mock on loopback, behind the conditional-write front). */
class S3LeaseManagerTest extends AbstractLeaseManagerTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("lease");
  }
}
