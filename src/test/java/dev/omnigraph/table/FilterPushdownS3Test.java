package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class FilterPushdownS3Test extends AbstractFilterPushdownTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("filters");
  }

  @Override
  boolean exhaustive() {
    return false;
  }
}
