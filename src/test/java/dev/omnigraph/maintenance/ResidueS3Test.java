package dev.omnigraph.maintenance;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class ResidueS3Test extends AbstractResidueTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("residue");
  }
}
