package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.LocalStackServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** The recovery contract on LocalStack's S3 (Testcontainers); skipped, saying why, without Docker. */
@ExtendWith(LocalStackServer.RequiresDocker.class)
class RecoveryLocalStackTest extends AbstractRecoveryTest {
  @Override
  protected StorageConfig newRoot() {
    return LocalStackServer.get().freshRoot("recovery");
  }
}
