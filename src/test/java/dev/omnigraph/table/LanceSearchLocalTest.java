package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class LanceSearchLocalTest extends AbstractLanceSearchTest {
  @Override
  StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("lance-search"));
  }
}
