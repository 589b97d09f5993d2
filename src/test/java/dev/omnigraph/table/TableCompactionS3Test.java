package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class TableCompactionS3Test extends AbstractTableCompactionTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("compaction");
  }
}
