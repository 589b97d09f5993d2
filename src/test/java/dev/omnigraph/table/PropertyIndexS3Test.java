package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class PropertyIndexS3Test extends AbstractPropertyIndexTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("propindex");
  }
}
