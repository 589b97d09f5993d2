package dev.omnigraph.storage;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on a local directory. */
class LocalStorageAdapterTest extends AbstractStorageAdapterContractTest {
  @TempDir Path dir;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
