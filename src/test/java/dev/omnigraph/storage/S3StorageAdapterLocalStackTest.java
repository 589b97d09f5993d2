package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.LocalStackServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** The storage contract on LocalStack's S3 (Testcontainers); skipped, saying why, without Docker. */
@ExtendWith(LocalStackServer.RequiresDocker.class)
class S3StorageAdapterLocalStackTest extends AbstractStorageAdapterContractTest {
  @Override
  protected StorageConfig newRoot() {
    return LocalStackServer.get().freshRoot("contract");
  }
}
