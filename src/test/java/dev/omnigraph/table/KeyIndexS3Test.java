package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class KeyIndexS3Test extends AbstractKeyIndexTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("keyindex");
  }
}
