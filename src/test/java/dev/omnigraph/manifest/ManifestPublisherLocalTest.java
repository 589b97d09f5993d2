package dev.omnigraph.manifest;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class ManifestPublisherLocalTest extends AbstractManifestPublisherTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("manifest"));
  }
}
