package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class LanceSmokeS3Test extends AbstractLanceSmokeTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("lance");
  }
}
