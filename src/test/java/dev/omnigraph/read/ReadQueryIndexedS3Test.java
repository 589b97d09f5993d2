package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;

/** The read goldens with BTree indexes on the scalar properties that cover part of the rows. */
class ReadQueryIndexedS3Test extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() {
    return dev.omnigraph.testing.S3TestServer.get().freshRoot("read-indexed");
  }

  @Override
  protected boolean indexed() {
    return true;
  }
}
