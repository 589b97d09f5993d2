package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class LanceSearchS3Test extends AbstractLanceSearchTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("lance-search");
  }
}
