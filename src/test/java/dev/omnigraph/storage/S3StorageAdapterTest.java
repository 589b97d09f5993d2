package dev.omnigraph.storage;

import dev.omnigraph.testing.S3TestServer;

/** The storage contract on a real S3 protocol server (S3Mock on loopback). */
class S3StorageAdapterTest extends AbstractStorageAdapterContractTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("contract");
  }

  /**
   * S3Mock 5.2.0 evaluates {@code If-None-Match: *} and then stores the object with no lock across
   * the two: 16 racing creators often all see "absent" (observed: several winners in 16 of 40
   * rounds). Sequentially it answers 412 as S3 does. AWS S3 itself is atomic here.
   */
  @Override
  protected boolean serverCreatesAtomically() {
    return false;
  }
}
