package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class SearchQueryLocalTest extends AbstractSearchQueryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("search"));
  }
}
