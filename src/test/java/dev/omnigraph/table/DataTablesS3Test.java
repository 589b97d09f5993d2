package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class DataTablesS3Test extends AbstractDataTablesTest {
  @Override
  StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("datatables");
  }

  /** 403 AccessDenied (not retried by the object store client) for every request under the prefix. */
  @Override
  AutoCloseable breakStorageUnder(StorageConfig root, String keyPrefix) {
    return S3TestServer.get().injectFault(root, keyPrefix, 403, "AccessDenied");
  }
}
