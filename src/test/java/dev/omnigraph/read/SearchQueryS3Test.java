package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class SearchQueryS3Test extends AbstractSearchQueryTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("search");
  }
}
