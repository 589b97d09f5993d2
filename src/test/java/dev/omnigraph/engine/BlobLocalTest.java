package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class BlobLocalTest extends AbstractBlobTest {
  @TempDir Path dir;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
