package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FilterPushdownLocalTest extends AbstractFilterPushdownTest {
  @TempDir static Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }
}
