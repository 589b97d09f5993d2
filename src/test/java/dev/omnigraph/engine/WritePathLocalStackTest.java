package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.LocalStackServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** The write-path contract on LocalStack's S3 (Testcontainers); skipped, saying why, without Docker. */
@ExtendWith(LocalStackServer.RequiresDocker.class)
class WritePathLocalStackTest extends AbstractWritePathTest {
  @Override
  protected StorageConfig newRoot() {
    return LocalStackServer.get().freshRoot("write");
  }

  @Override
  protected int[] concurrency() {
    return new int[] {4, 5};
  }
}
