package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LanceSmokeLocalTest extends AbstractLanceSmokeTest {
  @TempDir Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
