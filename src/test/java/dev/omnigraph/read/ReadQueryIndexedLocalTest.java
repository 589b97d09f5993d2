package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;

/** The read goldens with BTree indexes on the scalar properties that cover part of the rows. */
class ReadQueryIndexedLocalTest extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(java.nio.file.Files.createTempDirectory("read-indexed"));
  }

  @Override
  protected boolean indexed() {
    return true;
  }
}
