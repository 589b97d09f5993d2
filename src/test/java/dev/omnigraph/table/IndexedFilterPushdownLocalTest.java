package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The filter pushdown suite with an index on every column: identical rows with and without indexes. */
class IndexedFilterPushdownLocalTest extends AbstractFilterPushdownTest {
  @TempDir static Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }

  @Override
  boolean indexedEverywhere() {
    return true;
  }
}
