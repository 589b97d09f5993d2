package dev.omnigraph.read;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Files;

class ReadQueryLocalTest extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("read"));
  }
}
