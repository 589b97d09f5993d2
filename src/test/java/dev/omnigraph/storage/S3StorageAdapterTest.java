package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

/** The storage contract on a real S3 protocol server (S3Mock on loopback). */
class S3StorageAdapterTest extends AbstractStorageAdapterContractTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("contract");
  }
}
