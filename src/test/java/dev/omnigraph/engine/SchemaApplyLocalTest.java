package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class SchemaApplyLocalTest extends AbstractSchemaApplyTest {

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("schema-apply"));
  }
}
