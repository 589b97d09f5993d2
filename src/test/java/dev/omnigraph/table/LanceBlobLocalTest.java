package dev.omnigraph.table;

import dev.omnigraph.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LanceBlobLocalTest extends AbstractLanceBlobTest {
  @TempDir Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
