package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class SchemaApplyS3Test extends AbstractSchemaApplyTest {

  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("schema-apply");
  }
}
