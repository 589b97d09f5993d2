package dev.omnigraph.manifest;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class ManifestPublisherS3Test extends AbstractManifestPublisherTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("manifest");
  }
}
