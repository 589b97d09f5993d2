package dev.omnigraph.lease;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The writer lease on a local directory. */
class LocalLeaseManagerTest extends AbstractLeaseManagerTest {
  @TempDir Path dir;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
