package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class BlobLocalTest extends AbstractBlobTest {
  @TempDir Path dir;
  private int roots;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir.resolve("root" + roots++));
  }
}
